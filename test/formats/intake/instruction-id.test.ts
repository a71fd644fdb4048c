// The ERP's instruction id (pain.001 PmtId/InstrId, a CSV profile's instructionId column) is
// quoted back whole or refused, never cut (issue #47, Must 4): over 35 characters it is
// INSTRUCTION_ID_TOO_LONG at its row and column or its element, through `settle validate`, the
// code path pickup shares; 35 characters are carried as written.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runValidate, type ValidateSettings } from '../../../src/cli/commands/validate.js';
import { ManualClock } from '../../../src/domain/clock.js';
import { withTempDir } from '../../support/tmp.js';
import type { PaymentInstruction } from '../../../src/domain/payment.js';
import { loadProfile } from '../../../src/formats/csv-profile/load-profile.js';
import type { CsvProfile } from '../../../src/formats/csv-profile/profile.js';
import { validateFile } from '../../../src/formats/intake/validate-file.js';
import { check, FIXTURES, PROFILES, validation } from './helpers.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,instruction_id';
const row = (e2e: string, instructionId: string) =>
  `NO9386011117947,Acme AS,2026-01-07,${e2e},100.00,NOK,DE89370400440532013000,Lieferant GmbH,${instructionId}`;
const ID_35 = `INSTR-${'7'.repeat(29)}`;
const ID_36 = `INSTR-${'8'.repeat(30)}`;

/** What intake reads from `file`: each payment's line number and instruction id. */
async function paymentsOf(file: string, profile?: CsvProfile): Promise<[number, string | undefined][]> {
  const seen: PaymentInstruction[] = [];
  await validateFile(file, {
    ...(profile ? { profile } : {}),
    validation: validation(),
    onPayment: (p) => void seen.push(p),
  });
  return seen.map((p) => [p.lineNumber, p.instructionId]);
}

function quiet(): { out: string[]; io: { out: (t: string) => void; err: (t: string) => void } } {
  const out: string[] = [];
  return { out, io: { out: (t) => void out.push(t), err: () => undefined } };
}

interface JsonIssue {
  code: string;
  severity: string;
  location: { row?: number; column?: number; path?: string };
  field?: string;
  message: string;
}

describe('INSTRUCTION_ID_TOO_LONG', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('a CSV profile column over 35 characters is refused at its row and column; 35 are carried whole', async () => {
    await withTempDir(async (dir) => {
      // The generic profile with an instruction id column: no shipped profile has one.
      const generic = await readFile(join(PROFILES, 'generic.yaml'), 'utf8');
      await writeFile(
        join(dir, 'with-instr.yaml'),
        `${generic.replace('name: generic', 'name: with-instr')}  instructionId: instruction_id\n`,
      );
      const file = join(dir, 'run.csv');
      await writeFile(file, [HEADER, row('E2E-1', ID_35), row('E2E-2', ID_36)].join('\n') + '\n');
      const settings: ValidateSettings = {
        profileDirs: [dir, PROFILES],
        clock: new ManualClock('2026-01-05T08:00:00Z'),
      };
      const c = quiet();
      const o = await runValidate(file, { json: true, profile: 'with-instr' }, settings, c.io);
      expect(o.exitCode).toBe(1);
      const json = JSON.parse(c.out.join('')) as { issues: JsonIssue[]; payments: number };
      expect(json.issues).toEqual([
        {
          code: 'INSTRUCTION_ID_TOO_LONG',
          severity: 'error',
          location: { row: 3, column: 9 },
          field: 'instructionId',
          message: 'instruction id has 36 characters; at most 35 are allowed',
        },
      ]);
      // The line of 35 characters is read with its id whole; the refused line is not a payment.
      expect(await paymentsOf(file, await loadProfile('with-instr', [dir]))).toEqual([[2, ID_35]]);
    });
  });

  it('a pain.001 InstrId over 35 characters is refused at its element', async () => {
    const r = await check('rules/instruction-id-too-long.xml');
    expect(r.valid).toBe(false);
    expect(r.issues.map((i) => [i.code, i.severity, i.field, i.location.path])).toEqual([
      [
        'INSTRUCTION_ID_TOO_LONG',
        'error',
        'instructionId',
        '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/PmtId/InstrId',
      ],
    ]);
    expect(r.paymentsSeen).toEqual([]);
  });

  it('a pain.001 InstrId of 35 characters is carried as written', async () => {
    await withTempDir(async (dir) => {
      const xml = await readFile(`${FIXTURES}rules/instruction-id-too-long.xml`, 'utf8');
      const file = join(dir, 'instr-35.xml');
      await writeFile(file, xml.replace(/<InstrId>[^<]*<\/InstrId>/, `<InstrId>${ID_35}</InstrId>`));
      const settings: ValidateSettings = { profileDirs: [PROFILES], clock: new ManualClock('2026-01-05T08:00:00Z') };
      const c = quiet();
      const o = await runValidate(file, { json: true }, settings, c.io);
      expect(o.exitCode).toBe(0);
      expect(JSON.parse(c.out.join(''))).toMatchObject({ payments: 1, issues: [] });
      expect(await paymentsOf(file)).toEqual([[1, ID_35]]);
    });
  });
});
