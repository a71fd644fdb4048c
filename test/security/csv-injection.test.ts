// Promise: no CSV settle writes can run a formula when opened in a spreadsheet. Every CSV
// writer (statement CSV, status CSV, reconciliation findings CSV, the signed period CSV; error reports are text and
// JSON, not CSV) passes each cell through src/formats/csv-safety.ts: a cell starting with
// = + - @ tab CR or their fullwidth forms gets a leading single quote, except a plain signed
// number in a numeric column (amounts), which stays a number (docs/formats/statement-csv.md,
// "Formula injection"). A guard below fails when a CSV writer appears that this suite does not know.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PaymentStatusReport } from '../../src/domain/payment-status.js';
import type { Finding } from '../../src/domain/reconcile/findings.js';
import type { Statement, StatementEntry } from '../../src/domain/statement.js';
import {
  isFormulaLike,
  isPlainSignedNumber,
  neutraliseFormula,
  neutraliseNumericCell,
} from '../../src/formats/csv-safety.js';
import {
  FINDINGS_CSV_COLUMNS,
  findingsCsvForPeople,
  renderFindingsCsv,
  renderSignoffCsv,
  SIGNOFF_CSV_COLUMNS,
  SIGNOFF_NUMERIC_COLUMNS,
} from '../../src/formats/report/index.js';
import { STATEMENT_CSV_COLUMNS, writeStatementCsv, type CsvEncoding } from '../../src/formats/statement-csv/index.js';
import { STATUS_CSV_COLUMNS, writeStatusCsv } from '../../src/formats/status-csv/index.js';
import { sampleStatement, SAMPLE_ENTRIES } from '../fixtures/writers/statements.js';
import { sampleStatusReport } from '../fixtures/writers/status-reports.js';
import { sampleResult } from '../formats/report/sample.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// Written out here rather than taken from csv-safety.ts, so a trigger dropped there fails here.
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20'];
const PAYLOADS = [
  '=1+1',
  '+49 170 1234',
  '-2+3',
  '@SUM(A1:A9)',
  '\t=1+1',
  '\r=1+1',
  '＝1+1',
  '＋1',
  '－1',
  '＠SUM(A1)',
  '=HYPERLINK("http://evil.example","click")',
  `=cmd|' /C calc'!A0`,
  '-12.50',
];

/** Records as arrays of cells, header included. */
const table = (text: string, delimiter: string): string[][] => parse(text, { delimiter });

const startsWithTrigger = (cell: string) => cell.length > 0 && TRIGGERS.includes(cell.charAt(0));

/** Every cell of every record: a text cell never starts a formula; a numeric one is a plain number or safe text. */
function expectNoFormula(
  records: string[][],
  numericColumns: ReadonlySet<number>,
  decimal: '.' | ',',
  what: string,
): void {
  for (const [r, record] of records.entries()) {
    for (const [c, cell] of record.entries()) {
      const ok =
        !startsWithTrigger(cell) ||
        (numericColumns.has(c) && (decimal === '.' ? /^-?\d+(\.\d+)?$/ : /^-?\d+(,\d+)?$/).test(cell));
      expect(ok, `${what}: row ${r + 1} column ${c + 1} is ${JSON.stringify(cell)}`).toBe(true);
    }
  }
}

/** The cell a payload must become in a text column: quoted, with tabs and line breaks (where a writer replaces them) as spaces. */
const neutralised = (payload: string) => [`'${payload}`, payload.replace(/[\t\r\n]/g, ' ')];

