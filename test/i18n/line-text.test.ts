// Settle's words about a payment are recorded twice: the English sentence (what old rows
// have and an English company's files keep byte for byte) and the catalogue key with its values
// (what a bokmål company's files are written from). The two must say the same thing: the English
// catalogue renders each recorded sentence exactly as the English that was stored beside it.
import { describe, expect, it } from 'vitest';
import { FileControls, NO_CONTROLS, PayeeHistory, type ControlSettings } from '../../src/domain/controls/index.js';
import { messagesForRefusal, messageForReturn, messageForTpp } from '../../src/domain/line-message.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import type { PaymentInstruction } from '../../src/domain/payment.js';
import { recorded } from '../../src/domain/recorded-text.js';
import { recordedWords, renderRecorded } from '../../src/i18n/index.js';

const pay = (n: number, minor: bigint, over: Partial<PaymentInstruction> = {}): PaymentInstruction => ({
  debtorIban: 'NO9386011117947',
  debtorName: 'ACME AS',
  requestedExecutionDate: toLocalDate('2026-01-09'),
  endToEndId: `E-${n}`,
  amount: { minor, currency: 'NOK' },
  creditorIban: 'NO0612000000009',
  creditorName: 'Oslo Trykkeri AS',
  lineNumber: n + 1,
  ...over,
});

const controls = (settings: Partial<ControlSettings>, history = new PayeeHistory(), at = '2026-01-05T08:00:00Z') =>
  new FileControls({
    settings: { ...NO_CONTROLS, ...settings },
    history,
    dayTotals: new Map([['NO9386011117947|NOK|2026-01-09', 900_000n]]),
    receivedAt: new Date(at),
    timeZone: 'Europe/Oslo',
    today: toLocalDate('2026-01-05'),
  });

describe('recorded line text', () => {
  it('the English catalogue renders every rule’s evidence as the English recorded beside it', () => {
    const history = new PayeeHistory();
    history.add('NO0612000000009', { name: 'Oslo Trykkeri AS', orgId: '999888777' }, 14, '2025-03-02');
    for (const [i, account] of ['NO5812000079195', 'NO9386011117947', 'NO7215031234562'].entries())
      history.add(account, 'Bergen Bygg AS', i + 1, '2025-11-20');
    const everything = {
      changedAccount: true,
      newAccount: true,
      goLive: toLocalDate('2026-01-04'),
      limits: { perLine: { NOK: '10.00' }, perFile: { NOK: '5.00' }, perDebtorDay: { NOK: '9000.00' } },
      hours: { from: '22:00', to: '06:00', days: [1, 2] },
    };
    const hits = [
      controls(everything, history).check(
        pay(1, 50_000n, { creditorOrgId: '999888777', creditorIban: 'NO8330001234567' }),
      ),
      controls(everything, history).check(
        pay(2, 100n, { creditorName: 'Bergen Bygg AS', creditorIban: 'NO8330001234567' }),
      ),
      controls({ ...everything, changedAccount: false }, history).check(
        pay(3, 100n, { creditorName: 'Ny AS', creditorIban: 'NO8330001234567' }),
      ),
    ];
    const rules = hits.flatMap((h) => h?.rules ?? []);
    for (const rule of [
      'changed-account',
      'new-account',
      'limit-line',
      'limit-file',
      'limit-debtor-day',
      'unusual-time',
    ])
      expect(rules).toContain(rule);
    for (const hit of hits) {
      const text = recorded('lineText.heldByControls', { evidence: hit!.evidenceText });
      expect(renderRecorded('en', text)).toBe(`held by payment controls: ${hit!.evidence}`);
      expect(renderRecorded('nb', text)).toMatch(/^holdt tilbake av betalingskontrollene: /);
    }
    const unusual = hits[0]!.evidenceText.find((e) => (e.values?.rule as { code?: string })?.code === 'unusual-time')!;
    // The rule in words with its code, the day spelled out.
    expect(renderRecorded('nb', unusual)).toBe(
      'Fil mottatt til uvanlig tid (unusual-time): filen kom mandag kl. 09:00 Europe/Oslo, utenfor forventet tid (mandag og tirsdag kl. 22:00–06:00)',
    );
  });

  it('settle’s words for the bank render as the English they replace; the bank’s own words stay', () => {
    const returned = messageForReturn('AC04', undefined, 3);
    expect(renderRecorded('en', returned.words!)).toBe(returned.bankText);
    expect(renderRecorded('nb', returned.words!)).toBe('Returnert av mottakerens bank');
    expect(messageForReturn('AC04', 'Konto lukket', 3).words).toBeUndefined();
    const refusal = messagesForRefusal(
      { errors: [{ field: 'paymentLines[0].creditorName', message: 'missing' }] },
      [1, 2],
    );
    const other = refusal.get(2)![0]!;
    expect(renderRecorded('en', other.words!)).toBe(other.bankText);
    const whole = messagesForRefusal({ status: 400 }, [1]).get(1)![0]!;
    expect(renderRecorded('en', whole.words!)).toBe(whole.bankText);
    expect(renderRecorded('nb', whole.words!)).toBe('Banken avviste hele bunten (banken nevnte ingen linje)');
    const said = messagesForRefusal({ status: 400, title: 'Bad Request' }, [1]).get(1)![0]!;
    expect(renderRecorded('nb', said.words!)).toBe('Bad Request (banken nevnte ingen linje)');
    // Past the first 20 named lines, how many more: one, and thousands.
    const lines = Array.from({ length: 3_000 }, (_, i) => i + 1);
    const named = (n: number) => ({
      errors: Array.from({ length: n }, (_, k) => ({ field: `paymentLines[${k}].creditorName`, message: 'missing' })),
    });
    const oneMore = messagesForRefusal(named(21), lines).get(3_000)![0]!;
    expect(renderRecorded('en', oneMore.words!)).toBe(oneMore.bankText);
    expect(oneMore.bankText).toContain(
      'line 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 1 other line (',
    );
    expect(renderRecorded('nb', oneMore.words!)).toContain('og 1 annen linje (ingenting nevnt på denne linjen)');
    const many = messagesForRefusal(named(2_500), lines).get(3_000)![0]!;
    expect(renderRecorded('en', many.words!)).toBe(many.bankText);
    expect(many.bankText).toContain(' and 2,480 other lines (');
    expect(renderRecorded('nb', many.words!)).toMatch(/ og 2\s480 andre linjer \(/);
  });

  it('a stored message without a key, or with one this settle lacks, keeps its stored words', () => {
    const old = messageForTpp({ code: 'DUPL', message: 'likely duplicate: as before' }, 1);
    expect(old.words).toBeUndefined();
    expect(recordedWords('nb', { message: 'likely duplicate: as before' })).toBe('likely duplicate: as before');
    expect(recordedWords('nb', { message: 'stored', key: 'lineText.noSuchSentence', values: {} })).toBe('stored');
    expect(
      recordedWords('nb', {
        message: 'stored',
        key: 'lineText.cancelled',
        values: { requestedBy: 'ola', reason: 'feil' },
      }),
    ).toBe('kansellert av ola: feil');
    // English readers get the stored English even when a key is there: their files do not change.
    expect(
      recordedWords('en', {
        message: 'stored',
        key: 'lineText.cancelled',
        values: { requestedBy: 'ola', reason: 'x' },
      }),
    ).toBe('stored');
  });
});
