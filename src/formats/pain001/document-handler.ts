// The saxes listeners of one pain.001 document: open elements become frames, text is collected
// for the elements settle reads, and each closed CdtTrfTxInf becomes a raw payment with
// the fields it inherits from its payment block. Every element is judged by the element policy
// (element-rules.ts, walked as the tree of element-policy.ts): what changes what is paid is
// carried or refused, located, and an element the policy does not know inside one settle reads
// is refused too, so nothing is dropped silently.
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import type { Issue, IssueLocation } from '../../domain/issue.js';
import { IssueCode } from '../../domain/validation/codes.js';
import type { ControlDeclaration } from '../../domain/validation/control-totals.js';
import {
  PAYMENT_FIELDS,
  type PaymentField,
  type RawField,
  type RawPaymentLine,
} from '../../domain/validation/raw-line.js';
import type { ReaderItem } from '../../domain/validation/reader-item.js';
import {
  childNode,
  INHERITED_REQUIRED,
  MESSAGE_NODE,
  meantElement,
  type PolicyNode,
  type Rule,
} from './element-policy.js';
import { enterFrame, firstOfTheirNames, isXmlWhitespace, pathOf, type Frame } from './frame.js';
import { fieldSlots, PainField, paymentFields, type FieldSlots } from './pain-field.js';
import { NamespaceScope } from './namespaces.js';
import { notAPaymentFile, otherMessage, otherMessageElement } from './message-kind.js';
import { pain001Version, SUPPORTED_VERSIONS } from './versions.js';

interface Block {
  path: string;
  depth: number;
  /** Its fields by position in PAYMENT_FIELDS. */
  fields: FieldSlots;
  nbOfTxs?: RawField;
  ctrlSum?: RawField;
  batchBooking?: boolean;
  paymentInformationId?: string;
  /** Errors that make every payment of the block (or the payment) invalid. */
  issues?: Issue[];
  /** Stand-ins for required block fields the block lacks, located where they belong. */
  missing?: Partial<Record<PaymentField, RawField>>;
  /** Whether a payment of the block was handed out already. */
  txSeen?: boolean;
}

const DTD_MESSAGE = 'the document has a DTD (<!DOCTYPE …>); DTDs are refused so no entity can be expanded';

export class DocumentHandler {
  /** Items found since the reader last took them. */
  out: ReaderItem[] = [];
  stopped = false;
  rootSeen = false;
  version: string | undefined;
  messageId: string | undefined;
  private readonly stack: Frame[] = [];
  private readonly pool: Frame[] = [];
  private group: ControlDeclaration | undefined;
  private pmtInf: Block | undefined;
  private tx: Block | undefined;
  private currency: RawField | undefined;
  private txCount = 0;
  private spacesSeen = false;
  private readonly names: NamespaceScope;

  constructor(
    private readonly parser: SaxesParser<{ xmlns: false; position: true }>,
    private readonly maxDepth: number,
    private readonly maxText: number,
  ) {
    this.names = new NamespaceScope(parser);
    parser.on('attribute', (attr) => this.names.attribute(attr, this.stack.length + 1));
    parser.on('doctype', () => this.stop(IssueCode.XML_DTD_FORBIDDEN, DTD_MESSAGE, this.here()));
    parser.on('error', (e) =>
      this.stop(
        IssueCode.XML_MALFORMED,
        `not well-formed XML: ${e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}`,
        this.here(),
      ),
    );
    parser.on('opentag', (tag) => this.openTag(tag));
    const onText = (t: string): void => this.text(t);
    parser.on('text', onText);
    parser.on('cdata', onText);
    parser.on('closetag', () => {
      this.names.close(this.stack.length);
      this.closeTag();
    });
  }

  stop(code: IssueCode, message: string, location: IssueLocation): void {
    if (this.stopped) return;
    this.stopped = true;
    this.out.push({ kind: 'issue', issue: { code, severity: 'error', location, message } });
  }

