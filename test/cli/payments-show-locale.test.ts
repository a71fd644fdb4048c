// `settle payments show`, `settle findings list` and `settle run nightly`'s step lines through the
// real command line, for the demo company with `locale: nb` (settle demo --locale nb-NO): the story
// in bokmål, with amounts like "48 250,00 kr", dates like "07.01.2026" and times in the company's
// zone; its --json unchanged.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSettle } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

vi.setConfig({ testTimeout: 120_000 });

/** Intl writes bokmål with no-break spaces; the checks read them as spaces. */
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

let dir: string;
let cleanup: () => Promise<void>;
let demo: string;
const settle = (args: string[]) =>
  runSettle(['--config', join(demo, 'settle.yaml'), ...args], { cwd: dir, env: { SETTLE_CLIENT_SECRET: 'unused' } });

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  demo = join(dir, 'demo');
  const run = await runSettle(['demo', '--dir', demo, '--locale', 'nb-NO'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
}, 240_000);
afterAll(async () => {
  await cleanup();
});

describe('settle payments show for a company that reads bokmål', () => {
  it("tells the payment's story in bokmål, and keeps its JSON language-neutral", async () => {
    const run = await settle(['payments', 'show', 'ACME-2026-0004']);
    expect(run.code, run.stderr).toBe(0);
    const out = spaces(run.stdout);
    expect(out).toMatch(/^Betaling ACME-2026-0004 for acme$/m);
    expect(out).toMatch(/^ {2}Fil: +acme-payments\.csv, linje 5$/m);
    expect(out).toMatch(/^ {2}Mottatt: +05\.01\.2026, 09:00 \(csv:generic\)$/m);
    expect(out).toMatch(/^ {2}Kreditor: +Tromso Bygg AS, NO2712000237572$/m);
    expect(out).toMatch(/^ {2}Beløp: +48 250,00 kr$/m);
    expect(out).toMatch(/^ {2}Forfallsdato: +07\.01\.2026$/m);
    expect(out).toMatch(/^ {2}Remittering: +Avdrag kontrakt 17$/m);
    // The state in words with its code, as the console's payment page says it; not the code twice.
    expect(out).toMatch(/^ {2}Status: +Betalt fra belastningskontoen \(ACSC\)$/m);
    // The bulk's state and the history's in words with their codes, as the console says them.
    expect(out).toMatch(/^ {2}Bunt: +\S+ \(Ferdig: hver betaling har fått sitt utfall \(done\), 1 forsøk\)$/m);
    expect(out).toMatch(/^ {2}Sendt under: +testbank, samtykke \S+$/m);
    expect(out).toMatch(/^ {2}Avstemming: +avstemt: Bokført 07\.01\.2026 med 48 250,00 kr, som sendt\.$/m);
    expect(out).toMatch(/^ {2}Når +Hva +Fra +Til +Kilde +Årsak$/m);
    // Each history row names the entity, the states and the source in words with their codes.
    expect(out).toMatch(
      /^ {2}\S+, \S+ +Betalingsfil \(payment_file\) +- +godtatt \(accepted\) +settle selv \(settle\) /m,
    );
    expect(out).toMatch(
      /^ {2}\S+, \S+ +Betaling \(payment\) +Mottatt av banken \(RCVD\) +Betalt fra belastningskontoen \(ACSC\) +Statussjekk mot banken \(poll\) /m,
    );
    expect(out).toMatch(/^ {2}\S+, \S+ +Bunt \(bulk\) +.*Ferdig: hver betaling har fått sitt utfall \(done\)/m);
    expect(out).not.toMatch(/^ {2}\S+, \S+ +(file|bulk|payment|basket|payment_file) /m);
    expect(out).toMatch(/^ {2}07\.01\.2026 +NO7215031234562 +[−-]48 250,00 +NOK +booked +\S+$/m);
    expect(out).not.toMatch(/Payment |Execution date|48250\.00|2026-01-07/);
    // Each cause in the history in bokmål (the instant of a bank status in the company's zone).
    expect(out).toMatch(/lest inn fra acme-payments\.csv/);
    expect(out).toMatch(/godtatt av banken/);
    expect(out).not.toMatch(/pickup acme-payments|bank accepted|submit run/);

    const json = JSON.parse((await settle(['payments', 'show', 'ACME-2026-0004', '--json'])).stdout) as Record<
      string,
      unknown
    >[];
    // The JSON keeps each cause's English.
    const history = json[0]!.history as { cause: string }[];
    expect(history.map((h) => h.cause)).toContain('pickup acme-payments.csv');
    expect(json[0]).toMatchObject({
      amount: '48250.00',
      executionDate: '2026-01-07',
      reconciliation: { result: 'matched', explanation: 'Booked 2026-01-07 for 48250.00 NOK, as sent.' },
    });
  });

  it('lists the findings in bokmål', async () => {
    const run = await settle(['findings', 'list', '--company', 'acme']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/needs a person|no findings need a person/);
    expect(run.stdout).toMatch(/trenger oppfølging|ingen avvik trenger oppfølging/);
  });

  it('says each finding’s sentence in bokmål, not the English the run recorded beside it', async () => {
    const listed = await settle(['findings', 'list', '--company', 'acme', '--all']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toMatch(
      /: (Matched by|Rejected by the bank|A debit of|Sent for execution|Paid invoice|A credit of|Proposed)/,
    );
    expect(listed.stdout).toMatch(
      /: (Koblet på|Avvist av banken|En belastning på|Sendt til utførelse|Betalt|En innbetaling|Foreslått)/,
    );
    // The amounts and dates inside the sentences as bokmål writes them, not as the run recorded them.
    const sentences = spaces(listed.stdout)
      .split('\n')
      .filter((l) => l.startsWith('    '));
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) expect(sentence).not.toMatch(/\d{4}-\d\d-\d\d|\d\.\d\d(?![.\d])/);
    expect(sentences.join('\n')).toMatch(/\d\d\.\d\d\.2026/);
    // What each finding is about, in bokmål too.
    for (const sentence of sentences) expect(sentence).not.toMatch(/^ {4}(payment|booking|basket|consent|statement) /);
    expect(sentences.join('\n')).toMatch(/^ {4}(betaling|bokføring) \S+: /m);
  });

  it('prints the run summaries of the one company run in its language', async () => {
    // A dry run: nothing is sent or moved (the demo's sandbox bank is gone, so fetch fails, in bokmål too).
    const run = await settle(['run', 'nightly', '--company', 'acme', '--dry-run']);
    const lines = run.stdout.split('\n');
    expect(lines).toContain('✓ pickup        0 filer: 0 godtatt, 0 delvis godtatt, 0 avvist, 0 duplikater');
    expect(lines).toContain(
      '✓ submit        0 bunter planlagt; 0 sendt, 0 avvist, 0 prøves igjen, 0 trenger oppfølging',
    );
    expect(lines.find((l) => l.startsWith('! fetch'))).toMatch(/^! fetch +1 konto: 0 hentet, 1 ikke$/);
    expect(run.stdout).not.toMatch(/file\(s\)|bulk\(s\)|need a person/);
  });
});
