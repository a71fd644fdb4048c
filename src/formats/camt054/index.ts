// camt.054 (.001.02 default, .001.08) debit and credit notification writer. Mapping: docs/formats/camt054.md.
export { CAMT054_DIALECTS, type Camt054Version } from './versions.js';
export { writeCamt054, type Camt054Options, type Camt054Output } from './write.js';
