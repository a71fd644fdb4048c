export * from './settings.js';
export * from './history.js';
export * from './rules.js';
export * from './reason-codes.js';
export * from './duplicate-holds.js';
export * from './pickup-holds.js';
