// camt.053 (.001.02 default, .001.08) statement writer. Mapping: docs/formats/camt053.md.
export { composeHead, composeTail, type ComposeContext } from './compose.js';
export { renderEntry } from './render-entry.js';
export { CAMT053_DIALECTS, type Camt053Dialect, type Camt053Version } from './versions.js';
export { writeCamt053, type Camt053Options, type Camt053Output } from './write.js';
