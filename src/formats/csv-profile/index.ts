// CSV payment files described by profiles (config/profiles/*.yaml).
export { loadProfile, loadProfileWith } from './load-profile.js';
export { expectProfileKind, PROFILE_KINDS, profileKindOf, type ProfileKind } from './profile-kind.js';
export { parseProfile, parseProfileWith, type ProfileProblem } from './parse-profile.js';
export {
  csvFormatFields,
  csvProfileSchema,
  PROFILE_ENCODINGS,
  type CsvProfile,
  type ProfileEncoding,
} from './profile.js';
export { readCsv, type CsvReadOptions } from './read-csv.js';