  refuseDtd(): void {
    this.stop(IssueCode.XML_DTD_FORBIDDEN, DTD_MESSAGE, {
      path: '/',
      row: this.parser.line,
      column: this.parser.column,
    });
  }

  /** After the last chunk: a document without a root, and the group header's control values. */
  finish(): void {
    if (!this.stopped && !this.rootSeen)
      this.stop(IssueCode.XML_MALFORMED, 'the document has no root element', { path: '/' });
    if (!this.stopped && this.group) this.out.push({ kind: 'control', declaration: this.group });
  }

  /** Where the parser is: the open element's path, its row and column. */
  here(): IssueLocation {
    const top = this.stack[this.stack.length - 1];
    return { path: top ? pathOf(top) : '/', row: this.parser.line, column: this.parser.column };
  }

  private openTag(tag: SaxesTagPlain): void {
    if (this.stopped) return;
    const local = this.names.open(tag.name);
    if (this.stopped) return;
    const stack = this.stack;
    const parent = stack[stack.length - 1];
    if (!parent && !this.checkRoot(tag.name, local)) return;
    if (stack.length >= this.maxDepth)
      return this.stop(IssueCode.XML_LIMIT_EXCEEDED, `elements nest deeper than ${this.maxDepth} levels`, this.here());
    let position = 1;
    let node: PolicyNode | undefined;
    let unknownIn: PolicyNode | undefined;
    const depth = stack.length + 1;
    if (parent) {
      const repeat = parent.lastChild === local;
      position = repeat ? ++parent.lastCount : (parent.lastCount = 1);
      parent.hasChildren = true;
      // Text before a child element is text beside elements: check it now, keep nothing.
      if (parent.text !== '') {
        this.strayText(parent, parent.text);
        parent.text = '';
      }
      const above = depth === 2 ? undefined : parent.node;
      if (depth === 2) node = local === 'CstmrCdtTrfInitn' ? MESSAGE_NODE : undefined;
      else if (above?.children) {
        node = repeat ? parent.lastNode : childNode(above, parent.lastNode, local);
        if (node === undefined && above.judges) unknownIn = above;
      }
      parent.lastNode = node;
      parent.lastChild = local;
    }
    // The node's name is the same text as the element's, held once: comparing it is cheaper.
    const frame = enterFrame(this.pool, depth, node?.name ?? local, position, parent, node);
    stack.push(frame);
    if (depth === 2 && node === undefined) return this.notCreditTransfer(frame);
    if (unknownIn) return this.unknown(frame, unknownIn);
    if (node === undefined) return;
    if (node.special === 'Block') this.pmtInf = { path: pathOf(frame), depth, fields: fieldSlots() };
    else if (node.special === 'Payment' && this.pmtInf) this.tx = { path: pathOf(frame), depth, fields: fieldSlots() };
    else if (node.refused)
      this.refuse(IssueCode.ELEMENT_UNSUPPORTED, frame, this.notSupported(frame, (node.rule as { why: string }).why));
    const tx = this.tx;
    if (node.amount && tx) {
      const ccy = tag.attributes.Ccy;
      if (ccy !== undefined)
        this.currency = firstOfTheirNames(frame, depth - tx.depth)
          ? new PainField(ccy, tx.path, `${node.firstKey}/@Ccy`)
          : new PainField(ccy, pathOf(frame), '@Ccy');
    }
  }

  /** The root must be a pain.001 Document; a statement or status report is named as such. */
  private checkRoot(name: string, local: string): boolean {
    this.rootSeen = true;
    if (local !== 'Document') {
      const other = otherMessageElement(local);
      this.stop(
        IssueCode.XML_NOT_PAIN001,
        other ? notAPaymentFile(other) : `the root element is <${name}>, not a pain.001 <Document>`,
        { path: `/${local}` },
      );
      return false;
    }
    const uri = this.names.uri;
    const version = pain001Version(uri);
    if (version) {
      this.version = version;
      return true;
    }
    const other = otherMessage(uri);
    if (other) this.stop(IssueCode.XML_NOT_PAIN001, notAPaymentFile(other), { path: '/Document' });
    else
      this.stop(
        IssueCode.XML_VERSION_UNSUPPORTED,
        `namespace "${uri}" is not a pain.001 version settle reads (${SUPPORTED_VERSIONS})`,
        { path: '/Document' },
      );
    return false;
  }

