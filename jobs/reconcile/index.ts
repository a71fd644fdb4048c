// The reconcile use case: what the rest of settle may use of it. Its other files are its own.
export { decisionMismatch } from './finding-decision.js';
export { sentPayments } from './inputs.js';
export { signOffPeriod } from './period-signoff.js';
export { runReconcile, type CompanyReconciliation, type ReconcileDeps } from './reconcile.js';
