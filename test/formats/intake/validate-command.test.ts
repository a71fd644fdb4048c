// `settle validate`: exit codes 0/1/2, the --json shape with decimal-string amounts, --as-of,
// and the human form grouping issues by row.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { runValidate, validateCommand, type ValidateSettings } from '../../../src/cli/commands/validate.js';
import { FIXTURES, PROFILES } from './helpers.js';

function capture(): { out: string[]; err: string[]; io: { out: (t: string) => void; err: (t: string) => void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t) => void out.push(t), err: (t) => void err.push(t) } };
}

const settings: ValidateSettings = { profileDirs: [PROFILES], clock: new ManualClock('2026-01-05T08:00:00Z') };

describe('settle validate', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('exits 0 for a valid file and prints the JSON report with amounts as decimal strings', async () => {
    const c = capture();
    const o = await runValidate(`${FIXTURES}valid/generic.csv`, { json: true }, settings, c.io);
    expect(o.exitCode).toBe(0);
    const json = JSON.parse(c.out.join(''));
    expect(Object.keys(json)).toEqual(['file', 'format', 'sha256', 'payments', 'totals', 'issues']);
    expect(json).toMatchObject({ format: 'csv:generic', payments: 3, issues: [] });
    expect(json.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(json.totals).toEqual([
      { currency: 'NOK', amount: '1349.50' },
      { currency: 'JPY', amount: '12' },
    ]);
  });

  it('exits 1 for an invalid file and lists every issue with code, severity, location, field and message', async () => {
    const c = capture();
    const o = await runValidate(`${FIXTURES}rules/many-rules.csv`, { json: true }, settings, c.io);
    expect(o.exitCode).toBe(1);
    const json = JSON.parse(c.out.join(''));
    expect(json.issues).toHaveLength(6);
    expect(json.issues[0]).toEqual({
      code: 'IBAN_INVALID',
      severity: 'error',
      location: { row: 3, column: 7 },
      field: 'creditorIban',
      message: expect.stringContaining('NO9386011117948'),
    });
  });

  it('--as-of evaluates date rules as on that day', async () => {
    const c = capture();
    const past = await runValidate(`${FIXTURES}valid/generic.csv`, { asOf: '2026-01-08' }, settings, c.io);
    expect(past.exitCode).toBe(1);
    expect(past.result?.issues.map((i) => i.code)).toEqual([
      'EXECUTION_DATE_PAST',
      'EXECUTION_DATE_PAST',
      'EXECUTION_DATE_PAST',
    ]);
  });

  it('the human form groups issues under their row, in row order', async () => {
    const c = capture();
    await runValidate(`${FIXTURES}rules/many-rules.csv`, {}, settings, c.io);
    const text = c.out.join('');
    expect(text).toMatch(/INVALID/);
    expect(text.indexOf('row 3:')).toBeLessThan(text.indexOf('row 4:'));
    expect(text).toContain('  error   AMOUNT_PRECISION amount (column 5): "1.234" has 3 decimals; NOK has 2');
  });

  it('reads pain.001 without a profile and names the version', async () => {
    const c = capture();
    const o = await runValidate(`${FIXTURES}valid/pain001-v09.xml`, { json: true }, settings, c.io);
    expect(o.exitCode).toBe(0);
    expect(JSON.parse(c.out.join('')).format).toBe('pain.001.001.09');
  });

  it('exits 2 with a coded one-line message for an unknown profile, a bad --as-of and a missing file', async () => {
    for (const [file, args, code] of [
      [`${FIXTURES}valid/generic.csv`, { profile: 'no-such-profile' }, 'ERR_PROFILE_NOT_FOUND'],
      [`${FIXTURES}valid/generic.csv`, { asOf: '2026-13-01' }, 'ERR_VALIDATE_USAGE'],
      [`${FIXTURES}does-not-exist.csv`, {}, 'ERR_INTAKE_FILE_UNREADABLE'],
    ] as const) {
      const c = capture();
      const o = await runValidate(file, args, settings, c.io);
      expect(o.exitCode).toBe(2);
      expect(c.err.join('')).toMatch(new RegExp(`^settle validate: ${code}: .+\\n$`));
      expect(c.out).toEqual([]);
    }
  });

  it('the commander command sets the exit code from the outcome', async () => {
    const c = capture();
    await validateCommand(settings, c.io).parseAsync([`${FIXTURES}rules/iban-mod97.csv`, '--json'], { from: 'user' });
    expect(process.exitCode).toBe(1);
    expect(JSON.parse(c.out.join('')).issues[0].code).toBe('IBAN_INVALID');
  });
});
