// A finding's alert in its company's language (docs/i18n.md): the mail's subject and text come
// from the catalogue in bokmål for a bokmål company; in English they stay the sentences settle
// always sent, and the webhook payload keeps the English title and text (programs read it).
import { describe, expect, it } from 'vitest';
import type { NightlyResult } from '../../jobs/nightly/index.js';
import { nightlySummary } from '../../src/main/alerts.js';
import { alertMessage } from '../../src/alerts/run-summary.js';

const at = new Date('2026-01-08T03:00:00Z');

function night(picked: unknown[]): NightlyResult {
  return { runId: 'run-1', steps: [], picked, statusReports: [], exitCode: 1 } as unknown as NightlyResult;
}

describe('an alert in the company language', () => {
  const rejected = night([
    {
      company: 'acme',
      name: 'pay.csv',
      outcome: 'rejected',
      movedTo: 'error/pay.csv',
      report: 'error/pay.csv.errors.txt',
      sha256: 'ab12',
    },
  ]);
  const [finding] = nightlySummary(rejected, at, at).findings;

  it('reads in bokmål for a bokmål company', () => {
    const mail = alertMessage(finding!, 'nb');
    expect(mail.subject).toBe('[settle] acme: betalingsfilen pay.csv ble avvist');
    expect(mail.text).toContain(
      'Betalingsfilen pay.csv fra acme ble avvist. Den ligger nå i error/pay.csv; årsakene står i error/pay.csv.errors.txt.\nRett filen i ERP-systemet',
    );
    expect(mail.text).toContain('Type: file-rejected');
    expect(mail.text).not.toMatch(/payment file|was rejected/);
    // The webhook's payload is for programs: the English title and text, as always.
    expect(mail.payload.title).toBe('acme: payment file pay.csv rejected');
  });

  it('keeps the English it always sent, byte for byte', () => {
    const mail = alertMessage(finding!, 'en');
    expect(mail.subject).toBe('[settle] acme: payment file pay.csv rejected');
    expect(mail.text.split('\n').slice(0, 2)).toEqual([
      'The payment file pay.csv of acme was rejected. It is now in error/pay.csv; the reasons are in error/pay.csv.errors.txt.',
      'Correct the file in the ERP and drop the corrected file into the inbox (docs/runbook.md, "A file is rejected").',
    ]);
  });

  it('a refused file and a file without a report read in bokmål too', () => {
    const [refused, plain] = nightlySummary(
      night([
        {
          company: 'acme',
          name: 'x.xml',
          outcome: 'refused',
          refused: { code: 'ERR_INTAKE_NOT_PAIN001', message: 'x.xml is a camt.053' },
        },
        { company: 'acme', name: 'dup.csv', outcome: 'duplicate', movedTo: 'error/dup.csv' },
      ]),
      at,
      at,
    ).findings;
    expect(alertMessage(refused!, 'nb').subject).toBe(
      '[settle] acme: betalingsfilen x.xml ble avvist og ligger ulest i innboksen',
    );
    expect(alertMessage(refused!, 'nb').text).toContain(
      'x.xml is a camt.053\n(ERR_INTAKE_NOT_PAIN001; docs/errors.md sier hva du gjør.)',
    );
    expect(alertMessage(plain!, 'nb').text).toContain(
      'Betalingsfilen dup.csv fra acme var en dublett. Den ligger nå i error/dup.csv.\n',
    );
    // A finding recorded without sentences (an older settle's) keeps its English.
    const { words: _words, ...old } = plain!;
    expect(alertMessage(old, 'nb').subject).toBe('[settle] acme: payment file dup.csv duplicate');
  });
});
