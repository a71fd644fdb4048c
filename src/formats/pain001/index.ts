// ISO 20022 pain.001 (customer credit transfer initiation) reader.
export { Pain001Reader, readPain001, type Pain001Limits } from './read-pain001.js';
export { PAIN001_NAMESPACES, pain001Version } from './versions.js';
