// The dependency rules that keep use-case decisions out of the store fire: a probe file of
// src/store that imports a hold rule of pickup (src/domain/controls, the likely-duplicate key) or a
// planner is refused by the project's own .dependency-cruiser.cjs, and the types it may see pass.
// Cruised in a scratch tree of stub modules at the same paths, so the real tree is never touched.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type IForbiddenRuleType, type IReporterOutput } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
};

const root = mkdtempSync(join(tmpdir(), 'settle-store-rules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const STUBS = [
  'src/domain/hold.ts',
  'src/domain/likely-duplicate.ts',
  'src/domain/controls/index.ts',
  'src/domain/controls/pickup-holds.ts',
  'src/domain/plans/plan.ts',
  'src/domain/plans/hold-plan.ts',
];
for (const stub of STUBS) {
  mkdirSync(dirname(join(root, stub)), { recursive: true });
  writeFileSync(join(root, stub), 'export const stub = 1;\n');
}
mkdirSync(join(root, 'src/store'), { recursive: true });

interface CruiseOutput {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: { rule: { name: string } }[] };
}

/** The rules a store module importing `target` (a path under src/domain) breaks. */
async function violations(name: string, target: string): Promise<string[]> {
  writeFileSync(join(root, 'src/store', `${name}.ts`), `export { stub } from '../domain/${target}';\n`);
  const { output } = (await cruise(
    [`src/store/${name}.ts`],
    { baseDir: root, ruleSet: { forbidden: config.forbidden }, validate: true, tsPreCompilationDeps: true },
    { extensions: ['.ts'] },
  )) as IReporterOutput & { output: CruiseOutput };
  // The import was followed to the stub (an unresolved one would break no rule at all).
  expect(output.modules.find((m) => m.source === `src/store/${name}.ts`)?.dependencies.map((d) => d.resolved)).toEqual([
    `src/domain/${target}.ts`,
  ]);
  return output.summary.violations.map((v) => v.rule.name);
}

describe("the store holds no use case's decision", () => {
  it.each([
    ['the hold rule of pickup', 'controls/pickup-holds', 'store-holds-no-hold-rule'],
    ['the controls', 'controls/index', 'store-holds-no-hold-rule'],
    ['the likely-duplicate key', 'likely-duplicate', 'store-holds-no-hold-rule'],
    ['a planner', 'plans/hold-plan', 'store-decides-nothing'],
  ])('refuses an import of %s', async (_what, target, rule) => {
    expect(await violations(target.replace(/\W/g, '-'), target)).toEqual([rule]);
  });

  it.each([
    ["a hold's types", 'hold'],
    ["a plan's types", 'plans/plan'],
  ])('lets the store see %s', async (_what, target) => {
    expect(await violations(`ok-${target.replace(/\W/g, '-')}`, target)).toEqual([]);
  });
});
