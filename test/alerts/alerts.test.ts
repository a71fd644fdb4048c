import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { isSettleError } from '../../src/domain/errors.js';
import { createLogger, Secret, silentLogger } from '../../src/log/index.js';
import {
  AlertService,
  EmailNotifier,
  alertKey,
  MemoryAlertLedger,
  renderRunSummary,
  WebhookNotifier,
  type AlertSubject,
  type RunSummary,
} from '../../src/alerts/index.js';
import { startHttpSink, type HttpSink } from './http-sink.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

const rejected: AlertSubject = {
  kind: 'file-rejected',
  key: alertKey('file-rejected', 'acme:abc123'),
  title: 'acme: payment file pay-0107.csv rejected',
  text: 'The file pay-0107.csv was rejected: 2 errors. See error/pay-0107.csv.errors.txt.',
  company: 'acme',
  data: { file: 'pay-0107.csv' },
};

function summary(overrides: Partial<RunSummary> = {}): RunSummary {
  return {
    job: 'nightly',
    runId: 'run-1',
    startedAt: new Date('2026-01-07T01:00:00Z'),
    finishedAt: new Date('2026-01-07T01:00:12.5Z'),
    outcome: 'findings',
    counts: { 'files accepted': 3, 'files rejected': 1, 'files duplicate': 0 },
    findings: [rejected],
    ...overrides,
  };
}

