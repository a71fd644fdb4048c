// The accounts use case: what the rest of settle may use of it. Its other files are its own.
export { type DebtorAccountCheck, debtorAccountCheck } from './debtor-check.js';
export {
  directoryWith,
  isUnreachable,
  type DirectoryUnreachable,
  directoryOncePerRun,
  type DirectoryDeps,
} from './directory.js';
