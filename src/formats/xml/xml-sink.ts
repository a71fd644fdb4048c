// What a document composer talks to: elements opened, leaves with text, elements closed. The
// production sink is the chunk writer; the tests also drive an xmlbuilder2 sink with the same
// calls to prove the bytes identical. Attributes are passed as one name/value pair because our
// documents never need more (xmlns on the root, Ccy on amounts) and it saves an allocation per leaf.
export interface XmlSink {
  /** Opens an element; `text` values are raw (the sink escapes). */
  open(name: string, attributeName?: string, attributeValue?: string): void;
  /** A leaf element with text content. */
  leaf(name: string, text: string, attributeName?: string, attributeValue?: string): void;
  close(): void;
}