  private notCreditTransfer(frame: Frame): void {
    const other = otherMessageElement(frame.name);
    this.stop(
      IssueCode.XML_NOT_PAIN001,
      other
        ? notAPaymentFile(other)
        : `<${frame.name}> is not a customer credit transfer initiation (CstmrCdtTrfInitn)`,
      { path: pathOf(frame) },
    );
  }

  /** An element the policy does not know inside one settle reads: refused, it may hide a value. */
  private unknown(frame: Frame, parent: PolicyNode): void {
    const meant = meantElement(parent, frame.name);
    const hint = meant ? ` (the standard's element is <${meant}>: misspelt, what it holds would be lost)` : '';
    this.refuse(
      IssueCode.ELEMENT_UNSUPPORTED,
      frame,
      `<${frame.name}> in <${parent.name}> is not an element settle knows${hint}; it is refused rather than ignored, since it may change what is paid`,
    );
  }

  private notSupported(frame: Frame, why: string): string {
    return `<${frame.name}> ${this.blockName()}is not supported: ${why}`;
  }

  /** Names the payment block in a message: "of payment block PmtInf[2] (PmtInfId "B-7") ". */
  private blockName(): string {
    const block = this.pmtInf;
    if (!block || this.tx) return '';
    const step = block.path.slice(block.path.lastIndexOf('/') + 1);
    const id = block.paymentInformationId === undefined ? '' : ` (PmtInfId "${block.paymentInformationId}")`;
    return `of payment block ${step}${id} `;
  }

  /** An error that makes the open payment, or every payment of the open block, invalid. */
  private refuse(code: IssueCode, frame: Frame, message: string): void {
    const issue: Issue = { code, severity: 'error', location: { path: pathOf(frame) }, message };
    const owner = this.tx ?? this.pmtInf;
    if (owner) (owner.issues ??= []).push(issue);
    // Out of the schema's order, after payments that were already handed out: the file fails.
    if (!owner || (owner === this.pmtInf && owner.txSeen)) this.out.push({ kind: 'issue', issue });
  }

  // Text beside child elements is not allowed by the schemas (XML whitespace is only space, tab,
  // CR, LF). Visible text is an error (a broken generator or a hand edit: what was meant?); only
  // Unicode spaces, such as non-breaking spaces used as indentation, are a warning once per file.
  private strayText(frame: Frame, t: string): void {
    if (isXmlWhitespace(t)) return;
    const visible = t.replace(/\s+/g, ' ').trim();
    if (visible === '') {
      if (this.spacesSeen) return;
      this.spacesSeen = true;
      this.out.push({
        kind: 'issue',
        issue: {
          code: IssueCode.XML_UNEXPECTED_TEXT,
          severity: 'warning',
          location: { path: pathOf(frame) },
          message: `spaces other than XML white space (${codePoints(t)}, e.g. non-breaking spaces used as indentation) inside <${frame.name}>, which holds only elements; ignored (further occurrences are not listed)`,
        },
      });
      return;
    }
    const shown = visible.length > 40 ? `${visible.slice(0, 40)}…` : visible;
    this.refuse(
      IssueCode.XML_UNEXPECTED_TEXT,
      frame,
      `text “${shown}” inside <${frame.name}>, which holds only elements: the file does not follow the pain.001 schema (was it edited by hand?)`,
    );
  }

  private text(t: string): void {
    const top = this.stack[this.stack.length - 1];
    if (this.stopped || !top) return;
    if (top.hasChildren) return this.strayText(top, t);
    if (top.text.length + t.length > this.maxText)
      return this.stop(
        IssueCode.XML_LIMIT_EXCEEDED,
        `the text of <${top.name}> is longer than ${this.maxText} characters`,
        this.here(),
      );
    top.text += t;
  }

