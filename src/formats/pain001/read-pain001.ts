// Streaming pain.001 reader on saxes: decoded text in, raw payment lines and control
// declarations out, each value located by an XPath with positions
// (/Document/CstmrCdtTrfInitn/PmtInf[2]/CdtTrfTxInf[7]/Amt/InstdAmt). No DTD is ever
// processed: a <!DOCTYPE is refused before the parser sees it (no XXE, no entity bombs), and
// size, depth and text length are capped, so no input can make it hang or hold unbounded memory.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { Issue, IssueLocation } from '../../domain/issue.js';
import { IssueCode } from '../../domain/validation/codes.js';
import type { ControlDeclaration } from '../../domain/validation/control-totals.js';
import {
  emptyFields,
  type PaymentField,
  type RawField,
  type RawFields,
  type RawPaymentLine,
} from '../../domain/validation/raw-line.js';
import type { ReaderItem } from '../../domain/validation/reader-item.js';
import { pain001Version } from './versions.js';

export interface Pain001Limits {
  /** Largest document in characters (default 256 MiB). */
  maxChars?: number;
  /** Deepest element nesting (default 48; real pain.001 needs about 12). */
  maxDepth?: number;
  /** Longest text of one element (default 10,000 characters; the longest pain.001 field has 140). */
  maxTextLength?: number;
}

/** Transaction-level element paths (relative to CdtTrfTxInf) → payment field. */
const TX_FIELDS: Readonly<Record<string, PaymentField>> = {
  'PmtId/EndToEndId': 'endToEndId',
  'Amt/InstdAmt': 'amount',
  'CdtrAgt/FinInstnId/BIC': 'creditorBic',
  'CdtrAgt/FinInstnId/BICFI': 'creditorBic',
  'Cdtr/Nm': 'creditorName',
  'CdtrAcct/Id/IBAN': 'creditorIban',
  // settle pays IBANs only; an account given as Othr/Id still goes through the IBAN check.
  'CdtrAcct/Id/Othr/Id': 'creditorIban',
  'RmtInf/Ustrd': 'remittanceInformation',
  'RmtInf/Strd/CdtrRefInf/Ref': 'creditorReference',
  'PmtTpInf/InstrPrty': 'instructionPriority',
};

/** PmtInf-level element paths (relative to PmtInf) → payment field, inherited by its transactions. */
const PMTINF_FIELDS: Readonly<Record<string, PaymentField>> = {
  ReqdExctnDt: 'requestedExecutionDate',
  'ReqdExctnDt/Dt': 'requestedExecutionDate',
  'ReqdExctnDt/DtTm': 'requestedExecutionDate',
  'Dbtr/Nm': 'debtorName',
  'DbtrAcct/Id/IBAN': 'debtorIban',
  'DbtrAcct/Id/Othr/Id': 'debtorIban',
  'PmtTpInf/InstrPrty': 'instructionPriority',
};

const REPEATED = new Set(['PmtInf', 'CdtTrfTxInf', 'Ustrd', 'Strd']);

/**
 * The mapped paths as a tree walked element by element: each open element knows its node, so
 * closing one needs no string building and its key is a constant string.
 */
interface PathNode {
  children: Map<string, PathNode>;
  key?: string;
}

function pathTree(keys: readonly string[]): PathNode {
  const root: PathNode = { children: new Map() };
  for (const key of keys) {
    let node = root;
    for (const step of key.split('/')) {
      let next = node.children.get(step);
      if (!next) node.children.set(step, (next = { children: new Map() }));
      node = next;
    }
    node.key = key;
  }
  return root;
}

const TX_TREE = pathTree(Object.keys(TX_FIELDS));
const PMTINF_TREE = pathTree([...Object.keys(PMTINF_FIELDS), 'PmtInfId', 'NbOfTxs', 'CtrlSum', 'BtchBookg']);

/**
 * One open element. Frames are pooled per depth and reused (no allocation per element), and
 * an element's XPath is built only when something needs it (a captured field, an issue).
 */
interface Frame {
  name: string;
  /** Position among same-name siblings (1-based): the XPath step is "PmtInf[2]" when it matters. */
  position: number;
  parent: Frame | undefined;
  path: string | undefined;
  /** Where the element is in the mapped paths of the open PmtInf or CdtTrfTxInf, if anywhere. */
  node: PathNode | undefined;
  hasChildren: boolean;
  /**
   * Position counting of same-name children. pain.001 repeats elements only as consecutive
   * siblings (xs:sequence), so counting runs of one name gives the XPath position.
   */
  lastChild: string;
  lastCount: number;
  text: string;
}

/**
 * The XPath of a transaction field: the transaction's path and the field's key when no element
 * on the way repeats (the usual case, one string joined), else built step by step.
 */
