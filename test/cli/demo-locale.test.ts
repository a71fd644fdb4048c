// `settle demo --locale nb-NO`, run as a user would: the demo company reads Norwegian bokmål, so
// its approval notice (the approvers' copy and the reports copy), the error report of its bad
// file, night 2's reconciliation report (the evidence of each match too) and the report of the
// line the bank did not pay speak bokmål with amounts like "93 885,40 kr" and dates like
// "08.01.2026" (issue #53), while the report's CSV, for programs, keeps its machine columns and
// decimal points.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

/** Intl writes bokmål with no-break spaces; the checks read them as spaces. */
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('settle demo --locale', () => {
  it(
    'runs the demo for a company in bokmål, whose approval notice and reconciliation report are in bokmål',
    { timeout: 240_000 },
    async () => {
      await withTempDir(async (dir) => {
        const demo = join(dir, 'demo');
        const run = await runSettle(['demo', '--dir', demo, '--locale', 'nb-NO'], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain('the demo company reads its reports and notices in Norsk bokmål (locale nb)');
        expect(await readFile(join(demo, 'settle.yaml'), 'utf8')).toMatch(/^ {4}locale: nb\b/m);

        const read = async (folder: string) => {
          const names = (await readdir(join(demo, 'acme', folder))).filter((n) => n.startsWith('approval-'));
          expect(names).toHaveLength(1);
          return spaces(await readFile(join(demo, 'acme', folder, names[0]!), 'utf8'));
        };
        const approvers = await read('approvals');
        expect(approvers).toContain('Betalinger fra ACME AS venter på godkjenning i banken.');
        expect(approvers).toContain('Lenken virker ÉN gang og utløper 12.01.2026, 09:00.');
        expect(approvers).toMatch(/^ {2}NO72…4562 +3 +57 475,50 kr$/m);
        expect(approvers).toMatch(/^ {2}Tromso Bygg AS +NO27…7572 +48 250,00 kr +07\.01\.2026 +ACME-2026-0004$/m);
        const report = await read('reports');
        expect(report).toContain('Godkjenningslenken ble sendt til godkjennernes mappe approvals;');
        expect(report).not.toMatch(/__sandbox\/sca/);
        expect(report).not.toMatch(/Payments|57475\.50|2026-01-07/);

        // The accountant's error report of the deliberately bad file, text and HTML, in bokmål: what
        // happened to the file, then each problem at its row under the file's own column header.
        const errors = spaces(await readFile(join(demo, 'acme', 'error', 'acme-corrections.csv.errors.txt'), 'utf8'));
        expect(errors.split('\n')[0]).toBe(
          'INGENTING FRA DENNE FILEN BLE SENDT: ingen betaling i den går til banken. Rett feilene nedenfor i ERP-systemet, og legg deretter inn hele den rettede filen på nytt.',
        );
        expect(errors).toContain(
          'Rad 2, kolonne «creditor_iban», verdi «NO0612000000008»: Kontonummeret er ikke et gyldig IBAN',
        );
        expect(errors).toContain(
          'Rad 3, kolonne «amount», verdi «99.995»: Beløpet har flere desimaler enn valutaen har.',
        );
        expect(errors).toContain(
          'Rad 4, kolonne «requested_execution_date», verdi «2026-01-02»: Forfallsdatoen er passert.',
        );
        expect(errors).toContain('For driften (IT)');
        const errorsHtml = await readFile(join(demo, 'acme', 'error', 'acme-corrections.csv.errors.html'), 'utf8');
        expect(errorsHtml).toMatch(/^<!doctype html>\n<html lang="nb">/);
        expect(errorsHtml).toContain('<th scope="col">Hva du må endre</th>');

        // Night 2's reconciliation report: the page for people in bokmål, the CSV for programs as documented.
        const night2 = (await readdir(join(demo, 'acme', 'reports'))).filter((n) =>
          /^reconciliation-acme-2026-01-08-.*\.(html|csv)$/.test(n),
        );
        expect(night2).toHaveLength(2);
        const html = spaces(
          await readFile(
            join(
              demo,
              'acme',
              'reports',
              night2.find((n) => n.endsWith('.html'))!,
            ),
            'utf8',
          ),
        );
        expect(html).toContain('<html lang="nb">');
        expect(html).toContain('<h1>Avstemmingsrapport: ACME AS (999999999)</h1>');
        expect(html).toContain('Periode: 05.01.2026–08.01.2026 · Laget 08.01.2026, 04:00');
        // The seven payments matched on night 2, summed as bokmål writes money.
        expect(html).toMatch(
          /<a href="#matched">Avstemt<\/a><\/th><td><span class="badge info">info<\/span><\/td><td class="num">7<\/td><td class="num">0<\/td><td class="num">93 885,40 kr<\/td>/,
        );
        expect(html).toContain('<h2 id="rejected">Avvist og ikke sendt på nytt (1)</h2>');
        expect(html).toContain('<strong>Hva du gjør:</strong> Rett årsaken');
        expect(html).toMatch(
          /<td class="date">07\.01\.2026<\/td><td class="num">845,00 kr<\/td><td class="text">Avvist av banken \(RJCT\)<\/td>/,
        );
        expect(html).toContain('1 av 10 poster trenger oppfølging.');
        // The evidence of each match in words, as the run recorded it but in bokmål, its rule named.
        expect(html).toContain(
          'Samme ende-til-ende-ID (end-to-end): stemmer: ende-til-ende-ID, belastningskonto, mottakers konto, beløp, dato (100 poeng)',
        );
        expect(html).toMatch(
          /KID \(creditor-reference\): stemmer: KID \/ RF-referanse, beløp; avviker: datoen, 3 dager før \(\d+ poeng\)/,
        );
        // No English sentence of the page itself is left (the findings' own messages are recorded data).
        expect(html).not.toMatch(
          /Reconciliation report|Summary|What to do|Balances per account|Generated|agreed:|differed:|\(score/,
        );
        expect(html).not.toMatch(/93,885\.40|93885\.40/);
        const csv = await readFile(
          join(
            demo,
            'acme',
            'reports',
            night2.find((n) => n.endsWith('.csv'))!,
          ),
          'utf8',
        );
        expect(csv.startsWith('finding_type,severity,needs_person,')).toBe(true);
        expect(csv).toMatch(/,NOK,845\.00,/);

        // The report of the line the bank did not pay: its time as bokmål writes one, in the company's zone.
        const refusedName = (await readdir(join(demo, 'acme', 'reports'))).find((n) => /^refused-.*\.txt$/.test(n))!;
        const refused = spaces(await readFile(join(demo, 'acme', 'reports', refusedName), 'utf8'));
        expect(refused.split('\n').slice(0, 2)).toEqual([
          'ACME AS: 1 linje i acme-payments.csv ble ikke betalt',
          'per 08.01.2026, 04:00',
        ]);
        expect(refused).toContain('Linje 4 (ACME-2026-0003), Bergen Kaffe AS, 845,00 kr: RJCT');
        expect(refused).toContain('Kontoen er avsluttet: be kreditor om nytt kontonummer');
        expect(refused).not.toMatch(/GMT|2026-01-08/);
      });
    },
  );
});
