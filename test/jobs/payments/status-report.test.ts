import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStatus } from '../../../jobs/status.js';
import { runStatusReport } from '../../../jobs/status-report.js';
import { runSubmit } from '../../../jobs/submit.js';
import { hasTool, xmllintValidate } from '../../support/oracles.js';
import { createWorld, type World } from './world.js';

const DAY = 24 * 3600_000;

describe('status reports for the ERP', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld({ company: { status: { formats: ['pain.002.001.03', 'pain.002.001.10', 'csv'] } } });
  });
  afterEach(async () => {
    await w.close();
  });
  const statusDir = () =>
    readdir(join(w.company.root, 'status')).then(
      (n) => n.sort(),
      () => [] as string[],
    );

  it('writes one report per change of a file, never the same change twice, each valid against its XSD', async () => {
    await w.acceptFile('pay-1.csv', [{}, { creditorIban: 'NO8330001234567' }]);
    await w.control('/rejections', { iban: 'NO8330001234567', code: 'AC04', message: 'Account closed' });
    await runSubmit(w.deps('s'), [w.company]);
    const first = await runStatusReport(w.deps('r1'), [w.company]);
    expect(first).toHaveLength(1);
    expect(first[0]!.paths).toHaveLength(3);
    expect(await runStatusReport(w.deps('r2'), [w.company])).toEqual([]);

    w.advance(3 * DAY);
    await runStatus(w.deps('st'), [w.company]);
    const second = await runStatusReport(w.deps('r3'), [w.company]);
    expect(second).toHaveLength(1);
    expect(await runStatusReport(w.deps('r4'), [w.company])).toEqual([]);
    const names = await statusDir();
    expect(names).toHaveLength(6);
    expect(names.every((n) => n.startsWith('pay-1.csv.'))).toBe(true);

    const csvName = second[0]!.paths.find((p) => p.endsWith('.status.csv'))!;
    const csv = await readFile(join(w.company.root, csvName), 'utf8');
    expect(csv).toMatch(/E2E-1-1;ACSC/);
    expect(csv).toMatch(/E2E-1-2;RJCT;AC04: Account closed/);

    if (hasTool('xmllint')) {
      for (const path of [...first[0]!.paths, ...second[0]!.paths].filter((p) => p.endsWith('.xml'))) {
        const schema = path.includes('pain.002.001.10') ? 'pain.002.001.10' : 'pain.002.001.03';
        const result = await xmllintValidate(await readFile(join(w.company.root, path)), schema);
        expect(result.output, path).toContain('validates');
        expect(result.valid).toBe(true);
      }
    }
  });

  it("groups a pain.001 file's lines by the ERP's own PmtInfId, not by the bulks settle made", async () => {
    await w.acceptFile('pay.xml', [
      { paymentInformationId: 'ERP-PMT-A' },
      { paymentInformationId: 'ERP-PMT-A', requestedExecutionDate: '2026-01-08' as never },
      { paymentInformationId: 'ERP-PMT-B' },
    ]);
    await runSubmit(w.deps('s'), [w.company]);
    const [report] = await runStatusReport(w.deps('r'), [w.company]);
    const xml = await readFile(
      join(
        w.company.root,
        report!.paths.find((p) => p.includes('pain.002.001.10'))!,
      ),
      'utf8',
    );
    const groups = [...xml.matchAll(/<OrgnlPmtInfId>([^<]*)<\/OrgnlPmtInfId>[\s\S]*?<\/OrgnlPmtInfAndSts>/g)].map(
      (m) => [m[1], (m[0].match(/<TxInfAndSts>/g) ?? []).length],
    );
    // Two execution dates make two bulks of PMT-A's lines; the ERP still sees its one block.
    expect(groups).toEqual([
      ['ERP-PMT-A', 2],
      ['ERP-PMT-B', 1],
    ]);
  });

  it('reports a bulk the bank refused with the accountant-readable reason', async () => {
    await w.acceptFile('pay-2.csv', [{ debtorIban: 'NO5015031234570' }]);
    await runSubmit(w.deps('s'), [w.company]);
    const [report] = await runStatusReport(w.deps('r'), [w.company]);
    const csv = await readFile(
      join(
        w.company.root,
        report!.paths.find((p) => p.endsWith('.csv'))!,
      ),
      'utf8',
    );
    expect(csv).toMatch(/RJCT;.*not onboarded for company acme/);
  });
});
