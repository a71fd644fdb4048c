// A payment the bank returned (the sandbox books the return of a settled line, AC04, as a credit
// with the original end-to-end id) reaches the ERP's files as a return, not as an incoming
// payment: camt.053 and camt.054 book it PMNT-ICDT-RRTN with RtrInf (reason and the bank's words)
// and the original ids (issue #47, Must 3).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExportStatements } from '../../../jobs/statements/export.js';
import { runFetchStatements } from '../../../jobs/statements/fetch.js';
import { ownPaymentSource } from '../../../jobs/statements/own-payments.js';
import { DEFAULT_RECONCILE_CONFIG } from '../../../src/domain/reconcile/index.js';
import { createStore } from '../../../src/store/index.js';
import { itWith, xmllintValidate } from '../../support/oracles.js';
import { SEED, startStatementHarness, type StatementHarness } from './harness.js';
import { bookOwnPayments, OWN } from './own-payments.js';

describe('a returned payment in the statement files', () => {
  let h: StatementHarness;
  const read = (suffix: string) =>
    readFile(join(h.root, 'statements', `acme-${SEED.operatingIban}-${OWN.bookingDay}.${suffix}`), 'utf8');

  beforeAll(async () => {
    h = await startStatementHarness({
      statements: {
        formats: ['camt.053.001.02', 'camt.054.001.02', 'camt.054.001.08', 'csv'],
        csv: { decimalSeparator: '.' },
      },
    });
    await bookOwnPayments(h);
    await runFetchStatements({ ...h.fetchDeps(), initialDays: 7 }, [h.company]);
    const ownPayments = ownPaymentSource(createStore(h.db, h.clock), DEFAULT_RECONCILE_CONFIG);
    await runExportStatements(h.exportDeps({ ownPayments }), [h.company]);
  });
  afterAll(async () => {
    await h.close();
  });

  itWith('xmllint')(
    'camt.053 and the camt.054 credit notification book it as a return, with its reason and ids',
    async () => {
      for (const [suffix, schema] of [
        ['camt.053.001.02.xml', 'camt.053.001.02'],
        ['credit.camt.054.001.02.xml', 'camt.054.001.02'],
        ['credit.camt.054.001.08.xml', 'camt.054.001.08'],
      ] as const) {
        const xml = await read(suffix);
        expect((await xmllintValidate(xml, schema)).valid, suffix).toBe(true);
        const flat = xml.replace(/>\s+</g, '><');
        const returned = flat
          .split('<Ntry>')
          .find(
            (e) => e.includes(`<EndToEndId>${OWN.single.endToEndId}</EndToEndId>`) && e.includes('<CdtDbtInd>CRDT'),
          );
        expect(returned, suffix).toBeDefined();
        expect(returned).toContain('<Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>RRTN</SubFmlyCd>');
        expect(returned).toMatch(
          /<RtrInf><Rsn><Cd>AC04<\/Cd><\/Rsn><AddtlInf>Returned payment: [^<]+<\/AddtlInf><\/RtrInf>/,
        );
        // The original ids: the ERP's message, its payment block and end-to-end id.
        expect(returned).toContain(`<MsgId>${OWN.messageId}</MsgId>`);
        expect(returned).toContain(`<PmtInfId>${OWN.single.paymentInformationId}</PmtInfId>`);
      }
    },
  );

  it('the statement CSV row keeps the original end-to-end id and says why it came back', async () => {
    const rows = parse<Record<string, string>>(await read('csv'), { columns: true, delimiter: ';' });
    const returned = rows.filter((r) => r.return_reason !== '');
    expect(returned).toHaveLength(1);
    expect(returned[0]).toMatchObject({
      end_to_end_id: OWN.single.endToEndId,
      credit_debit: 'CRDT',
      bank_transaction_code: 'PMNT-ICDT-RRTN',
      return_reason: OWN.returnReason,
    });
    expect(returned[0]!.return_info).toMatch(/^Returned payment: /);
  });
});
