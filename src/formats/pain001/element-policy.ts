// The element rules (element-rules.ts) as a tree the reader walks element by element: each open
// element knows its node, so closing one needs no string building and its key (the path from its
// block or payment) is a constant string. An element whose parent's node "judges" its
// children and that is not among them is unknown, and refused.
import type { PaymentField } from '../../domain/validation/raw-line.js';
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
}

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
