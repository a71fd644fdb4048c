// A small streaming XML writer: it appends to a string and hands out chunks, so memory stays
// flat however many elements pass through. Output is byte-identical to xmlbuilder2's document
// API serialised with { prettyPrint: true, indent: '  ', newline: '\n' } (proved in
// test/formats/writers/xml-identity.test.ts): declaration, then every node on its own line,
// start tags always on one line (aqbanking's reader rejects a line break inside a start tag),
// no trailing newline. xmlbuilder2 itself is not used for big documents: its streaming API
// writes about 2.7k elements/s and its document API keeps ~16 KB per element in memory.
import type { XmlSink } from './xml-sink.js';
import { escapeAttribute, escapeText } from './text.js';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export interface ChunkWriterOptions {
  indent?: string;
  /** A chunk is ready once the buffer holds at least this many UTF-16 units. */
  chunkSize?: number;
}

interface Tags {
  /** "\n  <Name" — newline, indentation and the start of the start tag. */
  start: string;
  /** "\n  <Name>" — the whole start tag of an element without attributes. */
  startClosed: string;
  /** "\n  </Name>" — the end tag on its own line, after children. */
  end: string;
  /** "</Name>" — the end tag after text on the same line. */
  inlineEnd: string;
}

export class XmlChunkWriter implements XmlSink {
  // The chunk so far, appended to. An array of pieces joined once per chunk cost more: an entry
  // rendered by a template is itself a tree of concatenated strings, and join flattened each one
  // into a copy of its own before copying it again (a third of the camt.053 writer's time,
  // docs/decisions/0018-writers-at-the-template.md). Whoever consumes the chunk flattens it once.
  private buffer: string = XML_DECLARATION;
  private readonly stack: string[] = [];
  // Tag strings per depth and name, built once: a statement repeats the same few dozen tags a
  // million times, and fewer string pieces per element make the writer about twice as fast.
  private readonly tags: Map<string, Tags>[] = [];
  private readonly indentUnit: string;
  readonly chunkSize: number;

  constructor(options: ChunkWriterOptions = {}) {
    this.indentUnit = options.indent ?? '  ';
    this.chunkSize = options.chunkSize ?? 64 * 1024;
  }

  open(name: string, attributeName?: string, attributeValue?: string): void {
    const tags = this.tagsFor(name);
    this.push(
      attributeName === undefined ? tags.startClosed : tags.start + attribute(attributeName, attributeValue) + '>',
    );
    this.stack.push(name);
  }

  leaf(name: string, text: string, attributeName?: string, attributeValue?: string): void {
    const tags = this.tagsFor(name);
    // xmlbuilder2 writes an element without content as <name/>; so do we.
    const start = attributeName === undefined ? tags.start : tags.start + attribute(attributeName, attributeValue);
    if (text === '') {
      this.push(start + '/>');
    } else {
      this.push(attributeName === undefined ? tags.startClosed : start + '>');
      this.push(escapeText(text));
      this.push(tags.inlineEnd);
    }
  }

  close(): void {
    const name = this.stack.pop();
    if (name === undefined) throw new Error('XmlChunkWriter: close() without an open element');
    this.push(this.tagsFor(name).end);
  }

  /**
   * Appends text that is already XML at the current depth (a fast renderer's output for a whole
   * element, starting with its line break). The caller answers for it being well-formed.
   */
  raw(xml: string): void {
    this.push(xml);
  }

  /** True once a chunk of at least chunkSize is waiting. */
  get ready(): boolean {
    return this.buffer.length >= this.chunkSize;
  }

  /** Hands out what was written so far and starts a new chunk. */
  take(): string {
    const chunk = this.buffer;
    this.buffer = '';
    return chunk;
  }

  /** The remaining text; throws if an element is still open. */
  finish(): string {
    if (this.stack.length > 0) throw new Error(`XmlChunkWriter: <${this.stack.join('>/<')}> still open`);
    return this.take();
  }

  private push(piece: string): void {
    this.buffer += piece;
  }

  /** Tags of `name` at the current depth. */
  private tagsFor(name: string): Tags {
    const depth = this.stack.length;
    let byName = this.tags[depth];
    if (byName === undefined) {
      byName = new Map();
      this.tags[depth] = byName;
    }
    let tags = byName.get(name);
    if (tags === undefined) {
      const indent = '\n' + this.indentUnit.repeat(depth);
      tags = {
        start: indent + '<' + name,
        startClosed: indent + '<' + name + '>',
        end: indent + '</' + name + '>',
        inlineEnd: '</' + name + '>',
      };
      byName.set(name, tags);
    }
    return tags;
  }
}

function attribute(name: string, value: string | undefined): string {
  return ' ' + name + '="' + escapeAttribute(value ?? '') + '"';
}
