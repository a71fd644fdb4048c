// The purge use case: what the rest of settle may use of it. Its other files are its own.
export { runPurgeCompany, runPurgeShared, type CompanyPurge, type PurgeDeps } from './purge.js';
