// The element rules (element-rules.ts) as a tree the reader walks element by element: each open
// element knows its node, so closing one needs no string building and its key (the path from its
// block or payment) is a constant string. An element whose parent's node "judges" its
// children and that is not among them is unknown, and refused.
import { PAYMENT_FIELDS, type PaymentField } from '../../domain/validation/raw-line.js';
import { MESSAGE, type Rule, type Special } from './element-rules.js';

export type { Rule, Special } from './element-rules.js';

export interface PolicyNode {
  name: string;
  rule: Rule;
  /** The path from the node's block or payment (or from the message element), e.g. "RmtInf/Ustrd". */
  key: string;
  children: ReadonlyMap<string, PolicyNode> | undefined;
  /** Whether a child element the tree does not know is refused (the children of a read element). */
  judges: boolean;
  /** The payment field the element's text goes to. */
  field: PaymentField | undefined;
  special: Special | undefined;
  /** Whether the element holds an amount whose currency is its Ccy attribute. */
  amount: boolean;
  /** `field`'s position in PAYMENT_FIELDS (-1 for none): the reader keeps a payment's fields by position. */
  slot: number;
  /**
   * `key` as an XPath from the block or payment when every element on the way is the first of
   * its name ("RmtInf/Ustrd[1]"): the common case, so a field's path is this joined to the
   * payment's, with no step built per element.
   */
  firstKey: string;
  /** The rule's kind as flags: reading `rule.kind` from rules of many shapes was a megamorphic load per element. */
  refused: boolean;
  /** A checked element with a list of allowed values. */
  checks: boolean;
  /**
   * The child that came first, and the sibling that came after this node, in the documents read
   * so far: pain.001 elements follow the schema's order, so a child element's name is compared
   * with this guess before the map is asked (hashing a fresh name per element was a tenth of
   * the reader's own work). A guess is only a guess: the name is always compared.
   */
  firstChild: PolicyNode | undefined;
  nextSibling: PolicyNode | undefined;
}

/** Elements that may repeat among their siblings: their XPath step always carries a position. */
export const REPEATED: ReadonlySet<string> = new Set(['PmtInf', 'CdtTrfTxInf', 'Ustrd', 'Strd']);

function childrenOf(rule: Rule): Readonly<Record<string, Rule>> | undefined {
  return rule.kind === 'read' || rule.kind === 'carried' || rule.kind === 'refused' ? rule.children : undefined;
}

function build(name: string, rule: Rule, key: string): PolicyNode {
  const special = 'special' in rule ? rule.special : undefined;
  const field = 'field' in rule ? rule.field : undefined;
  // A block's and a payment's fields are located from the block or payment itself.
  const restart = special === 'Block' || special === 'Payment';
  const rules = childrenOf(rule);
  const children = rules
    ? new Map(Object.entries(rules).map(([n, r]) => [n, build(n, r, restart || key === '' ? n : `${key}/${n}`)]))
    : undefined;
  return {
    name,
    rule,
    key,
    children,
    judges: rule.kind === 'read' || (rule.kind === 'carried' && children !== undefined),
    field,
    special,
    amount: field === 'amount',
    slot: field === undefined ? -1 : PAYMENT_FIELDS.indexOf(field),
    firstKey: key
      .split('/')
      .map((step) => (REPEATED.has(step) ? `${step}[1]` : step))
      .join('/'),
    refused: rule.kind === 'refused',
    checks: rule.kind === 'checked' && rule.allowed !== undefined,
    firstChild: undefined,
    nextSibling: undefined,
  };
}

/** The message element (CstmrCdtTrfInitn) and everything under it. */
export const MESSAGE_NODE: PolicyNode = build('CstmrCdtTrfInitn', { kind: 'read', children: MESSAGE }, '');

/** Where a required block field belongs when a block lacks it: its issue is located there, once per block. */
export const INHERITED_REQUIRED: readonly (readonly [PaymentField, string])[] = [
  ['requestedExecutionDate', 'ReqdExctnDt'],
  ['debtorName', 'Dbtr/Nm'],
  ['debtorIban', 'DbtrAcct/Id/IBAN'],
];

/**
 * The child of `parent` named `name`, `previous` being the node of the element before it among
 * its siblings (undefined for the first): the guess first, then the map; the guess learns.
 */
export function childNode(parent: PolicyNode, previous: PolicyNode | undefined, name: string): PolicyNode | undefined {
  const guess = previous === undefined ? parent.firstChild : previous.nextSibling;
  if (guess !== undefined && guess.name === name) return guess;
  const node = parent.children?.get(name);
  if (previous === undefined) parent.firstChild = node;
  else previous.nextSibling = node;
  return node;
}

/** A known element of the parent whose name differs only in case: what a misspelt one was meant to be. */
export function meantElement(parent: PolicyNode, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const known of parent.children?.keys() ?? []) if (known.toLowerCase() === lower) return known;
  return undefined;
}

/** Every node of the tree with its path from the message element, depth first (docs, tests). */
export function* walkPolicy(node: PolicyNode = MESSAGE_NODE, path = node.name): Generator<[string, PolicyNode]> {
  for (const child of node.children?.values() ?? []) {
    const at = `${path}/${child.name}`;
    yield [at, child];
    yield* walkPolicy(child, at);
  }
}
