// The element tree an ISO 20022 schema allows, read from its XSD (named complex types of
// sequences and choices, extended or restricted): enough to list, for any element, the child
// elements the schema allows and their types. Tests hold the pain.001 reader's element policy
// and version table to it; no XSD validation happens here (xmllint does that).
import { readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';

export interface XsdElement {
  name: string;
  type: string;
}

export interface Xsd {
  targetNamespace: string;
  /** Complex type → the child elements it allows (in any branch of its choices). */
  types: ReadonlyMap<string, readonly XsdElement[]>;
  /** The type of the top-level Document element. */
  document: string;
}

const CONTENT = new Set(['sequence', 'choice', 'all', 'complexContent', 'extension', 'restriction']);

export function readXsd(file: string): Xsd {
  const parser = new SaxesParser({ xmlns: true });
  const types = new Map<string, XsdElement[]>();
  let targetNamespace = '';
  let document = '';
  // The open complex type, and how deep inside it the content model goes.
  let current: XsdElement[] | undefined;
  const stack: string[] = [];
  parser.on('opentag', (tag) => {
    const name = tag.local;
    const attr = (a: string): string => tag.attributes[a]?.value ?? '';
    if (name === 'schema') targetNamespace = attr('targetNamespace');
    if (name === 'complexType' && stack.length === 1) types.set(attr('name'), (current = []));
    else if (name === 'element' && stack.length === 1 && attr('name') === 'Document') document = attr('type');
    else if (name === 'element' && current && stack.slice(2).every((s) => CONTENT.has(s)))
      current.push({ name: attr('name'), type: attr('type') });
    stack.push(name);
  });
  parser.on('closetag', () => {
    stack.pop();
    if (stack.length === 1) current = undefined;
  });
  parser.write(readFileSync(file, 'utf8')).close();
  // (A restriction repeats the elements it keeps, as the Swiss ch.03 schema's do; the pain.001
  // schemas extend complex types only with attributes, so no base type's elements are added.)
  return { targetNamespace, types, document };
}

/** The child elements an element of `type` may hold (none for a simple type). */
export function childrenOf(xsd: Xsd, type: string): readonly XsdElement[] {
  return xsd.types.get(type) ?? [];
}

/** The type of the element at `path` (names from Document down, e.g. ["CstmrCdtTrfInitn", "PmtInf"]). */
export function typeAt(xsd: Xsd, path: readonly string[]): string | undefined {
  let type: string | undefined = xsd.document;
  for (const step of path) {
    type = childrenOf(xsd, type).find((e) => e.name === step)?.type;
    if (type === undefined) return undefined;
  }
  return type;
}
