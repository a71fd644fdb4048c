// The accountant's report of a file's refused lines: one row a message, the line's facts
// spanning them, and every outside text (names, the bank's words) escaped by the engine, with
// bidirectional controls shown as their code point.
import { describe, expect, it } from 'vitest';
import { actionFor, type LineMessage } from '../../../src/domain/line-message.js';
import { renderRefusedLinesHtml, renderRefusedLinesText } from '../../../src/formats/report/index.js';

const message = (code: string, bankText: string, action: string) => ({ code, bankText, action }) as LineMessage;

const REPORT = {
  company: 'Acme <AS>',
  fileName: 'pay\u202Efdp.exe.csv',
  asOf: '2026-01-08 04:00 GMT+1',
  lines: [
    {
      lineNumber: 3,
      endToEndId: 'E2E-3',
      creditorName: '<script>alert(1)</script> "Q" & \'R\'',
      amount: '845.00',
      currency: 'NOK',
      status: 'RJCT',
      messages: [
        message('AC04', 'Closed account number', 'Ask the creditor for the new account.'),
        message('AM05', 'Duplicate (the bank named no line)', 'Check <whether> it was paid.'),
      ],
    },
  ],
};

describe('refused lines report', () => {
  it('is one page, the line spanning its messages, every outside text escaped', () => {
    const html = renderRefusedLinesHtml(REPORT);
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<title>Acme &lt;AS&gt;: 1 line(s) of pay[U+202E]fdp.exe.csv were not paid</title>');
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/\u202E/);
    expect(html).toContain(
      '<td rowspan="2">&lt;script&gt;alert(1)&lt;/script&gt; &quot;Q&quot; &amp; &#39;R&#39;</td>',
    );
    expect(html).toContain('<td rowspan="2" class="num">845.00 NOK</td>');
    expect(html.match(/<tr>/g)).toHaveLength(3);
    expect(html).toContain(
      '<td>AM05: Duplicate The bank named no line: it refused the whole bulk.</td><td>Check &lt;whether&gt; it was paid.</td>',
    );
  });

  it('says the same in plain text', () => {
    const text = renderRefusedLinesText(REPORT);
    expect(text).toContain('Line 3 (E2E-3), <script>alert(1)</script> "Q" & \'R\', 845.00 NOK: RJCT');
    expect(text).toContain("  The bank's reason: AC04: Closed account number");
    expect(text).toContain('  What to do:        Ask the creditor for the new account.');
  });

  it('speaks the company’s language: bokmål words, money as bokmål writes it, the labels aligned', () => {
    const nb = { ...REPORT, locale: 'nb' as const };
    const text = renderRefusedLinesText(nb).replace(/[\u00a0\u202f]/g, ' ');
    expect(text.split('\n')[0]).toBe('Acme <AS>: 1 linje i pay\u202Efdp.exe.csv ble ikke betalt');
    expect(text).toContain('per 2026-01-08 04:00 GMT+1');
    expect(text).toContain('Linje 3 (E2E-3), <script>alert(1)</script> "Q" & \'R\', 845,00 kr: RJCT');
    expect(text).toContain('  Bankens begrunnelse: AC04: Closed account number');
    expect(text).toContain('  Hva du gjør:         Ask the creditor for the new account.');
    expect(text).toContain('AM05: Duplicate Banken oppga ingen linje: den avviste hele bunten.');
    const html = renderRefusedLinesHtml(nb);
    expect(html.startsWith('<!doctype html>\n<html lang="nb">')).toBe(true);
    expect(html).toContain('<th>Bankens begrunnelse</th><th>Hva du gjør</th>');
    expect(html).not.toMatch(/ERP reference|What to do|were not paid/);
  });

  it('says what to do about a reason code in the company’s language, and in English as recorded', () => {
    const line = { ...REPORT.lines[0]!, messages: [message('AC04', 'Closed account number', actionFor('AC04'))] };
    const text = (locale: 'en' | 'nb') =>
      renderRefusedLinesText({ ...REPORT, lines: [line], locale }).replace(/[\u00a0\u202f]/g, ' ');
    expect(text('nb')).toContain(
      '  Hva du gjør:         Kontoen er avsluttet: be kreditor om nytt kontonummer og send betalingen i en ny fil.',
    );
    expect(text('en')).toContain(actionFor('AC04'));
    expect(renderRefusedLinesHtml({ ...REPORT, lines: [line], locale: 'nb' })).toContain(
      '<td>Kontoen er avsluttet: be kreditor om nytt kontonummer og send betalingen i en ny fil.</td>',
    );
  });
});
