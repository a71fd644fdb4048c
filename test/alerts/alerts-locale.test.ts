// The alert mails in the reader's language, through a real SMTP conversation: a finding of a
// company with `locale: nb` in bokmål, the run summary in the install's language, and the log
// line of the run summary in English whatever the language (log lines stay language-neutral).
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import { AlertService, EmailNotifier, alertKey, MemoryAlertLedger, type AlertSubject } from '../../src/alerts/index.js';
import { readableMail, startSmtpSink, type SmtpSink } from './smtp-sink.js';

const finding: AlertSubject = {
  kind: 'file-rejected',
  key: alertKey('file-rejected', 'acme:abc123'),
  title: 'acme: payment file pay-0107.csv rejected',
  text: 'The file pay-0107.csv was rejected: 2 errors.',
  company: 'acme',
};

describe('alerts in the company’s and the install’s language', () => {
  let smtp: SmtpSink;
  beforeEach(async () => {
    smtp = await startSmtpSink();
  });
  afterEach(async () => {
    await smtp.close();
  });

  it('frames an alert about a bokmål company and the run summary of a bokmål install in bokmål', async () => {
    const notifier = new EmailNotifier({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      from: 'settle@example.com',
      to: ['ops@example.com'],
      timeoutMs: 3000,
    });
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      format: 'json',
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const asked: (string | undefined)[] = [];
    const service = new AlertService({
      notifiers: [notifier],
      ledger: new MemoryAlertLedger(),
      logger,
      localeOf: (company) => {
        asked.push(company);
        return 'nb';
      },
      timeZoneOf: () => 'Europe/Oslo',
    });
    await service.runFinished({
      job: 'nightly',
      runId: 'run-1',
      startedAt: new Date('2026-01-07T01:00:00Z'),
      finishedAt: new Date('2026-01-07T01:00:12.5Z'),
      outcome: 'findings',
      counts: { 'files accepted': 3, 'payments not paid': 2, 'noe nytt': 1 },
      findings: [finding],
    });
    await notifier.close();
    expect(asked).toEqual([undefined, 'acme']);
    expect(smtp.messages).toHaveLength(2);
    const [summary, alert] = smtp.messages.map((m) => readableMail(m.data));
    expect(summary).toMatch(/^Subject: \[settle\] nightly findings: 1 trenger oppfølging\r?$/m);
    // The start in the install's zone and the counts in words, as the language writes them.
    expect(summary).toContain('startet 07.01.2026, 02:00, tok 12,5 s');
    expect(summary).toContain('filer godtatt: 3, betalinger ikke utført: 2, noe nytt: 1');
    expect(summary).toContain('Trenger oppfølging (1):');
    expect(alert).toContain('Type: file-rejected');
    expect(alert).toContain('Selskap: acme');
    expect(alert).not.toContain('See docs/runbook.md');
    // The log line of the run keeps English.
    expect(lines.join('')).toContain('took 12.5 s');
    expect(lines.join('')).not.toContain('tok 12,5 s');
  });
});
