// A refused decision on the console reads in the person's language (docs/errors.md, docs/i18n.md):
// over real HTTP against `settle serve`, an operator whose browser asks for bokmål releases a held
// likely duplicate, then tries to drop it: the refusal page says in bokmål who released it, and
// a hold that does not exist is refused in bokmål too. An English reader reads the error's English
// message, as before. A signed period's CSV opened from the console is in bokmål too: its heads,
// parts, state and dates, with ";" and a BOM; English keeps the machine CSV.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOffPeriod } from '../../jobs/reconcile/index.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { holdDuplicatesSince, payment, paymentFile } from '../store/fixtures.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const TEST_MS = 180_000;

/** The text of a page's <main>, on one line. */
const mainText = (html: string) =>
  (/<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('a refused decision and a signed period’s CSV on the console in the reader’s language', () => {
  let f: ConsoleFixture;
  let held = '';

  beforeAll(async () => {
    f = await startConsoleFixture();
    const store = f.app.store;
    const since = new Date('2026-01-01T00:00:00Z');
    const dup = (e2e: string) => payment(9, { endToEndId: e2e, amount: { minor: 9_99n, currency: 'NOK' } });
    await store.files.recordAcceptedFile(paymentFile('refusal-first'), [dup('R-FIRST')], 0, holdDuplicatesSince(since));
    await store.files.recordAcceptedFile(paymentFile('refusal-again'), [dup('R-AGAIN')], 0, holdDuplicatesSince(since));
    held = (await store.operatorViews.heldPayments('acme')).rows[0]!.id;
  }, TEST_MS);
  afterAll(async () => {
    await f?.close();
  });

  const signedIn = async (language: string): Promise<{ c: Client; token: string }> => {
    const c = new Client(f.base, { 'accept-language': language });
    expect((await c.signIn('olga', PASSWORDS.olga)).status).toBe(303);
    const token = Client.token(await (await c.request('/console/held?company=acme')).text());
    return { c, token };
  };

  it(
    'says in bokmål why a hold cannot be decided, and in English to an English reader',
    async () => {
      const { c, token } = await signedIn('nb-NO,nb;q=0.9');
      const decide = (id: string, verb: string) =>
        c.request(`/console/held/${encodeURIComponent(id)}/${verb}?company=acme`, {
          form: { _csrf: token, reason: 'sjekket mot fakturaen' },
        });
      expect((await decide(held, 'release')).status).toBe(303);

      const again = await decide(held, 'drop');
      expect(again.status).toBe(409);
      const page = mainText(await again.text());
      expect(page).toContain(`${held} er allerede frigitt av local:olga; se settle payments held`);
      expect(page).not.toContain('was already');

      const unknown = await decide('H-NOPE', 'release');
      expect(unknown.status).toBe(409);
      expect(mainText(await unknown.text())).toContain(
        'ingen holdt betaling «H-NOPE» i selskapet acme; se settle payments held',
      );

      const english = await signedIn('en');
      const refused = await english.c.request(`/console/held/${encodeURIComponent(held)}/drop?company=acme`, {
        form: { _csrf: english.token, reason: 'checked' },
      });
      expect(refused.status).toBe(409);
      expect(mainText(await refused.text())).toContain(
        `${held} was already released by local:olga; see settle payments held`,
      );
    },
    TEST_MS,
  );

  it(
    "gives a signed period's CSV in bokmål to a bokmål reader, and the machine CSV to an English one",
    async () => {
      await signOffPeriod(f.app.store, {
        today: '2026-02-01' as LocalDate,
        company: 'acme',
        period: '2025-12',
        actor: 'local:olga',
        person: 'olga',
        origin: 'test',
      });
      const { c } = await signedIn('nb-NO,nb;q=0.9');
      const bytes = Buffer.from(await (await c.request('/console/periods/2025-12/csv?company=acme')).arrayBuffer());
      // A BOM first, as Norwegian Excel expects (fetch's text() would drop it).
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const nb = bytes.subarray(3).toString('utf8');
      expect(nb.startsWith('Del;Selskap;Periode;Fra;Til;Status;Signert av;')).toBe(true);
      const [head, period]: string[][] = parse(nb, { delimiter: ';', relax_column_count: true });
      const cell = (name: string) => period![head!.indexOf(name)];
      expect(cell('Del')).toBe('periode');
      expect(cell('Fra')).toBe('01.12.2025');
      expect(cell('Til')).toBe('31.12.2025');
      expect(cell('Status')).toBe('avsluttet');
      expect(cell('Signert')).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);

      const english = await signedIn('en');
      const en = await (await english.c.request('/console/periods/2025-12/csv?company=acme')).text();
      expect(en.startsWith('section,company,period,from,to,state,')).toBe(true);
      expect(en).toContain('period,acme,2025-12,2025-12-01,2025-12-31,signed,local:olga,');
    },
    TEST_MS,
  );
});
