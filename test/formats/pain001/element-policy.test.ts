// The reader's element policy and version table against each version's schema
// (test/fixtures/xsd/pain001): every element a version allows inside an element settle reads has
// a rule, no rule names an element no version has, and the table says what the schemas say about
// how each version writes the execution date and a bank's BIC.
import { describe, expect, it } from 'vitest';
import { MESSAGE_NODE, type PolicyNode } from '../../../src/formats/pain001/element-policy.js';
import { PAIN001_VERSIONS } from '../../../src/formats/pain001/versions.js';
import { childrenOf, readXsd, typeAt, type Xsd } from '../../support/xsd-tree.js';

const XSD_DIR = new URL('../../fixtures/xsd/pain001/', import.meta.url);
const schemas = PAIN001_VERSIONS.map((v) => ({ v, xsd: readXsd(new URL(v.xsd, XSD_DIR).pathname) }));
const label = (v: (typeof PAIN001_VERSIONS)[number]) => (v.variant ? `${v.version} (${v.xsd})` : v.version);

/** Paths the schema allows under each element the policy reads, that the policy has no rule for; and all paths seen. */
function compare(xsd: Xsd, node: PolicyNode, type: string, path: string, seen: Set<string>): string[] {
  const missing: string[] = [];
  for (const child of childrenOf(xsd, type)) {
    const at = `${path}/${child.name}`;
    seen.add(at);
    const rule = node.children?.get(child.name);
    if (!rule) {
      if (node.judges) missing.push(at);
      continue;
    }
    if (rule.children) missing.push(...compare(xsd, rule, child.type, at, seen));
  }
  return missing;
}

describe('the element policy holds every pain.001 version', () => {
  const everyPath = new Set<string>();

  it.each(schemas.map((s) => [label(s.v), s] as const))(
    '%s: every element inside an element settle reads has a rule',
    (_, { xsd }) => {
      const message = typeAt(xsd, ['CstmrCdtTrfInitn']);
      expect(message).toBeDefined();
      expect(compare(xsd, MESSAGE_NODE, message!, 'CstmrCdtTrfInitn', everyPath)).toEqual([]);
    },
  );

  it('names no element that no version has', () => {
    const invented: string[] = [];
    const visit = (node: PolicyNode, path: string): void => {
      for (const child of node.children?.values() ?? []) {
        const at = `${path}/${child.name}`;
        if (!everyPath.has(at)) invented.push(at);
        else visit(child, at);
      }
    };
    visit(MESSAGE_NODE, 'CstmrCdtTrfInitn');
    expect(invented).toEqual([]);
  });
});

describe('the version table', () => {
  it.each(schemas.map((s) => [label(s.v), s] as const))(
    '%s: namespace, execution date and BIC as the schema has them',
    (_, { v, xsd }) => {
      expect(xsd.targetNamespace).toBe(v.namespace);
      const block = ['CstmrCdtTrfInitn', 'PmtInf'];
      const date = typeAt(xsd, [...block, 'ReqdExctnDt'])!;
      expect(childrenOf(xsd, date).map((e) => e.name)).toEqual(v.executionDate === 'date' ? [] : ['Dt', 'DtTm']);
      const bank = typeAt(xsd, [...block, 'CdtTrfTxInf', 'CdtrAgt', 'FinInstnId'])!;
      expect(childrenOf(xsd, bank).map((e) => e.name)).toContain(v.bic);
    },
  );

  it('maps each namespace to one version name', () => {
    const byNamespace = new Map<string, Set<string>>();
    for (const v of PAIN001_VERSIONS)
      byNamespace.set(v.namespace, (byNamespace.get(v.namespace) ?? new Set()).add(v.version));
    for (const names of byNamespace.values()) expect(names.size).toBe(1);
  });
});
