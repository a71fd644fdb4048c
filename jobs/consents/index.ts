// The consents use case: what the rest of settle may use of it. Its other files are its own.
export { ownsConsent, consentOrganisation, INACTIVE_CONSENT } from './ownership.js';
export { runSyncConsents, type SyncConsentsDeps, consentListPerRun } from './sync.js';
