// The accountant's report of a file's lines the bank did not pay (src/formats/report/refused-lines.tsx),
// in the reports folder and the alert e-mail. The bank's own words and what to do about its reason
// code stay as src/domain/line-message.ts says them.
import { area } from './area.js';

export const refusedLines = area({
  en: {
    'refusedLines.title': '{company}: {count, plural, other {# line(s)}} of {file} were not paid',
    'refusedLines.asOf': 'as of {asOf}',
    'refusedLines.line': 'Line {line} ({reference}), {creditor}, {amount}: {status}',
    'refusedLines.reasonLabel': "The bank's reason",
    'refusedLines.actionLabel': 'What to do',
    'refusedLines.wholeBulk': 'The bank named no line: it refused the whole bulk.',
    'refusedLines.column.line': 'Line',
    'refusedLines.column.reference': 'ERP reference',
    'refusedLines.column.creditor': 'Creditor',
    'refusedLines.column.amount': 'Amount',
    'refusedLines.column.status': 'Status',
    'refusedLines.column.reason': 'The bank’s reason',
    'refusedLines.column.action': 'What to do',
  },
  nb: {
    'refusedLines.title': '{company}: {count, plural, one {# linje} other {# linjer}} i {file} ble ikke betalt',
    'refusedLines.asOf': 'per {asOf}',
    'refusedLines.line': 'Linje {line} ({reference}), {creditor}, {amount}: {status}',
    'refusedLines.reasonLabel': 'Bankens begrunnelse',
    'refusedLines.actionLabel': 'Hva du gjør',
    'refusedLines.wholeBulk': 'Banken oppga ingen linje: den avviste hele bunten.',
    'refusedLines.column.line': 'Linje',
    'refusedLines.column.reference': 'ERP-referanse',
    'refusedLines.column.creditor': 'Kreditor',
    'refusedLines.column.amount': 'Beløp',
    'refusedLines.column.status': 'Status',
    'refusedLines.column.reason': 'Bankens begrunnelse',
    'refusedLines.column.action': 'Hva du gjør',
  },
});
