// The controls use case: what the rest of settle may use of it. Its other files are its own.
export { loadAuditedControls } from './controls.js';
export { decideHeldPayment, decideHold } from './held-payments.js';
export { controlsTestText, testControls } from './test-file.js';
