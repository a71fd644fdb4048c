// pain.002 (.001.03 default, .001.10) payment status report writer. Mapping: docs/formats/pain002.md.
export { PAIN002_03_STATUS_MAP, PAIN002_DIALECTS, type Pain002Dialect, type Pain002Version } from './versions.js';
export { composePain002, writePain002, type Pain002Options, type Pain002Output } from './write.js';