describe('alert channels', () => {
  let smtp: SmtpSink;
  let http: HttpSink;
  beforeEach(async () => {
    smtp = await startSmtpSink();
    http = await startHttpSink();
  });
  afterEach(async () => {
    await smtp.close();
    await http.close();
  });

  const email = (password?: string) =>
    new EmailNotifier({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      username: 'alerts',
      password: password === undefined ? undefined : new Secret(password),
      from: 'settle@example.com',
      to: ['ops@example.com', 'finance@example.com'],
      timeoutMs: 3000,
    });

  it('sends an alert e-mail over SMTP with login, subject and text to every recipient', async () => {
    const notifier = email('smtp-pass-123');
    await new AlertService({ notifiers: [notifier], ledger: new MemoryAlertLedger(), logger: silentLogger() }).raise([
      rejected,
    ]);
    await notifier.close();
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.from).toBe('settle@example.com');
    expect(mail.to).toEqual(['ops@example.com', 'finance@example.com']);
    expect(mail.auth).toEqual({ user: 'alerts', pass: 'smtp-pass-123' });
    expect(mail.data).toMatch(/^Subject: \[settle\] acme: payment file pay-0107\.csv rejected/m);
    expect(mail.data).toContain('pay-0107.csv was rejected');
    expect(mail.data).toMatch(/^X-Settle-Alert: finding/m);
  });

  it('reports an SMTP refusal as ERR_ALERT_EMAIL_FAILED without the password', async () => {
    smtp.failWith = '550 5.7.1 relaying denied';
    const notifier = email('smtp-pass-456');
    const error: unknown = await notifier
      .send({ type: 'finding', subject: 's', text: 't', payload: {} })
      .catch((e: unknown) => e);
    await notifier.close();
    expect(isSettleError(error, 'ERR_ALERT_EMAIL_FAILED')).toBe(true);
    expect((error as Error).message).toContain('relaying denied');
    expect((error as Error).message).not.toContain('smtp-pass-456');
  });

  it('posts an alert as JSON with the configured Authorization header', async () => {
    const notifier = new WebhookNotifier({
      url: `${http.url}/hooks/settle`,
      authorization: new Secret('Bearer hook-token-1'),
    });
    await notifier.send({
      type: 'finding',
      subject: '[settle] x',
      text: 'body',
      payload: { kind: 'file-rejected', key: 'k1' },
    });
    expect(http.requests).toHaveLength(1);
    const req = http.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hooks/settle');
    expect(req.headers.authorization).toBe('Bearer hook-token-1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toMatchObject({
      type: 'finding',
      subject: '[settle] x',
      kind: 'file-rejected',
      key: 'k1',
    });
  });

  it('reports a non-2xx webhook answer as ERR_ALERT_WEBHOOK_FAILED naming the status but not the query or token', async () => {
    http.status = 500;
    const notifier = new WebhookNotifier({
      url: `${http.url}/hooks?token=abc`,
      authorization: new Secret('Bearer hook-token-2'),
    });
    const error: unknown = await notifier
      .send({ type: 'finding', subject: 's', text: 't', payload: {} })
      .catch((e: unknown) => e);
    expect(isSettleError(error, 'ERR_ALERT_WEBHOOK_FAILED')).toBe(true);
    expect((error as Error).message).toContain('HTTP 500');
    expect((error as Error).message).not.toMatch(/token=abc|hook-token-2/);
  });

  it('sends each alert subject once per channel, however many runs raise it', async () => {
    const ledger = new MemoryAlertLedger();
    const notifiers = [email(), new WebhookNotifier({ url: http.url })];
    const service = new AlertService({ notifiers, ledger, logger: silentLogger() });
    const first = await service.raise([rejected, rejected]);
    const second = await service.raise([rejected]);
    await service.close();
    expect(first).toEqual({ sent: 2, alreadySent: 0, failed: 0 });
    expect(second).toEqual({ sent: 0, alreadySent: 2, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
    expect(http.requests).toHaveLength(1);
  });

  it('retries a failed channel on the next run without repeating the channels that worked', async () => {
    const ledger = new MemoryAlertLedger();
    http.status = 503;
    const service = new AlertService({
      notifiers: [email(), new WebhookNotifier({ url: http.url })],
      ledger,
      logger: silentLogger(),
    });
    expect(await service.raise([rejected])).toEqual({ sent: 1, alreadySent: 0, failed: 1 });
    http.status = 200;
    expect(await service.raise([rejected])).toEqual({ sent: 1, alreadySent: 1, failed: 0 });
    await service.close();
    expect(smtp.messages).toHaveLength(1);
    expect(http.requests).toHaveLength(2);
  });

  it('mails the nightly run summary and raises what needs a person, but only logs the summary of other jobs', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) });
    const notifier = email();
    const service = new AlertService({
      notifiers: [notifier],
      ledger: new MemoryAlertLedger(),
      logger: createLogger({ format: 'json', stream }),
    });
    await service.runFinished(summary({ job: 'status', findings: [] }));
    expect(smtp.messages).toHaveLength(0);
    await service.runFinished(summary());
    await service.close();
    expect(smtp.messages.map((m) => /^Subject: (.*)$/m.exec(m.data)?.[1])).toEqual([
      '[settle] nightly findings: 1 need(s) a person',
      '[settle] acme: payment file pay-0107.csv rejected',
    ]);
    const logged = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.message === 'run summary');
    expect(logged.map((l) => [l.job, l.level])).toEqual([
      ['status', 'warn'],
      ['nightly', 'warn'],
    ]);
  });
});

describe('run summary text', () => {
  it('names the outcome, the duration, every non-zero count and what needs a person', () => {
    const text = renderRunSummary(summary());
    expect(text).toBe(
      [
        'settle nightly run run-1: FINDINGS',
        'started 2026-01-07T01:00:00.000Z, took 12.5 s',
        'files accepted: 3, files rejected: 1',
        '',
        'Needs a person (1):',
        '- acme: payment file pay-0107.csv rejected',
        '',
      ].join('\n'),
    );
  });

  it('says so when a run had nothing to do, and gives the code of a failure', () => {
    const text = renderRunSummary(
      summary({
        outcome: 'failed',
        counts: {},
        findings: [],
        error: { code: 'ERR_DB_CONNECT', message: 'Cannot open the database' },
      }),
    );
    expect(text).toContain('nothing to do');
    expect(text).toContain('failed: ERR_DB_CONNECT: Cannot open the database');
  });
});
