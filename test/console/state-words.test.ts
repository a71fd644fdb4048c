// States, a payment's history and rule names in words over real HTTP against `settle serve`:
// in bokmål the words with the code beside them ("Ukjent utfall: settle spør banken (unknown)")
// on Unknown bulks, Banks, Held payments and a payment's page; English keeps the codes in its
// tables, and names a rule with its code beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalDate } from '../../src/domain/local-date.js';
import { holdDuplicatesSince, payment, paymentFile } from '../store/fixtures.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const TEST_MS = 240_000;

/** The text of a page's <main>, one space between pieces. */
function text(html: string): string {
  const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '';
  return main
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('states, history and rules in words on the console', () => {
  let f: ConsoleFixture;
  const ids = { bulk: '', payment: '' };

  beforeAll(async () => {
    f = await startConsoleFixture();
    const store = f.app.store;
    const file = await store.files.recordAcceptedFile(paymentFile('words-file'), [
      payment(1, { endToEndId: 'WORDS-1' }),
      payment(2, { endToEndId: 'WORDS-2' }),
    ]);
    const lines = await store.payments.listByFile(file.id);
    ids.payment = lines[0]!.id;
    const [bulk] = await store.bulks.createBulks(file.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-08' as LocalDate,
        batchBooking: false,
        paymentIds: lines.map((p) => p.id),
      },
    ]);
    await store.bulks.markSending(bulk!.id);
    await store.bulks.markUnknown(bulk!.id, { title: 'timeout' });
    ids.bulk = bulk!.id;
    const since = new Date('2026-01-01T00:00:00Z');
    const dup = (e2e: string) => payment(9, { endToEndId: e2e, amount: { minor: 9_99n, currency: 'NOK' } });
    await store.files.recordAcceptedFile(paymentFile('held-first'), [dup('H-FIRST')], 0, holdDuplicatesSince(since));
    await store.files.recordAcceptedFile(paymentFile('held-again'), [dup('H-AGAIN')], 0, holdDuplicatesSince(since));
    await store.consents.record({
      company: 'acme',
      bankId: 'testbank',
      consentId: 'CONSENT-W',
      status: 'AwaitingApproval',
      statusAt: new Date('2026-01-05T08:00:00Z'),
      source: 'bank',
    });
    await store.statements.upsertAccount({ id: 'acc-w', company: 'acme', iban: 'NO9386011117947', currency: 'NOK' });
    expect(await store.accountStatus.record('acc-w', 'disabled', new Date('2026-01-05T08:00:00Z'))).toBe('recorded');
  }, TEST_MS);
  afterAll(async () => {
    await f?.close();
  });

  const reader = async (language: string) => {
    const c = new Client(f.base, { 'accept-language': language });
    expect((await c.signIn('olga', PASSWORDS.olga)).status).toBe(303);
    return async (path: string) => text(await (await c.request(path)).text());
  };

  it(
    'says states, history entities and sources and rule names in bokmål, each with its code',
    async () => {
      const page = await reader('nb-NO');
      const bulks = await page('/console/bulks?company=acme');
      expect(bulks).toContain('Ukjent utfall: settle spør banken (unknown)');

      const banks = await page('/console/banks?company=acme');
      expect(banks).toContain('Venter på godkjenning i banken (AwaitingApproval)');
      expect(banks).toContain('(bankens liste (bank))');
      expect(banks).toContain('Deaktivert i banken (disabled)');

      const held = await page('/console/held?company=acme');
      expect(held).toContain('Mulig dublett (duplicate)');

      const story = await page(`/console/payments/${ids.payment}?company=acme`);
      expect(story).toContain(`${ids.bulk} (Ukjent utfall: settle spør banken (unknown))`);
      // The history: which entity moved, from and to what, and how, in words with the codes.
      expect(story).toContain('Bunt');
      expect(story).toContain('Sendes til banken (sending)');
      expect(story).toContain('Betaling');
      expect(story).toContain('Sending til banken (submit)');
      expect(story).toContain('Lest inn fra filen, ikke sendt ennå (accepted)');
      expect(story).not.toMatch(/ (payment_file|bulk|payment) (–|\S+ \()/);
    },
    TEST_MS,
  );

  it(
    'keeps the codes in English tables, and names a rule with its code',
    async () => {
      const page = await reader('en');
      const bulks = await page('/console/bulks?company=acme');
      expect(bulks).not.toContain('Outcome unknown');
      expect(bulks).toMatch(/ unknown /);
      const banks = await page('/console/banks?company=acme');
      expect(banks).toContain('AwaitingApproval');
      expect(banks).not.toContain('Waiting for approval at the bank');
      const held = await page('/console/held?company=acme');
      expect(held).toContain('Likely duplicate (duplicate)');
    },
    TEST_MS,
  );
});
