import { describe, expect, it } from 'vitest';
import { renderFindingsHtml } from '../../../src/formats/report/index.js';
import { summarise, type Finding } from '../../../src/domain/reconcile/index.js';
import { META, sampleResult } from './sample.js';

const render = () => {
  const result = sampleResult();
  return renderFindingsHtml(META, result.findings, result.summary);
};

describe('HTML report', () => {
  it('is one page with a language, a title, inline style and no scripts or external references', () => {
    const html = render();
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain(
      '<title>Reconciliation report: Acme &lt;Nordic&gt; &amp; &quot;Sons&quot;, 2026-03-01 to 2026-03-20</title>',
    );
    expect(html).toContain('<style>');
    expect(html).toContain('@media print');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|url\(|@import/i);
    // Every link stays on the page.
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^#[a-z_]+$/);
  });

  it('escapes hostile text everywhere', () => {
    const html = render();
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Quote&quot; AS');
    expect(html).toContain('SB-&lt;1&gt;');
  });

  it('shows bidirectional controls from outside as their code point, as the console does', () => {
    const result = sampleResult();
    const findings = result.findings.map((f) => ({
      ...f,
      counterparty: 'invoice\u202Efdp.exe',
      message: `${f.message} \u2066`,
    }));
    const html = renderFindingsHtml({ ...META, company: 'Acme \u202B' }, findings, result.summary);
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(html).toContain('invoice[U+202E]fdp.exe');
    expect(html).toContain('[U+2066]');
    expect(html).toContain('<h1>Reconciliation report: Acme [U+202B]</h1>');
  });

  it('puts the summary first: counts, people needed and totals by currency', () => {
    const html = render();
    const summaryAt = html.indexOf('<h2 id="summary">Summary</h2>');
    expect(summaryAt).toBeGreaterThan(0);
    expect(summaryAt).toBeLessThan(html.indexOf('<section aria-labelledby="not_booked">'));
    expect(html).toContain('need a person.</p>');
    expect(html).toMatch(
      /<th scope="row"><a href="#matched">Matched<\/a><\/th><td><span class="badge info">info<\/span><\/td><td class="num">1<\/td><td class="num">0<\/td><td class="num">1,234.50 NOK<\/td>/,
    );
    expect(html).toContain('<td class="num">70,000.00 NOK</td>');
  });

  it('folds the finding types with nothing in them away from the summary table, naming them below it', () => {
    const result = sampleResult();
    const html = renderFindingsHtml(META, result.findings, result.summary);
    const table = html.slice(
      html.indexOf('<h2 id="summary">'),
      html.indexOf('</table>', html.indexOf('<h2 id="summary">')),
    );
    const empty = result.summary.byType.filter((t) => t.count === 0);
    expect(empty.length).toBeGreaterThan(0);
    for (const t of empty) expect(table, t.type).not.toContain(`>${t.title}</th>`);
    for (const t of result.summary.byType.filter((x) => x.count > 0))
      expect(table, t.type).toContain(`href="#${t.type}"`);
    expect(html).toContain(`<details class="zero"><summary>${empty.length} finding types had nothing</summary>`);
    for (const t of empty) expect(html, t.type).toContain(`<li>${t.title}</li>`);
  });

  it('gives each finding type with findings its own captioned table with header scopes', () => {
    const html = render();
    const result = sampleResult();
    const types = new Set(result.findings.map((f) => f.type));
    expect(html.match(/<caption>/g)).toHaveLength(types.size + 1);
    for (const type of types) expect(html).toContain(`<section aria-labelledby="${type}">`);
    expect(html).toContain('<caption>Booked with a different amount: 1 finding</caption>');
    expect(html).toMatch(/<th scope="col" class="num">Difference<\/th>/);
    expect(html).toContain('<td class="num">10.00 NOK</td>');
    expect(html).not.toContain('<section aria-labelledby="statement_gap">');
  });

  it('lists informational findings up to the limit but every finding that needs a person', () => {
    const base = sampleResult().findings.find((f) => f.type === 'matched')!;
    const needing = sampleResult().findings.find((f) => f.type === 'amount_difference')!;
    const findings: Finding[] = [...Array.from({ length: 5 }, () => needing), ...Array.from({ length: 5 }, () => base)];
    const html = renderFindingsHtml(META, findings, summarise(findings), { infoRowLimit: 2 });
    expect(html).toContain('Showing the first 2 of 5; the CSV report lists every one.');
    expect(html.match(/<tr><th scope="row" class="text">E2E-p-diff<\/th>/g)).toHaveLength(5);
    expect(html.match(/<tr><th scope="row" class="text">E2E-p-ok<\/th>/g)).toHaveLength(2);
  });

  it('lists at most personRowLimit rows needing a person and acknowledged, with the exact count of each', () => {
    const needing = sampleResult().findings.find((f) => f.type === 'amount_difference')!;
    const acked: Finding = {
      ...needing,
      needsPerson: false,
      acknowledged: { kind: 'acknowledged', by: 'ola', at: new Date('2026-03-05T10:00:00Z'), reason: 'fee agreed' },
    };
    const findings: Finding[] = [
      ...Array.from({ length: 5 }, () => needing),
      ...Array.from({ length: 4 }, () => acked),
    ];
    const html = renderFindingsHtml(META, findings, summarise(findings), { personRowLimit: 3 });
    expect(html).toContain('Showing the first 3 of 5; the CSV report lists every one.');
    expect(html).toContain('Showing the first 3 of 4; the CSV report lists every one.');
    expect(html.match(/<tr><th scope="row" class="text">E2E-p-diff<\/th>/g)).toHaveLength(3);
    expect(html.match(/<td class="text">fee agreed<\/td>/g)).toHaveLength(3);
  });

  it('by default lists the first 1,000 of 30,000 findings that need a person, in a page of under a megabyte', () => {
    const needing = sampleResult().findings.find((f) => f.type === 'amount_difference')!;
    const findings: Finding[] = Array.from({ length: 30_000 }, (_, i) => ({ ...needing, id: `f-${i}` }));
    const html = renderFindingsHtml(META, findings, summarise(findings));
    expect(html).toContain('Showing the first 1000 of 30000; the CSV report lists every one.');
    expect(html.match(/<tr><th scope="row" class="text">E2E-p-diff<\/th>/g)).toHaveLength(1000);
    expect(html.length).toBeLessThan(1_000_000);
  });

  it('says plainly when nothing needs a person', () => {
    const html = renderFindingsHtml(META, [], summarise([]));
    expect(html).toContain('Nothing needs a person: 0 findings, all informational.');
  });
});
