// Payment intake: detect the format of a file, read it, validate it, report.
export { ByteSource, readHead } from './byte-source.js';
export { detectFormat, type Detected } from './detect-format.js';
export { DEFAULT_INTAKE, intakeValidation, type IntakeSettings } from './intake-settings.js';
export { clipIssue, clipIssues, clipQuoted, MAX_QUOTED } from './clip-issues.js';
export { errorsNotKept } from './issue-list.js';
export { issueJson, listingAfter, toHuman, toJson, type IntakeJson } from './render-result.js';
export { jsonListEntry, jsonWithMore } from './json-with-more.js';
export { SpilledIssues } from './spilled-issues.js';
export { LinePlaces, type BlockStart } from './line-places.js';
export { validateFile, type IntakeOptions, type IntakeResult } from './validate-file.js';
