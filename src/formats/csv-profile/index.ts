// CSV payment files described by profiles (config/profiles/*.yaml).
export { loadProfile, loadProfileWith, parseProfile, parseProfileWith, type ProfileProblem } from './load-profile.js';
export {
  csvFormatFields,
  csvProfileSchema,
  PROFILE_ENCODINGS,
  type CsvProfile,
  type ProfileEncoding,
} from './profile.js';
export { readCsv, type CsvReadOptions } from './read-csv.js';