  private closeTag(): void {
    const frame = this.stack.pop();
    if (this.stopped || !frame) return;
    const node = frame.node;
    if (node === undefined) return;
    if (node.checks) this.checkValue(frame, node.rule as Extract<Rule, { kind: 'checked' }>);
    const { tx, pmtInf } = this;
    switch (node.special) {
      case undefined:
        break;
      case 'Payment':
        if (tx) this.closePayment(tx);
        return;
      case 'Block':
        if (!pmtInf) return;
        if (!pmtInf.txSeen) for (const issue of pmtInf.issues ?? []) this.out.push({ kind: 'issue', issue });
        this.out.push({ kind: 'control', declaration: control(pmtInf) });
        this.pmtInf = undefined;
        return;
      case 'MsgId':
      case 'GroupNbOfTxs':
      case 'GroupCtrlSum':
        if (frame.parent) this.closeGroupField(frame, frame.parent);
        return;
      default:
        if (pmtInf && !tx) this.closeBlockSpecial(pmtInf, frame);
        return;
    }
    const field = node.field;
    const owner = tx ?? pmtInf;
    if (field === undefined || owner === undefined) return;
    const value = field === 'requestedExecutionDate' ? datePartOf(frame.text) : frame.text;
    // A payment's field: its path and the field's key, joined only if an issue asks.
    const short = tx !== undefined && firstOfTheirNames(frame, this.stack.length + 1 - tx.depth);
    // The bulk request carries one structured reference: a second one would be dropped.
    if (field === 'creditorReference' && owner.fields[CREDITOR_REFERENCE])
      return this.refuse(
        IssueCode.ELEMENT_UNSUPPORTED,
        frame,
        'a second structured creditor reference: the bulk request carries one; send such payments one reference each',
      );
    setField(
      owner,
      node.slot,
      field,
      short ? new PainField(value, tx.path, node.firstKey) : new PainField(value, pathOf(frame), ''),
    );
  }

  private checkValue(frame: Frame, rule: Extract<Rule, { kind: 'checked' }>): void {
    const v = frame.text.trim();
    if (!rule.allowed || rule.allowed.includes(v)) return;
    const code =
      rule.code === 'PAYMENT_METHOD_UNSUPPORTED' ? IssueCode.PAYMENT_METHOD_UNSUPPORTED : IssueCode.ELEMENT_UNSUPPORTED;
    this.refuse(
      code,
      frame,
      `${frame.name} "${v.slice(0, 35)}" ${this.blockName()}is not accepted: ${rule.why ?? rule.what}`,
    );
  }

  private closePayment(tx: Block): void {
    this.txCount++;
    const pmtInf = this.pmtInf;
    if (pmtInf) pmtInf.txSeen = true;
    // The payment's own fields win over the ones it inherits from its PmtInf. By name, not
    // a loop over keys or a spread: those were a fifth of the reader's own time. A required
    // block field the block lacks is a stand-in located in the block, reported once per block.
    const fields = paymentFields(tx.fields, pmtInf?.fields, (slot) =>
      pmtInf ? missing(pmtInf, PAYMENT_FIELDS[slot]) : undefined,
    );
    if (this.currency) fields.currency = this.currency;
    this.currency = undefined;
    const line: RawPaymentLine = {
      lineNumber: this.txCount,
      location: { path: tx.path },
      fields,
      block: pmtInf?.path ?? '',
    };
    if (pmtInf?.batchBooking !== undefined) line.batchBooking = pmtInf.batchBooking;
    if (pmtInf?.paymentInformationId !== undefined) line.paymentInformationId = pmtInf.paymentInformationId;
    const blockIssues = pmtInf?.issues;
    if (blockIssues || tx.issues)
      line.issues = blockIssues && tx.issues ? [...blockIssues, ...tx.issues] : (blockIssues ?? tx.issues);
    this.out.push({ kind: 'line', line });
    this.tx = undefined;
  }

