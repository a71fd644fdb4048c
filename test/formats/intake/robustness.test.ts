// The readers will be fuzzed: no input may crash them, hang them or make them hold unbounded
// memory. Random and mutated inputs must end in a result (issues, never an exception).
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { PaymentValidator } from '../../../src/domain/validation/payment-validator.js';
import type { ReaderItem } from '../../../src/domain/validation/reader-item.js';
import { loadProfile } from '../../../src/formats/csv-profile/load-profile.js';
import { readCsv } from '../../../src/formats/csv-profile/read-csv.js';
import { validateFile } from '../../../src/formats/intake/validate-file.js';
import { Pain001Reader } from '../../../src/formats/pain001/read-pain001.js';
import { FIXTURES, PROFILES, validation } from './helpers.js';

async function drain(items: AsyncIterable<ReaderItem[]>): Promise<number> {
  const validator = new PaymentValidator(validation(), {
    decimalFormat: { decimalSeparator: '.' },
    dateFormat: 'YYYY-MM-DD',
  });
  let n = 0;
  for await (const batch of items) {
    for (const item of batch) {
      n++;
      if (item.kind === 'line') await validator.line(item.line);
      if (item.kind === 'control') validator.control(item.declaration);
    }
  }
  return n;
}

/** Splits text into chunks at arbitrary points, as a stream would. */
function chunked(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of points) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out.filter((s) => s.length > 0);
}

const validCsv = readFileSync(`${FIXTURES}valid/generic.csv`, 'utf8');
const validXml = readFileSync(`${FIXTURES}valid/pain001-v03.xml`, 'utf8');
const mutation = (base: string) =>
  fc
    .array(
      fc.tuple(
        fc.nat(base.length),
        fc.nat(20),
        fc.string({
          unit: fc.constantFrom('<', '>', '/', '"', ',', '\n', '&', ';', '!', 'A', '1', '.', '\u00e5', ' '),
          maxLength: 8,
        }),
      ),
      { maxLength: 6 },
    )
    .map((edits) => {
      let s = base;
      for (const [at, del, ins] of edits) s = s.slice(0, at) + ins + s.slice(at + del);
      return s;
    });

describe('reader robustness', () => {
  it('the CSV reader ends every random or mutated input with lines and issues, never an exception', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 400 }), mutation(validCsv)),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (text, cuts) => {
          await drain(readCsv(chunked(text, cuts), profile));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the pain.001 reader ends every random or mutated input with lines and issues, never an exception', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 400 }), mutation(validXml)),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (text, cuts) => {
          await drain(new Pain001Reader().read(chunked(text, cuts)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a large file has its payments estimated once, after the first MiBs, for the end-to-end id set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'settle-estimate-'));
    const expectLines = vi.spyOn(PaymentValidator.prototype, 'expectLines');
    try {
      const header = validCsv.split('\n')[0]!;
      const n = 60_000;
      const lines = Array.from(
        { length: n },
        (_, i) =>
          `NO9386011117947,ACME AS,2026-01-07,E2E-${String(i).padStart(7, '0')},${(i % 9000) + 1}.50,NOK,NO0612000000009,Creditor ${i % 1000} AS,,Invoice ${i},,normal`,
      );
      const file = join(dir, 'big.csv');
      writeFileSync(file, `${header}\n${lines.join('\n')}\n`);
      const result = await validateFile(file, {
        profile: await loadProfile('generic', [PROFILES]),
        validation: validation(),
      });
      expect(result).toMatchObject({ payments: n, validPayments: n, valid: true });
      expect(expectLines).toHaveBeenCalledTimes(1);
      const estimate = expectLines.mock.calls[0]![0];
      expect(estimate).toBeGreaterThan(n * 0.95);
      expect(estimate).toBeLessThan(n * 1.05);
    } finally {
      expectLines.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an over-long CSV record is one CSV_RECORD_TOO_LARGE issue, not a memory blow-up', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    const header = validCsv.split('\n')[0]!;
    const huge = `${header}\n${'x'.repeat(200_000)}\n`;
    const items: ReaderItem[] = [];
    for await (const batch of readCsv([huge], profile)) items.push(...batch);
    expect(items).toMatchObject([{ kind: 'issue', issue: { code: 'CSV_RECORD_TOO_LARGE' } }]);
  });

  it('a file of broken quotes is read in linear time with bounded issues (once quadratic, found by the fuzzer)', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    const header = validCsv.split('\n')[0]!;
    const broken = `${header}\n${Array.from({ length: 3000 }, () => '"a"b,"c"d\n').join('')}${'"x"y'.repeat(20_000)}\n`;
    const started = performance.now();
    const items: ReaderItem[] = [];
    for await (const batch of readCsv([broken], profile)) items.push(...batch);
    const codes = items.map((i) => (i.kind === 'issue' ? i.issue.code : i.kind));
    expect(codes.filter((c) => c === 'CSV_MALFORMED').length).toBeLessThanOrEqual(101);
    expect(codes.filter((c) => c === 'line')).toHaveLength(3000);
    expect(codes.at(-1)).toBe('CSV_RECORD_TOO_LARGE');
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('reading stops with a located explanation once the malformed-record limit is reached', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    const header = validCsv.split('\n')[0]!;
    const items: ReaderItem[] = [];
    for await (const batch of readCsv([`${header}\n"never closed,x\n`], profile, { maxMalformedRecords: 1 }))
      items.push(...batch);
    const messages = items.map((i) => (i.kind === 'issue' ? i.issue.message : i.kind));
    expect(messages.some((m) => m.includes('Quote Not Closed'))).toBe(true);
    expect(messages.at(-1)).toContain('reading stopped');
  });

  it('a quote inside an unquoted value is kept as a character', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    const [header, row] = validCsv.split('\n');
    const items: ReaderItem[] = [];
    for await (const batch of readCsv([`${header}\n${row!.replace('Invoice 4711', 'Pipe 12" long')}\n`], profile))
      items.push(...batch);
    expect(items).toMatchObject([
      { kind: 'line', line: { fields: { remittanceInformation: { value: 'Pipe 12" long' } } } },
    ]);
  });

  it('a million nested elements stop at the depth limit quickly', async () => {
    const started = performance.now();
    const chunks = (function* () {
      yield '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn>';
      for (let i = 0; i < 1000; i++) yield '<a>'.repeat(1000);
    })();
    const items: ReaderItem[] = [];
    for await (const batch of new Pain001Reader().read(chunks)) items.push(...batch);
    expect(items).toMatchObject([
      { kind: 'issue', issue: { code: 'ELEMENT_UNSUPPORTED' } },
      { kind: 'issue', issue: { code: 'XML_LIMIT_EXCEEDED' } },
    ]);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
