// A recorded report is sent as its parts are read, over real HTTP on SQLite and on MariaDB: a
// reconciliation report of a big night is tens of MB and a bureau's console serves many people,
// so the console never holds a report whole. The first bytes leave before the last part is read;
// a reader who stops reading stops the reading of parts (back-pressure); a report deleted while
// it is sent aborts the response (never a short body that ends like a whole one) and is logged;
// a report of no parts and one recorded before the parts are sent as before, a HEAD reads no
// part, and a part missing from the start is the console's error page with no download header.
// The recorded size goes out as the Content-Length, so a browser shows the progress and knows a
// cut download for one; a report purged between its row and its first part is a 404.
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findingsCsvForPeople, renderFindingsCsv } from '../../src/formats/report/index.js';
import { createLogger } from '../../src/log/index.js';
import type { ReportInput } from '../../src/store/index.js';
import { REPORT_PART_UNITS } from '../../src/store/reports.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';
import { sampleResult } from '../formats/report/sample.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const engines: { name: string; mariadb: boolean }[] = [{ name: 'SQLite', mariadb: false }];
if (await mariaDbForTests()) engines.push({ name: 'MariaDB', mariadb: true });

const MB = 1024 * 1024;

/** ASCII lines of about `bytes`, numbered, so a part out of place or missing shows. */
function bigText(bytes: number): string {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = `row ${i}: amount ${i * 7} NOK has too many decimals\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

function errorReport(name: string, content: string): ReportInput {
  return {
    company: 'acme',
    kind: 'error',
    subject: { type: 'payment_file', id: 'file-1' },
    name,
    mediaType: 'text/plain',
    content,
  };
}

/** Reads a fetch body chunk by chunk, so a test can stop reading and go on. */
function chunks(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async first(): Promise<string> {
      const { value } = await reader.read();
      text += decoder.decode(value, { stream: true });
      return text;
    },
    async rest(): Promise<string> {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text + decoder.decode();
        text += decoder.decode(value, { stream: true });
      }
    },
  };
}

describe.each(engines)('a recorded report sent while its parts are read, on $name', ({ mariadb }) => {
  let f: ConsoleFixture;
  let throwaway: ThrowawayDatabase | undefined;
  const logged: string[] = [];
  /** SELECTs of report_parts since the last reset: how far the reading of a report has got. */
  let partReads = 0;

  beforeAll(async () => {
    if (mariadb) throwaway = await createThrowawayDatabase();
    const stream = new Writable({ write: (chunk: Buffer, _enc, done) => (logged.push(chunk.toString()), done()) });
    f = await startConsoleFixture({
      logger: createLogger({ format: 'json', level: 'debug', stream }),
      ...(throwaway ? { databaseUrl: throwaway.url } : {}),
    });
    f.app.db.knex.on('query', (q: { sql: string }) => {
      if (/^\s*select/i.test(q.sql) && q.sql.includes('report_parts')) partReads++;
    });
  }, 120_000);
  afterAll(async () => {
    await f?.close();
    await throwaway?.drop();
  });

  async function signedIn(user: keyof typeof PASSWORDS, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client(f.base, headers);
    expect((await client.signIn(user, PASSWORDS[user])).status).toBe(303);
    return client;
  }

  it(
    'sends the first bytes before the last part is read, and reads no further than the reader takes',
    { timeout: 120_000 },
    async () => {
      // 48 MB: 192 parts of 256 KiB, far more than the sockets between server and client buffer.
      const content = bigText(48 * MB);
      const report = await f.app.store.reports.record(errorReport('big.csv.errors.txt', content));
      const vera = await signedIn('vera');
      partReads = 0;
      const response = await vera.request(`/console/reports/${report.id}?company=acme`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe('inline; filename="big.csv.errors.txt"');
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
      expect(response.headers.get('content-length')).toBe(String(content.length));
      expect(response.headers.get('transfer-encoding')).toBeNull();
      const body = chunks(response);
      expect(content.startsWith(await body.first())).toBe(true);
      const atFirstBytes = partReads;
      // The reader stops: the server stops reading parts once the sockets' buffers are full.
      await sleep(500);
      const whilePaused = partReads;
      const whole = await body.rest();
      expect(whole.length).toBe(content.length);
      expect(whole === content).toBe(true);
      const all = partReads;
      // 193 parts, 8 a query until one finds fewer.
      expect(all).toBe(Math.floor(Math.ceil(content.length / REPORT_PART_UNITS) / 8) + 1);
      expect(atFirstBytes).toBeLessThan(all / 4);
      expect(whilePaused).toBeLessThan(all / 2);
    },
  );

  it(
    'aborts the response, and logs why, when the report is deleted while it is sent',
    { timeout: 120_000 },
    async () => {
      const content = bigText(48 * MB);
      const report = await f.app.store.reports.record(errorReport('gone.csv.errors.txt', content));
      const vera = await signedIn('vera');
      const response = await vera.request(`/console/reports/${report.id}?company=acme`);
      expect(response.status).toBe(200);
      const body = chunks(response);
      await body.first();
      // As retention deletes a report: its parts, then the report, in one transaction.
      await f.app.db.transaction(async (trx) => {
        await trx('report_parts').where({ report_id: report.id }).delete();
        await trx('reports').where({ id: report.id }).delete();
      });
      // Never a body that ends like a whole one: the connection is cut before the last chunk.
      const ending = await body.rest().then(
        () => 'ended',
        () => 'aborted',
      );
      expect(ending).toBe('aborted');
      await expect.poll(() => logged.join('')).toContain(`report ${report.id} was deleted while it was read`);
      const line = JSON.parse(logged.find((l) => l.includes(`report ${report.id} was deleted`))!) as Record<
        string,
        unknown
      >;
      expect(line).toMatchObject({
        level: 'error',
        message: 'console request failed',
        path: `/console/reports/${report.id}`,
      });
    },
  );

  it('sends a report of no parts empty, one recorded before the parts from its row, no part to a HEAD, and the error page for a part missing from the start', async () => {
    const empty = await f.app.store.reports.record(errorReport('empty.errors.txt', ''));
    await f.app.db.knex('reports').insert({
      id: 'before-parts',
      company: 'acme',
      kind: 'error',
      subject_type: 'payment_file',
      subject_id: 'file-1',
      name: 'old.errors.txt',
      media_type: 'text/plain',
      content: 'Linje 3: beløpet mangler 😀\n',
      created_at: '2026-01-01T06:00:00.000Z',
    });
    const vera = await signedIn('vera');
    const none = await vera.request(`/console/reports/${empty.id}?company=acme`);
    expect(none.status).toBe(200);
    expect(none.headers.get('content-disposition')).toBe('inline; filename="empty.errors.txt"');
    expect(await none.text()).toBe('');
    const old = await vera.request('/console/reports/before-parts?company=acme');
    expect(old.status).toBe(200);
    expect(old.headers.get('content-length')).toBe(String(Buffer.byteLength('Linje 3: beløpet mangler 😀\n')));
    expect(await old.text()).toBe('Linje 3: beløpet mangler 😀\n');
    // A HEAD answers the headers and reads no part for a body it does not send.
    const partedText = bigText(REPORT_PART_UNITS * 3);
    const parted = await f.app.store.reports.record(errorReport('parted.errors.txt', partedText));
    partReads = 0;
    const head = await vera.request(`/console/reports/${parted.id}?company=acme`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-disposition')).toBe('inline; filename="parted.errors.txt"');
    expect(head.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(String(partedText.length));
    expect(partReads).toBe(0);
    // A part missing before the first byte: the console's error page, as when the report was read whole.
    await f.app.db.knex('report_parts').where({ report_id: parted.id, part: 0 }).delete();
    const broken = await vera.request(`/console/reports/${parted.id}?company=acme`);
    expect(broken.status).toBe(500);
    expect(broken.headers.get('content-disposition')).toBeNull();
    expect(await broken.text()).toContain('<html');
    await expect.poll(() => logged.join('')).toContain(`report ${parted.id} is missing its parts: part 0 of`);
    const missing = await vera.request('/console/reports/no-such-report?company=acme');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-disposition')).toBeNull();
    expect(await missing.text()).toContain('<html');
  });

  it('sends the size in UTF-8 as the Content-Length, and a 404 for a report purged between its row and its first part', async () => {
    // Two parts, letters of two and four bytes of UTF-8: the length in bytes, not in characters.
    const content = `${'Beløp mangler på linje 7 😀\n'.repeat(Math.ceil((REPORT_PART_UNITS * 1.5) / 28))}`;
    const report = await f.app.store.reports.record(errorReport('utf8.errors.txt', content));
    const vera = await signedIn('vera');
    const whole = await vera.request(`/console/reports/${report.id}?company=acme`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(Buffer.byteLength(content, 'utf8')));
    expect(await whole.text()).toBe(content);
    // Retention purges the report after the page has read its row and before the first part.
    const purged = await f.app.store.reports.record(errorReport('purged.errors.txt', content));
    const open = f.app.store.reports.open.bind(f.app.store.reports);
    f.app.store.reports.open = async (company, id) => {
      const found = await open(company, id);
      await f.app.db.transaction(async (trx) => {
        await trx('report_parts').where({ report_id: id }).delete();
        await trx('reports').where({ id }).delete();
      });
      return found;
    };
    try {
      const gone = await vera.request(`/console/reports/${purged.id}?company=acme`);
      expect(gone.status).toBe(404);
      expect(gone.headers.get('content-disposition')).toBeNull();
      expect(gone.headers.get('content-length')).not.toBe(String(Buffer.byteLength(content, 'utf8')));
      expect(await gone.text()).toContain('<html');
    } finally {
      f.app.store.reports.open = open;
    }
  });

  it('sends a reconciliation CSV in bokmål made as its parts are read, the same as made whole', async () => {
    // Thousands of findings: several parts, and rows cut by the parts' boundaries.
    const one = sampleResult().findings;
    const findings = Array.from({ length: 12_000 }, (_, i) => ({ ...one[i % one.length]!, id: `F-${i}` }));
    const machine = renderFindingsCsv(findings);
    expect(machine.length).toBeGreaterThan(3 * REPORT_PART_UNITS);
    const report = await f.app.store.reports.record({
      company: 'acme',
      kind: 'reconciliation',
      subject: { type: 'reconcile_run', id: 'run-1' },
      name: 'reconciliation-acme-2026-01-05.csv',
      mediaType: 'text/csv',
      content: machine,
    });
    const olga = await signedIn('olga', { 'accept-language': 'nb' });
    const response = await olga.request(`/console/reports/${report.id}?company=acme`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="reconciliation-acme-2026-01-05.csv"',
    );
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const body = await response.text();
    // fetch's text() drops the BOM; the bytes hold it.
    expect('\ufeff' + body === findingsCsvForPeople(machine, 'nb')).toBe(true);
  });
});
