// A small streaming XML writer and the text rules every XML document settle writes follows.
export { XML_DECLARATION, XmlChunkWriter, type ChunkWriterOptions } from './chunk-writer.js';
export {
  codePointLength,
  escapeAttribute,
  escapeText,
  prepareText,
  sanitiseXmlText,
  truncateCodePoints,
  type PreparedText,
  type TextChange,
} from './text.js';
export type { XmlSink } from './xml-sink.js';
export { issueCollector, requiredTextIssue, textIssue, type IssueListener } from './issues.js';
export { formatDateTime } from './date-time.js';
