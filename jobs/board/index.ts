// The board use case: what the rest of settle may use of it. Its other files are its own.
export { readBoard } from './board.js';
