// Streaming pain.001 reader on saxes: decoded text in, raw payments and control
// declarations out, each value located by an XPath with positions
// (/Document/CstmrCdtTrfInitn/PmtInf[2]/CdtTrfTxInf[7]/Amt/InstdAmt). No DTD is ever
// processed: a <!DOCTYPE is refused before the parser sees it (no XXE, no entity bombs), and
// size, depth and text length are capped, so no input can make it hang or hold unbounded memory.
// What each element becomes is the document handler's work (document-handler.ts).
import { SaxesParser } from 'saxes';
import { IssueCode } from '../../domain/validation/codes.js';
import { DEFAULT_MAX_FILE_BYTES, FILE_SIZE_SETTING, formatBytes } from '../../domain/validation/file-size.js';
import type { ReaderItem } from '../../domain/validation/reader-item.js';
import { DocumentHandler } from './document-handler.js';

export interface Pain001Limits {
  /**
   * Largest document in characters: intake passes intake.maxFileSize (bytes, default 1 GiB), and
   * no encoding has fewer bytes than characters, so only a file that grew while read gets here.
   */
  maxChars?: number;
  /** Deepest element nesting (default 48; real pain.001 needs about 12). */
  maxDepth?: number;
  /** Longest text of one element (default 10,000 characters; the longest pain.001 field has 140). */
  maxTextLength?: number;
}

export class Pain001Reader {
  /** The message version once the root element was read, e.g. "pain.001.001.09". */
  version: string | undefined;
  /** GrpHdr/MsgId once read: the ERP's own id of the message, quoted back in pain.002. */
  messageId: string | undefined;
  private readonly maxChars: number;
  private readonly maxDepth: number;
  private readonly maxText: number;

  constructor(limits: Pain001Limits = {}) {
    this.maxChars = limits.maxChars ?? DEFAULT_MAX_FILE_BYTES;
    this.maxDepth = limits.maxDepth ?? 48;
    this.maxText = limits.maxTextLength ?? 10_000;
  }

  async *read(text: AsyncIterable<string> | Iterable<string>): AsyncGenerator<ReaderItem[]> {
    // Namespaces are settle's (namespaces.ts): saxes's own mode costs every element a scope.
    const parser = ncNames(new SaxesParser({ xmlns: false, position: true }));
    const doc = new DocumentHandler(parser, this.maxDepth, this.maxText);
    const dtd = new DtdGuard();
    let seen = 0;
    for await (const chunk of text) {
      seen += chunk.length;
      if (seen > this.maxChars) this.tooLarge(doc);
      // A DTD can only come before the root element; after it, saxes itself refuses one as misplaced.
      if (!doc.stopped && !doc.rootSeen) {
        const at = dtd.find(chunk);
        if (at < 0) parser.write(chunk);
        else {
          if (at > 0) parser.write(chunk.slice(0, at));
          doc.refuseDtd();
        }
      } else if (!doc.stopped) {
        parser.write(chunk);
      }
      yield* this.take(doc);
      if (doc.stopped) return;
    }
    if (!doc.stopped) parser.close();
    doc.finish();
    yield* this.take(doc);
  }

  private tooLarge(doc: DocumentHandler): void {
    doc.stop(
      IssueCode.XML_LIMIT_EXCEEDED,
      `the document is larger than ${this.maxChars.toLocaleString('en-US')} characters, the limit of ${formatBytes(this.maxChars)} set by ${FILE_SIZE_SETTING}; reading stopped here: split the file, or raise the limit`,
      doc.here(),
    );
  }

  /** Hands out what the handler found since the last chunk (and the version and message id). */
  private *take(doc: DocumentHandler): Generator<ReaderItem[]> {
    this.version = doc.version;
    this.messageId = doc.messageId;
    if (doc.out.length === 0) return;
    const out = doc.out;
    doc.out = [];
    yield out;
  }
}

/**
 * Processing instruction targets and entity names without colons, as saxes checks them in its
 * namespace mode (Namespaces in XML: they are NCNames). Element and attribute names are checked
 * by the namespace scope.
 */
function ncNames(parser: SaxesParser<{ xmlns: false; position: true }>): SaxesParser<{ xmlns: false; position: true }> {
  const checks = parser as unknown as NameChecks;
  const start = checks.nameStartCheck;
  const rest = checks.nameCheck;
  const whole = checks.isName;
  checks.nameStartCheck = (c) => c !== COLON && start(c);
  checks.nameCheck = (c) => c !== COLON && rest(c);
  checks.isName = (name) => !name.includes(':') && whole(name);
  return parser;
}

const COLON = 0x3a;

/** saxes's name checks, which it sets per parser (its namespace mode sets the NCName ones). */
interface NameChecks {
  nameStartCheck: (c: number) => boolean;
  nameCheck: (c: number) => boolean;
  isName: (name: string) => boolean;
}

/**
 * Finds "<!DOCTYPE" in the text before the root element, also across chunk borders (the border
 * window is short: joining whole chunks would copy every chunk once more). -1 when absent, else
 * the offset in the chunk where the text before the DTD ends.
 */
class DtdGuard {
  private carry = '';

  find(chunk: string): number {
    const inChunk = chunk.indexOf('<!DOCTYPE');
    if (inChunk >= 0) return inChunk;
    const atBorder = this.carry === '' ? -1 : (this.carry + chunk.slice(0, 8)).indexOf('<!DOCTYPE');
    this.carry = chunk.length >= 8 ? chunk.slice(-8) : (this.carry + chunk).slice(-8);
    return atBorder >= 0 ? 0 : -1;
  }
}

/** Reads a pain.001 document; `version` is on the returned reader once the root was read. */
export function readPain001(
  text: AsyncIterable<string> | Iterable<string>,
  limits?: Pain001Limits,
): { reader: Pain001Reader; items: AsyncGenerator<ReaderItem[]> } {
  const reader = new Pain001Reader(limits);
  return { reader, items: reader.read(text) };
}
