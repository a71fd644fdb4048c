// The submit use case: what the rest of settle may use of it. Its other files are its own.
export { runSubmit, type SubmitSummary } from './submit.js';
export { bulkRequest } from './bulk-request.js';
export { recordSent, type SentStore } from './record-sent.js';
export { CONFIRM_ABSENT_AFTER_DAYS, resolveUnknownBulk, type Resolution, type ResolveDeps } from './resolve-unknown.js';
