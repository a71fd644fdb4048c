// The accountant's report of a file, rendered alone: a pain.001 problem is placed at its
// transaction and element, a problem of the whole file has no row, warnings stay out of the
// accountant's part, and every value from the file is escaped in the HTML.
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/domain/issue.js';
import { renderRefusedFileHtml, renderRefusedFileText } from '../../../src/formats/report/index.js';

const TX = '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[2]';
const issues: Issue[] = [
  {
    code: 'IBAN_INVALID',
    severity: 'error',
    location: { path: `${TX}/CdtrAcct/Id/IBAN` },
    field: 'creditorIban',
    value: 'NO06<b>1200',
    message: 'IBAN "NO06<b>1200" fails the mod-97 check digit test',
  },
  { code: 'NBOFTXS_MISMATCH', severity: 'error', location: {}, message: 'NbOfTxs says 3; the file has 2' },
  {
    code: 'CHARSET_TRANSLITERATED',
    severity: 'warning',
    location: { path: `${TX}/Cdtr/Nm` },
    field: 'creditorName',
    message: 'transliterated',
  },
];
const report = {
  fileName: 'suppliers.xml',
  outcome: { kind: 'rejected' as const, payments: 2, accepted: 0, held: 0 },
  issues,
  held: [],
  listing: 'suppliers.xml: INVALID',
  locale: 'en' as const,
};

describe("the accountant's report of a file", () => {
  it('places a pain.001 problem at its transaction and element, and a whole-file problem without a row', () => {
    const text = renderRefusedFileText(report);
    expect(text).toContain('What to change in the file (2 problems)');
    expect(text).toContain(
      'Payment PmtInf[1]/CdtTrfTxInf[2], column "CdtrAcct/Id/IBAN", value "NO06<b>1200": The account number is not a valid IBAN',
    );
    expect(text).toContain('The whole file: NbOfTxs says 3; the file has 2 What to change:');
    expect(text.split('For the operator (IT)')[0]).not.toContain('transliterated');
  });

  it('escapes every value from the file in the HTML', () => {
    const html = renderRefusedFileHtml(report);
    expect(html).not.toContain('<b>1200');
    expect(html).toContain('<td data-label="Value">NO06&lt;b&gt;1200</td>');
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
  });

  it('counts the problems past those described and says where every one is, in the report’s language', () => {
    const listing = { ...report, problemsNotDescribed: { count: 1234, listedIn: 'listing' as const } };
    const json = {
      ...report,
      locale: 'nb' as const,
      problemsNotDescribed: { count: 1, listedIn: 'json' as const, jsonName: 'suppliers.xml.errors.json' },
    };
    const en = renderRefusedFileText(listing);
    expect(en).toContain('What to change in the file (1,236 problems)');
    expect(en).toContain(
      '\n  … and 1,234 more problems, not described here so that the report stays readable: each is listed at the end of this output, after the technical listing, in the order found.\n',
    );
    const nb = renderRefusedFileText(json);
    expect(nb).toContain('Hva som må rettes i filen (3 feil)');
    expect(nb).toContain(
      '\n  … og 1 feil til, som ikke er beskrevet her for at rapporten skal kunne leses: JSON-rapporten ved siden av (suppliers.xml.errors.json) lister hver feil.\n',
    );
    expect(renderRefusedFileHtml(json)).toContain(
      '<p>… og 1 feil til, som ikke er beskrevet her for at rapporten skal kunne leses: JSON-rapporten ved siden av (suppliers.xml.errors.json) lister hver feil.</p>',
    );
    // Only warnings kept, errors past them: the count and the sentence still, and no empty table.
    const warningsKept = { ...json, issues: issues.filter((i) => i.severity === 'warning') };
    expect(renderRefusedFileText(warningsKept)).toContain('Hva som må rettes i filen (1 feil)\n  … og 1 feil til');
    expect(renderRefusedFileHtml(warningsKept)).not.toContain('<table>');
  });
});
