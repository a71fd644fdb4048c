// The element policy and the version table as the Markdown tables docs/formats/pain001.md shows
// (`npm run docs:policy` writes them; test/docs/policy-tables.test.ts holds the docs to them).
import { walkPolicy, type PolicyNode } from './element-policy.js';
import { PAIN001_VERSIONS } from './versions.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** How a node shows in the table: its policy and where it goes or why. */
function describe(node: PolicyNode): [string, string] | undefined {
  const rule = node.rule;
  switch (rule.kind) {
    case 'read':
      return undefined;
    case 'carried':
      return ['carried', `\`${rule.to}\` of the bulk request`];
    case 'checked':
      return rule.allowed
        ? [`checked: ${rule.allowed.join(', ')}`, `other values refused (\`${rule.code}\`): ${rule.why}`]
        : ['checked', rule.what];
    case 'kept':
      return ['kept', rule.why];
    case 'ignored':
      return ['ignored', rule.why];
    case 'refused':
      return ['refused', `\`ELEMENT_UNSUPPORTED\`: ${rule.why}`];
  }
}

/** Every element settle judges, one row each: the element, its policy, and where it goes or why. */
export function pain001PolicyTable(): string {
  const rows = ['| Element | Policy | Where it goes, or why |', '|---|---|---|'];
  for (const [path, node] of walkPolicy()) {
    const shown = describe(node);
    if (!shown) continue;
    const element = path.replace(/^CstmrCdtTrfInitn\//, '').replace(/^PmtInf\/CdtTrfTxInf\//, 'CdtTrfTxInf/');
    rows.push(`| \`${element}\` | ${cell(shown[0])} | ${cell(shown[1])} |`);
  }
  return rows.join('\n');
}

/** The versions and variants settle reads, and how each differs. */
export function pain001VersionTable(): string {
  const rows = [
    '| Version | Namespace | Variant | `ReqdExctnDt` | Bank BIC | Adds (judged by the policy) |',
    '|---|---|---|---|---|---|',
  ];
  for (const v of PAIN001_VERSIONS)
    rows.push(
      `| ${v.version} | \`${v.namespace}\` | ${cell(v.variant ?? 'ISO')} | ${v.executionDate} | \`${v.bic}\` | ${cell(v.adds ?? '')} |`,
    );
  return rows.join('\n');
}