function txFieldPath(frame: Frame, levels: number, txPath: string, key: string): string {
  let f: Frame | undefined = frame;
  for (let i = 0; i < levels && f; i++, f = f.parent) {
    // Ustrd and Strd are the REPEATED elements a transaction can hold: their step has a position.
    if (f.position !== 1 || f.name === 'Ustrd' || f.name === 'Strd') return pathOf(frame);
  }
  return `${txPath}/${key}`;
}

function pathOf(frame: Frame): string {
  if (frame.path === undefined) {
    const step = frame.position > 1 || REPEATED.has(frame.name) ? `${frame.name}[${frame.position}]` : frame.name;
    frame.path = `${frame.parent ? pathOf(frame.parent) : ''}/${step}`;
  }
  return frame.path;
}

interface Block {
  path: string;
  depth: number;
  fields: RawFields;
  nbOfTxs?: RawField;
  ctrlSum?: RawField;
  batchBooking?: boolean;
  paymentInformationId?: string;
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
    this.maxChars = limits.maxChars ?? 256 * 1024 * 1024;
    this.maxDepth = limits.maxDepth ?? 48;
    this.maxText = limits.maxTextLength ?? 10_000;
  }

  async *read(text: AsyncIterable<string> | Iterable<string>): AsyncGenerator<ReaderItem[]> {
    let out: ReaderItem[] = [];
    let stopped = false;
    const stop = (code: IssueCode, message: string, location: IssueLocation): void => {
      if (stopped) return;
      stopped = true;
      out.push({ kind: 'issue', issue: { code, severity: 'error', location, message } });
    };
    const warn = (issue: Issue): void => void out.push({ kind: 'issue', issue });

    const parser = new SaxesParser({ xmlns: true, position: true });
    const stack: Frame[] = [];
    let group: ControlDeclaration | undefined;
    let pmtInf: Block | undefined;
    let tx: Block | undefined;
    let currency: RawField | undefined;
    let txCount = 0;
    let rootSeen = false;
    let strayTextSeen = false;
    const pool: Frame[] = [];
    const here = (): IssueLocation => {
      const top = stack[stack.length - 1];
      return { path: top ? pathOf(top) : '/', row: parser.line, column: parser.column };
    };

    parser.on('doctype', () =>
      stop(
        IssueCode.XML_DTD_FORBIDDEN,
        'the document has a DTD (<!DOCTYPE …>); DTDs are refused so no entity can be expanded',
        here(),
      ),
    );
    parser.on('error', (e) =>
      stop(IssueCode.XML_MALFORMED, `not well-formed XML: ${e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}`, here()),
    );
    parser.on('opentag', (tag: SaxesTagNS) => {
      if (stopped) return;
      const parent = stack[stack.length - 1];
      if (!parent) {
        rootSeen = true;
        const version = pain001Version(tag.uri);
        if (tag.local !== 'Document')
          return stop(IssueCode.XML_NOT_PAIN001, `the root element is <${tag.name}>, not a pain.001 <Document>`, {
            path: `/${tag.local}`,
          });
        if (!version) {
          return stop(
            IssueCode.XML_VERSION_UNSUPPORTED,
            `namespace "${tag.uri}" is not a supported pain.001 version (pain.001.001.03, .08, .09, .03.ch.02)`,
            { path: '/Document' },
          );
        }
        this.version = version;
      }
      if (stack.length >= this.maxDepth)
        return stop(IssueCode.XML_LIMIT_EXCEEDED, `elements nest deeper than ${this.maxDepth} levels`, here());
      let position = 1;
      if (parent) {
        position = parent.lastChild === tag.local ? ++parent.lastCount : (parent.lastCount = 1);
        parent.lastChild = tag.local;
        parent.hasChildren = true;
        // Text before a child element is text beside elements: check it now, keep nothing.
        if (parent.text !== '') {
          strayText(parent, parent.text);
          parent.text = '';
        }
      }
      const depth = stack.length + 1;
      let node: PathNode | undefined;
      if (parent) {
        if (tx) node = depth === tx.depth + 1 ? TX_TREE.children.get(tag.local) : parent.node?.children.get(tag.local);
        else if (pmtInf)
          node =
            depth === pmtInf.depth + 1 ? PMTINF_TREE.children.get(tag.local) : parent.node?.children.get(tag.local);
      }
      let frame = pool[depth - 1];
      if (frame) {
        frame.name = tag.local;
        frame.position = position;
        frame.parent = parent;
        frame.path = undefined;
        frame.node = node;
        frame.hasChildren = false;
        frame.lastChild = '';
        frame.lastCount = 0;
        frame.text = '';
      } else {
        frame = {
          name: tag.local,
          position,
          parent,
          path: undefined,
          node,
          hasChildren: false,
          lastChild: '',
          lastCount: 0,
          text: '',
        };
        pool[depth - 1] = frame;
      }
      stack.push(frame);
      if (depth === 2 && tag.local !== 'CstmrCdtTrfInitn')
        stop(
          IssueCode.XML_NOT_PAIN001,
          `<${tag.local}> is not a customer credit transfer initiation (CstmrCdtTrfInitn)`,
          { path: pathOf(frame) },
        );
      else if (depth === 3 && tag.local === 'PmtInf') pmtInf = { path: pathOf(frame), depth, fields: emptyFields() };
      else if (depth === 4 && pmtInf && tag.local === 'CdtTrfTxInf')
        tx = { path: pathOf(frame), depth, fields: emptyFields() };
      else if (tx && tag.local === 'InstdAmt') {
        const ccy = tag.attributes.Ccy;
        if (ccy) currency = { value: ccy.value, location: { path: `${pathOf(frame)}/@Ccy` } };
      }
    });
    // Text beside child elements is not allowed by the schemas (XML whitespace is only
    // space, tab, CR, LF: an NBSP indentation counts). Reported once per file, then ignored.
    const strayText = (frame: Frame, t: string): void => {
      if (strayTextSeen || isXmlWhitespace(t)) return;
      strayTextSeen = true;
      const shown = t.replace(/\s+/g, ' ').trim().slice(0, 40) || JSON.stringify(t.slice(0, 10));
      warn({
        code: IssueCode.XML_UNEXPECTED_TEXT,
        severity: 'warning',
        location: { path: pathOf(frame) },
        message: `text ${JSON.stringify(shown)} (e.g. non-breaking spaces) inside <${frame.name}>, which holds only elements; ignored (further occurrences are not listed)`,
      });
    };
    const onText = (t: string): void => {
      const top = stack[stack.length - 1];
      if (stopped || !top) return;
      if (top.hasChildren) return strayText(top, t);
      if (top.text.length + t.length > this.maxText)
        return stop(
          IssueCode.XML_LIMIT_EXCEEDED,
          `the text of <${top.name}> is longer than ${this.maxText} characters`,
          here(),
        );
      top.text += t;
    };
    parser.on('text', onText);
    parser.on('cdata', onText);
    parser.on('closetag', () => {
      const frame = stack.pop();
      if (stopped || !frame) return;
      const value = frame.text;
      const depth = stack.length + 1;
      if (tx) {
        if (depth === tx.depth) {
          txCount++;
          // The transaction's own fields win over the ones it inherits from its PmtInf (a
          // loop, not an object spread: the spread was a seventh of the reading time).
          const fields = tx.fields;
          const inherited = pmtInf?.fields;
          if (inherited) {
            // By name, not a loop over keys: a fifth of the reader's own time went to that loop.
            // These are the fields PMTINF_FIELDS maps to (a test reads a PmtInf with all of them).
            fields.requestedExecutionDate ??= inherited.requestedExecutionDate;
            fields.debtorName ??= inherited.debtorName;
            fields.debtorIban ??= inherited.debtorIban;
            fields.instructionPriority ??= inherited.instructionPriority;
          }
          if (currency) fields.currency = currency;
          currency = undefined;
          const line: RawPaymentLine = {
            lineNumber: txCount,
            location: { path: tx.path },
            fields,
            block: pmtInf?.path ?? '',
          };
          if (pmtInf?.batchBooking !== undefined) line.batchBooking = pmtInf.batchBooking;
          if (pmtInf?.paymentInformationId !== undefined) line.paymentInformationId = pmtInf.paymentInformationId;
          out.push({ kind: 'line', line });
          tx = undefined;
          return;
        }
        const key = frame.node?.key;
        const field = key === undefined ? undefined : TX_FIELDS[key];
        if (field && key !== undefined) setField(tx, field, value, txFieldPath(frame, depth - tx.depth, tx.path, key));
        return;
      }
      if (pmtInf) {
        if (depth === pmtInf.depth) {
          out.push({ kind: 'control', declaration: control('payment-info', pmtInf.path, pmtInf) });
          pmtInf = undefined;
          return;
        }
        const rel = frame.node?.key;
        if (rel === undefined) return;
        const field = PMTINF_FIELDS[rel];
        if (field)
          setField(pmtInf, field, field === 'requestedExecutionDate' ? datePartOf(value) : value, pathOf(frame));
        else if (rel === 'PmtInfId') {
          const id = value.trim();
          // Max35Text in every pain.001 version; a longer one could not be quoted back in pain.002.
          if (id.length > 35)
            warn({
              code: IssueCode.XML_VALUE_INVALID,
              severity: 'error',
              location: { path: pathOf(frame) },
              message: `PmtInfId "${id.slice(0, 40)}…" has ${id.length} characters; at most 35 are allowed`,
            });
          else if (id !== '') pmtInf.paymentInformationId = id;
        } else if (rel === 'NbOfTxs') pmtInf.nbOfTxs = { value, location: { path: pathOf(frame) } };
        else if (rel === 'CtrlSum') pmtInf.ctrlSum = { value, location: { path: pathOf(frame) } };
        else if (rel === 'BtchBookg') {
          const b = value.trim();
          if (b === 'true' || b === '1') pmtInf.batchBooking = true;
          else if (b === 'false' || b === '0') pmtInf.batchBooking = false;
          else
            warn({
              code: IssueCode.XML_VALUE_INVALID,
              severity: 'error',
              location: { path: pathOf(frame) },
              message: `BtchBookg "${b}" is not true or false`,
            });
        }
        return;
      }
      if (depth === 4 && stack[2]?.name === 'GrpHdr') {
        group ??= { level: 'group', block: '', location: { path: pathOf(stack[2]) } };
        if (frame.name === 'NbOfTxs') group.nbOfTxs = { value, location: { path: pathOf(frame) } };
        else if (frame.name === 'CtrlSum') group.ctrlSum = { value, location: { path: pathOf(frame) } };
        else if (frame.name === 'MsgId' && value.trim()) this.messageId = value.trim();
      }
    });

    const setField = (block: Block, field: PaymentField, value: string, path: string): void => {
      const known = block.fields[field];
      // Several Ustrd lines form one remittance text; any other repeat keeps the first value
      // (so an IBAN wins over an Othr/Id that follows it).
      if (known && field === 'remittanceInformation') known.value = `${known.value} ${value.trim()}`;
      else if (known && path.endsWith('/IBAN')) block.fields[field] = { value, location: { path } };
      else if (!known) block.fields[field] = { value, location: { path } };
    };

    let seen = 0;
    let carry = '';
    for await (const chunk of text) {
      seen += chunk.length;
      if (seen > this.maxChars)
        stop(IssueCode.XML_LIMIT_EXCEEDED, `the document is larger than ${this.maxChars} characters`, here());
      if (!stopped && !rootSeen) {
        // Look for a DTD, also across chunk borders, before the parser sees it (the border
        // window is short: joining whole chunks would copy every chunk once more). A DTD can
        // only come before the root element; after it, saxes itself refuses one as misplaced.
        const inChunk = chunk.indexOf('<!DOCTYPE');
        const atBorder = inChunk >= 0 || carry === '' ? -1 : (carry + chunk.slice(0, 8)).indexOf('<!DOCTYPE');
        if (inChunk >= 0 || atBorder >= 0) {
          const before = inChunk >= 0 ? chunk.slice(0, inChunk) : '';
          if (before) parser.write(before);
          stop(
            IssueCode.XML_DTD_FORBIDDEN,
            'the document has a DTD (<!DOCTYPE …>); DTDs are refused so no entity can be expanded',
            { path: '/', row: parser.line, column: parser.column },
          );
        } else {
          parser.write(chunk);
        }
        carry = chunk.length >= 8 ? chunk.slice(-8) : (carry + chunk).slice(-8);
      } else if (!stopped) {
        parser.write(chunk);
      }
      if (out.length > 0) {
        yield out;
        out = [];
      }
      if (stopped) return;
    }
    if (!stopped) parser.close();
    if (!stopped && !rootSeen) stop(IssueCode.XML_MALFORMED, 'the document has no root element', { path: '/' });
    if (!stopped && group) out.push({ kind: 'control', declaration: group });
    if (out.length > 0) yield out;
  }
}

/** Only space, tab, CR and LF (a loop: this runs for the indentation between every two elements). */
function isXmlWhitespace(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/** xs:date may carry a zone ("2017-06-30+02:00"), DtTm a time: the execution date is the date part. */
function datePartOf(value: string): string {
  const v = value.trim();
  return /^\d{4}-\d{2}-\d{2}(?:Z|[+-]\d{2}:\d{2}|T.*)$/.test(v) ? v.slice(0, 10) : v;
}

function control(level: ControlDeclaration['level'], path: string, block: Block): ControlDeclaration {
  const d: ControlDeclaration = { level, block: path, location: { path } };
  if (block.nbOfTxs) d.nbOfTxs = block.nbOfTxs;
  if (block.ctrlSum) d.ctrlSum = block.ctrlSum;
  return d;
}

/** Reads a pain.001 document; `version` is on the returned reader once the root was read. */
export function readPain001(
  text: AsyncIterable<string> | Iterable<string>,
  limits?: Pain001Limits,
): { reader: Pain001Reader; items: AsyncGenerator<ReaderItem[]> } {
  const reader = new Pain001Reader(limits);
  return { reader, items: reader.read(text) };
}