describe('security: formula injection is neutralised in every CSV settle writes', () => {
  describe('the rule (src/formats/csv-safety.ts)', () => {
    it('prefixes a single quote to cells a spreadsheet would run as a formula', () => {
      for (const cell of [
        '=1+1',
        '+49 170',
        '-foo',
        '@SUM(A1)',
        '\t=1',
        '\r=1',
        '＝1+1',
        '＋1',
        '－1',
        '＠x',
        '=HYPERLINK("http://x")',
      ]) {
        expect(neutraliseFormula(cell)).toBe(`'${cell}`);
      }
    });

    it('leaves ordinary text, empty cells and text with a trigger character later on alone', () => {
      for (const cell of ['', 'Nordlys AS', 'a=b', "'already", ' =1', 'INV-1'])
        expect(neutraliseFormula(cell)).toBe(cell);
    });

    it('keeps plain signed numbers in numeric columns as numbers and treats anything else there as text', () => {
      expect(neutraliseNumericCell('-754.25')).toBe('-754.25');
      expect(neutraliseNumericCell('-12.50')).toBe('-12.50');
      expect(neutraliseNumericCell('-754,25', ',')).toBe('-754,25');
      expect(neutraliseNumericCell('12')).toBe('12');
      expect(neutraliseNumericCell('-754,25', '.')).toBe("'-754,25");
      expect(neutraliseNumericCell('-1+1')).toBe("'-1+1");
      expect(neutraliseNumericCell('+5')).toBe("'+5");
      expect(neutraliseNumericCell('-1e5')).toBe("'-1e5");
      expect(isPlainSignedNumber('-.5')).toBe(false);
    });

    it('never leaves a formula-like cell and never loses what was there', () => {
      fc.assert(
        fc.property(
          fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\uff1d', '1', '.', 'a', ' ', "'") }),
          (cell) => {
            const safe = neutraliseFormula(cell);
            expect(isFormulaLike(safe)).toBe(false);
            expect(startsWithTrigger(safe)).toBe(false);
            expect(safe === cell || safe === `'${cell}`).toBe(true);
          },
        ),
      );
    });
  });

  describe('statement CSV (jobs/export-statements → writeStatementCsv)', () => {
    const hostileEntry = (payload: string): StatementEntry => ({
      ...SAMPLE_ENTRIES[1]!,
      amount: { minor: -1_250n, currency: 'EUR' },
      accountServicerRef: payload,
      endToEndId: payload,
      counterparty: { name: payload, iban: payload, bic: payload },
      remittance: { unstructured: payload, creditorReference: payload },
      additionalInfo: payload,
    });

    for (const [encoding, delimiter, decimal] of [
      ['utf-8', ';', '.'],
      ['iso-8859-1', ';', ','],
      ['windows-1252', ',', '.'],
    ] as const satisfies readonly (readonly [CsvEncoding, string, '.' | ','])[]) {
      it(`neutralises every payload in every text cell and keeps -12.50 a number (${encoding}, "${delimiter}", decimal "${decimal}")`, async () => {
        const statement: Statement = { ...sampleStatement(), entries: PAYLOADS.map(hostileEntry) };
        const out = writeStatementCsv(statement, { encoding, delimiter, decimalSeparator: decimal });
        const parts: Buffer[] = [];
        for await (const chunk of out.chunks) parts.push(chunk);
        const bytes = Buffer.concat(parts);
        const text = encoding === 'utf-8' ? bytes.toString('utf8') : bytes.toString('latin1');
        const records = table(text, delimiter).slice(1);
        expect(records).toHaveLength(PAYLOADS.length);
        const numeric = new Set(STATEMENT_CSV_COLUMNS.flatMap((c, i) => (c.kind === 'number' ? [i] : [])));
        expectNoFormula(records, numeric, decimal, `statement CSV ${encoding}`);
        const amount = STATEMENT_CSV_COLUMNS.findIndex((c) => c.name === 'amount');
        for (const record of records) expect(record[amount]).toBe(decimal === '.' ? '-12.50' : '-12,50');
        if (encoding === 'utf-8') {
          const name = STATEMENT_CSV_COLUMNS.findIndex((c) => c.name === 'counterparty_name');
          for (const [i, payload] of PAYLOADS.entries()) expect(neutralised(payload)).toContain(records[i]![name]);
        }
      });
    }
  });

  describe('status CSV (jobs/status-report → writeStatusCsv)', () => {
    it('neutralises every payload in the file name, end-to-end id, status, reason and bank payment id', () => {
      for (const payload of PAYLOADS) {
        const base = sampleStatusReport();
        const report: PaymentStatusReport = {
          ...base,
          originalFileName: `${payload}.csv`,
          groups: base.groups.map((g) => ({
            ...g,
            lines: g.lines.map((l) => ({
              ...l,
              endToEndId: payload,
              status: payload as typeof l.status,
              reasonCodes: [],
              reasonText: payload,
              bankPaymentId: payload,
            })),
          })),
        };
        const records = table(writeStatusCsv(report).bytes.toString('utf8'), ';').slice(1);
        expect(records.length).toBeGreaterThan(0);
        const numeric = new Set(STATUS_CSV_COLUMNS.flatMap((c, i) => (c.kind === 'number' ? [i] : [])));
        expectNoFormula(records, numeric, '.', `status CSV ${JSON.stringify(payload)}`);
        const e2e = STATUS_CSV_COLUMNS.findIndex((c) => c.name === 'end_to_end_id');
        for (const record of records) expect(neutralised(payload)).toContain(record[e2e]);
      }
    });
  });

  describe('reconciliation findings CSV (jobs/reconcile → renderFindingsCsv)', () => {
    it('neutralises every payload in every text cell and keeps a negative difference a number', () => {
      for (const payload of PAYLOADS) {
        const findings = sampleResult().findings.map((f): Finding => ({
          ...f,
          company: payload,
          accountIban: payload,
          paymentIds: [payload],
          endToEndId: payload,
          bulkId: payload,
          transactionId: payload,
          counterparty: payload,
          reference: payload,
          due: payload,
          message: payload,
          amountDifference: { minor: -1_250n, currency: 'NOK' },
        }));
        const machine = renderFindingsCsv(findings);
        const numeric = new Set(
          ['amount', 'booked_amount', 'amount_difference', 'date_difference_days'].map((n) =>
            FINDINGS_CSV_COLUMNS.indexOf(n),
          ),
        );
        const [counterparty, difference] = [
          FINDINGS_CSV_COLUMNS.indexOf('counterparty'),
          FINDINGS_CSV_COLUMNS.indexOf('amount_difference'),
        ];
        // The machine CSV, and the one a person reading bokmål opens from the console (spreadsheet.ts).
        for (const [csv, delimiter, decimal] of [
          [machine, ',', '.'],
          [findingsCsvForPeople(machine, 'nb').replace(/^\ufeff/, ''), ';', ','],
        ] as const) {
          const records = table(csv, delimiter).slice(1);
          expect(records).toHaveLength(findings.length);
          expectNoFormula(records, numeric, decimal, `findings CSV ${JSON.stringify(payload)} (${delimiter})`);
          for (const record of records) {
            expect(neutralised(payload)).toContain(record[counterparty]);
            expect(record[difference]).toBe(`-12${decimal}50`);
          }
        }
      }
    });
  });

  describe('signed period CSV (settle reconcile export, the console → renderSignoffCsv)', () => {
    it('neutralises every payload in every text cell and keeps a negative difference a number', () => {
      for (const payload of PAYLOADS) {
        const csv = renderSignoffCsv({
          company: payload,
          period: payload,
          from: '2026-01-01' as never,
          to: '2026-01-31' as never,
          state: 'reopened',
          signedBy: payload,
          signedPerson: payload,
          signedAt: new Date('2026-02-01T08:00:00Z'),
          note: payload,
          balances: [
            { accountIban: payload, currency: 'NOK', sent: 0n, bookedOut: 0n, bookedIn: 0n, difference: -1_250n },
          ],
          totals: [{ type: payload, findings: 1, decided: 0, amounts: [{ minor: -1_250n, currency: 'NOK' }] }],
          reopenedAt: new Date('2026-02-02T08:00:00Z'),
          reopenedReason: payload,
        });
        const records = table(csv, ',').slice(1);
        expect(records).toHaveLength(3);
        const numeric = new Set(SIGNOFF_NUMERIC_COLUMNS.map((n) => SIGNOFF_CSV_COLUMNS.indexOf(n)));
        expectNoFormula(records, numeric, '.', `signed period CSV ${JSON.stringify(payload)}`);
        const note = SIGNOFF_CSV_COLUMNS.indexOf('note');
        expect(neutralised(payload)).toContain(records[0]![note]);
        expect(records[1]![SIGNOFF_CSV_COLUMNS.indexOf('difference')]).toBe('-12.50');
      }
    });
  });

  describe('no CSV writer outside this suite', () => {
    async function sources(dir: string): Promise<string[]> {
      const out: string[] = [];
      for (const entry of await readdir(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
        if (entry.isFile() && /\.tsx?$/.test(entry.name)) out.push(relative(ROOT, join(entry.parentPath, entry.name)));
      }
      return out.sort();
    }

    it('only the known writers use csv-stringify, and each of them passes its cells through csv-safety', async () => {
      const files = [...(await sources('src')), ...(await sources('jobs'))];
      const users: string[] = [];
      for (const file of files) {
        const text = await readFile(join(ROOT, file), 'utf8');
        if (/from\s+['"]csv-stringify/.test(text)) users.push(file);
      }
      // A new entry here needs a test above that feeds it every payload.
      expect(users).toEqual([
        'src/formats/report/csv.ts',
        'src/formats/report/signoff.tsx',
        'src/formats/report/spreadsheet.ts',
        'src/formats/statement-csv/csv-output.ts',
      ]);
      for (const file of users) {
        const text = await readFile(join(ROOT, file), 'utf8');
        expect(text, file).toMatch(/from\s+['"]\.\.\/csv-safety\.js['"]/);
        expect(text, file).toMatch(/neutraliseFormula\(/);
        expect(text, file).toMatch(/neutraliseNumericCell\(/);
      }
    });

    it('every source that writes files and mentions CSV is known, and writes CSV only with the tested writers', async () => {
      const files = [...(await sources('src')), ...(await sources('jobs'))].filter(
        (f) => !f.startsWith('src/sandbox/'),
      );
      const writers: Record<string, string[]> = {};
      for (const file of files) {
        const text = await readFile(join(ROOT, file), 'utf8');
        const writes = /\b(writeAtomic|writeFile|createWriteStream|appendFile)\(/.test(text);
        if (writes && /csv/i.test(text))
          writers[file] = [
            'renderFindingsCsv',
            'renderSignoffCsv',
            'writeStatusCsv',
            'renderStatement',
            'writeStatementCsv',
          ].filter((w) => text.includes(`${w}(`));
      }
      // demo.ts only copies the sample ERP inputs; the receivables intake only moves inputs and
      // writes text/JSON reports (so does pickup, whose writing files do not mention CSV at all).
      expect(writers).toEqual({
        'jobs/reconcile/receivables.ts': [],
        'jobs/reconcile/reconcile.ts': ['renderFindingsCsv'],
        'jobs/statements/write-period.ts': ['renderStatement'],
        'jobs/status/report.ts': ['writeStatusCsv'],
        'src/cli/commands/reconcile.ts': ['renderSignoffCsv'],
        'src/main/demo.ts': [],
      });
      expect(await readFile(join(ROOT, 'jobs/statements/render.ts'), 'utf8')).toMatch(/writeStatementCsv\(/);
    });
  });
});