  /** PmtInfId, NbOfTxs, CtrlSum and BtchBookg of a block. */
  private closeBlockSpecial(block: Block, frame: Frame): void {
    const value = frame.text;
    switch (frame.node?.special) {
      case 'PmtInfId': {
        const id = value.trim();
        // Max35Text in every pain.001 version; a longer one could not be quoted back in pain.002.
        if (id.length > 35)
          this.invalidValue(
            frame,
            `PmtInfId "${id.slice(0, 40)}…" has ${id.length} characters; at most 35 are allowed`,
          );
        else if (id !== '') block.paymentInformationId = id;
        return;
      }
      case 'NbOfTxs':
        block.nbOfTxs = { value, location: { path: pathOf(frame) } };
        return;
      case 'CtrlSum':
        block.ctrlSum = { value, location: { path: pathOf(frame) } };
        return;
      case 'BtchBookg': {
        const b = value.trim();
        if (b === 'true' || b === '1') block.batchBooking = true;
        else if (b === 'false' || b === '0') block.batchBooking = false;
        else this.invalidValue(frame, `BtchBookg "${b}" is not true or false`);
        return;
      }
      default:
        return;
    }
  }

  private invalidValue(frame: Frame, message: string): void {
    const location = { path: pathOf(frame) };
    this.out.push({
      kind: 'issue',
      issue: { code: IssueCode.XML_VALUE_INVALID, severity: 'error', location, message },
    });
  }

  private closeGroupField(frame: Frame, header: Frame): void {
    const value = frame.text;
    this.group ??= { level: 'group', block: '', location: { path: pathOf(header) } };
    if (frame.node?.special === 'GroupNbOfTxs') this.group.nbOfTxs = { value, location: { path: pathOf(frame) } };
    else if (frame.node?.special === 'GroupCtrlSum') this.group.ctrlSum = { value, location: { path: pathOf(frame) } };
    else if (frame.node?.special === 'MsgId' && value.trim()) this.messageId = value.trim();
  }
}

const CREDITOR_REFERENCE = PAYMENT_FIELDS.indexOf('creditorReference');

function setField(block: Block, slot: number, field: PaymentField, found: PainField): void {
  const known = block.fields[slot];
  // Several Ustrd lines form one remittance text; any other repeat keeps the first value
  // (so an IBAN wins over an Othr/Id that follows it).
  if (known && field === 'remittanceInformation') known.value = `${known.value} ${found.value.trim()}`;
  else if (known && found.location.path?.endsWith('/IBAN')) block.fields[slot] = found;
  else if (!known) block.fields[slot] = found;
}

/** An empty stand-in for a required block field, located where the block should hold it. */
function missing(block: Block, field: PaymentField): RawField | undefined {
  const known = block.missing?.[field];
  if (known) return known;
  const rel = INHERITED_REQUIRED.find(([f]) => f === field)?.[1];
  if (rel === undefined) return undefined;
  const stand: RawField = new PainField('', block.path, rel);
  (block.missing ??= {})[field] = stand;
  return stand;
}

/** xs:date may carry a zone ("2017-06-30+02:00"), DtTm a time: the execution date is the date part. */
function datePartOf(value: string): string {
  const v = value.trim();
  return /^\d{4}-\d{2}-\d{2}(?:Z|[+-]\d{2}:\d{2}|T.*)$/.test(v) ? v.slice(0, 10) : v;
}

function control(block: Block): ControlDeclaration {
  const d: ControlDeclaration = { level: 'payment-info', block: block.path, location: { path: block.path } };
  if (block.nbOfTxs) d.nbOfTxs = block.nbOfTxs;
  if (block.ctrlSum) d.ctrlSum = block.ctrlSum;
  return d;
}

/** "U+00A0 ×4" for text that shows nothing: the characters named, never re-quoted. */
function codePoints(t: string): string {
  const counts = new Map<string, number>();
  for (const ch of t) {
    if (isXmlWhitespace(ch)) continue;
    const name = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}
