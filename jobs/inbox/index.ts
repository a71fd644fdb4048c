// The inbox use case: what the rest of settle may use of it. Its other files are its own.
export { reportOthers } from './others.js';
export { removeStaleParts } from './part-leftovers.js';
export { archivePath, freeName } from './paths.js';
