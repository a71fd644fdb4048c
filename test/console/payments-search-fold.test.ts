// The Payments page's creditor search over real HTTP against `settle serve` on SQLite: the start
// of the creditor's name in any case and Unicode form finds it, æ, ø and å are letters of their
// own (`orn` does not find Ørnulf, `aasen` not Åsen), and white space is read as one space
// (docs/console.md, "Payments search"; src/domain/search-fold.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { payment, paymentFile } from '../store/fixtures.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const CREDITORS: [string, string][] = [
  ['E2E-ORNULF', 'Ørnulf Hansen AS'],
  ['E2E-ORNES', 'Ornes Marina'],
  ['E2E-ASEN', 'Åsen Bygg'],
  ['E2E-AASEN', 'Aasen Transport'],
  ['E2E-AERO', 'Ærø Fisk'],
  ['E2E-NORDIC', 'Nordic  Supplies AS'],
  ['E2E-ECLAIR', 'Éclair Café'],
];

describe('the Payments page finds creditors by their folded name (SQLite, HTTP)', () => {
  let f: ConsoleFixture;
  const vera = { client: undefined as Client | undefined };

  /** The end-to-end ids the page lists for the typed creditor text, sorted. */
  const search = async (creditor: string): Promise<string[]> => {
    const res = await vera.client!.request(`/console/payments?company=acme&creditor=${encodeURIComponent(creditor)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    return [...html.matchAll(/>(E2E-[A-Z]+)</g)].map((m) => m[1]!).sort();
  };

  beforeAll(async () => {
    f = await startConsoleFixture({ clock: new ManualClock(new Date()) });
    await f.app.store.files.recordAcceptedFile(
      paymentFile('fold-search'),
      CREDITORS.map(([endToEndId, creditorName], i) => payment(i + 1, { endToEndId, creditorName })),
    );
    // Beta's creditor of the same name is not acme's.
    await f.app.store.files.recordAcceptedFile(paymentFile('fold-beta', { company: 'beta' }), [
      payment(1, { endToEndId: 'E2E-BETA', creditorName: 'Ørnulf Hansen AS' }),
    ]);
    vera.client = new Client(f.base);
    expect((await vera.client.signIn('vera', PASSWORDS.vera)).status).toBe(303);
  }, 90_000);
  afterAll(async () => {
    await f?.close();
  });

  it('ørn, ØRN and Ørn find Ørnulf Hansen AS; orn finds Ornes, not Ørnulf', async () => {
    for (const typed of ['ørn', 'ØRN', 'Ørn', 'ørnulf HANSEN'])
      expect(await search(typed), typed).toEqual(['E2E-ORNULF']);
    expect(await search('orn')).toEqual(['E2E-ORNES']);
  });

  it('ÅSEN finds Åsen Bygg, in either Unicode form; aasen finds Aasen, not Åsen', async () => {
    expect(await search('ÅSEN')).toEqual(['E2E-ASEN']);
    expect(await search('A\u030Asen')).toEqual(['E2E-ASEN']);
    expect(await search('aasen')).toEqual(['E2E-AASEN']);
    expect(await search('ærø')).toEqual(['E2E-AERO']);
    expect(await search('aero')).toEqual([]);
  });

  it('reads ASCII and accented letters in any case, and white space as one space', async () => {
    expect(await search('nordic')).toEqual(['E2E-NORDIC']);
    expect(await search('NORDIC SUPPLIES')).toEqual(['E2E-NORDIC']);
    expect(await search('éclair')).toEqual(['E2E-ECLAIR']);
    expect(await search('ÉCLAIR CAFÉ')).toEqual(['E2E-ECLAIR']);
    expect(await search('eclair')).toEqual([]);
  });
});
