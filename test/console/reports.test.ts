// Reports in the console over real HTTP: a report is opened only by the id recorded when it was
// written, within the person's company, and sent from the recorded content (HTML and text open
// in the browser under a sandboxing policy, CSV downloads);
// path traversal names, file names, unknown ids and another company's ids are refused.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportEntry } from '../../src/store/index.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

describe('console reports', () => {
  let f: ConsoleFixture;
  let fileId: string;
  let error: ReportEntry;
  let acmeHtml: ReportEntry;
  let betaHtml: ReportEntry;
  const HOSTILE_REPORT = '<html><script>alert(1)</script></html>';

  beforeAll(async () => {
    f = await startConsoleFixture();
    const store = f.app.store;
    // A file in the install's folder that a traversal would try to reach.
    await writeFile(join(f.dir, 'secret.txt'), 'not for the console');
    const file = await store.files.recordRejectedFile(
      {
        company: 'acme',
        fileName: 'bad.csv',
        sha256: 'd'.repeat(64),
        format: 'csv:generic',
        sizeBytes: 10,
        receivedAt: new Date('2026-01-05T07:00:00Z'),
      },
      '1 error',
      { lineCount: 2, rejectedCount: 2 },
    );
    fileId = file.id;
    error = await store.reports.record({
      company: 'acme',
      kind: 'error',
      subject: { type: 'payment_file', id: file.id },
      name: 'bad.csv.errors.txt',
      mediaType: 'text/plain',
      content: 'row 3: amount has too many decimals',
    });
    const run = (company: string) =>
      store.reports.record({
        company,
        kind: 'reconciliation',
        subject: { type: 'reconcile_run', id: 'run-1' },
        name: `reconciliation-${company}-2026-01-05.html`,
        mediaType: 'text/html',
        content: HOSTILE_REPORT,
      });
    acmeHtml = await run('acme');
    betaHtml = await run('beta');
  }, 60_000);
  afterAll(async () => f?.close());

  it("links a file's error report by its recorded id and opens the recorded content in the browser, sandboxed", async () => {
    const vera = new Client(f.base);
    await vera.signIn('vera', PASSWORDS.vera);
    const page = await (await vera.request(`/console/files/${fileId}?company=acme`)).text();
    const href = `/console/reports/${error.id}?company=acme`;
    expect(page).toContain(`href="${href}"`);
    expect(page).not.toContain('error/bad.csv');
    const report = await vera.request(href);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-disposition')).toBe('inline; filename="bad.csv.errors.txt"');
    expect(report.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(report.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(report.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await report.text()).toBe('row 3: amount has too many decimals');
  });

  it('refuses path traversal names, file names and unknown ids with a 404, reading no file', async () => {
    const vera = new Client(f.base);
    await vera.signIn('vera', PASSWORDS.vera);
    for (const id of [
      '..%2F..%2Fsecret.txt',
      '%2e%2e%2f%2e%2e%2fsecret.txt',
      '..%5C..%5Csecret.txt',
      'bad.csv.errors.txt',
      '%2Fetc%2Fpasswd',
      `${error.id}%00.txt`,
      '00000000-0000-7000-8000-000000000000',
    ]) {
      const answer = await vera.request(`/console/reports/${id}?company=acme`);
      expect(answer.status, id).toBe(404);
      const body = await answer.text();
      expect(body, id).not.toContain('not for the console');
      expect(answer.headers.get('content-disposition'), id).toBeNull();
    }
    // Unencoded dots are resolved by the URL before they reach the console: still no report.
    const dotted = await vera.request('/console/reports/../../secret.txt?company=acme');
    expect(await dotted.text()).not.toContain('not for the console');
  });

  it("refuses another company's report id, and a reconciliation report to a viewer", async () => {
    const olga = new Client(f.base);
    await olga.signIn('olga', PASSWORDS.olga);
    // Olga is operator of both companies: Beta's id under ACME is unknown there.
    expect((await olga.request(`/console/reports/${betaHtml.id}?company=acme`)).status).toBe(404);
    const own = await olga.request(`/console/reports/${betaHtml.id}?company=beta`);
    expect(own.status).toBe(200);
    // HTML opens in the browser, in a sandbox: no script runs, nothing loads, no cookie is sent.
    expect(own.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(own.headers.get('content-security-policy')).toMatch(
      /^sandbox; default-src 'none'; style-src 'unsafe-inline';/,
    );
    expect(await own.text()).toBe(HOSTILE_REPORT);
    const recon = await (await olga.request('/console/reconciliation?company=acme')).text();
    expect(recon).toContain(`href="/console/reports/${acmeHtml.id}?company=acme"`);
    expect(recon).not.toContain(betaHtml.id);

    const vera = new Client(f.base);
    await vera.signIn('vera', PASSWORDS.vera);
    expect((await vera.request(`/console/reports/${betaHtml.id}?company=beta`)).status).toBe(403);
    expect((await vera.request(`/console/reports/${acmeHtml.id}?company=acme`)).status).toBe(403);
  });

  it('sends a report recorded in several parts whole, with æøå and emoji across the parts', async () => {
    // 3 MB of text: a dozen parts of the store's 256 Ki code units (migration 0765).
    const line = (i: number) => `linje ${i}: beløpet på ${i} kr er for blåbærsyltetøy 🧾😀${'x'.repeat(i % 3)}\n`;
    const content = Array.from({ length: 40_000 }, (_, i) => line(i)).join('');
    const big = await f.app.store.reports.record({
      company: 'acme',
      kind: 'error',
      subject: { type: 'payment_file', id: fileId },
      name: 'big.csv.errors.txt',
      mediaType: 'text/plain',
      content,
    });
    const vera = new Client(f.base);
    await vera.signIn('vera', PASSWORDS.vera);
    const report = await vera.request(`/console/reports/${big.id}?company=acme`);
    expect(report.status).toBe(200);
    const body = await report.text();
    expect(body.length).toBe(content.length);
    expect(body === content).toBe(true);
  });
});
