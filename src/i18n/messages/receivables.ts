// A file of open receivables that cannot be read (src/formats/receivables/read.ts): the report in
// the error folder (company's language) and `settle validate FILE` with a receivables profile
// (the CLI's language rule). The English is what settle always wrote; `--json` keeps it.
import { area } from './area.js';

export const receivables = area({
  en: {
    'receivables.notCsv':
      'the file is not readable as CSV with the profile "{profile}" ({detail}); check the delimiter and quotes',
    'receivables.empty': 'the file is empty: it has no header line',
    'receivables.missingColumns':
      'the header lacks the column(s) {columns} that profile "{profile}" expects; export the file with these columns or adjust the profile',
    'receivables.fieldCount':
      'the line has {fields} fields where the header has {header}; a delimiter inside an unquoted value?',
    'receivables.invoiceEmpty': 'the invoice number is empty; every receivable needs its invoice number',
    'receivables.invoiceLong': 'the invoice number is longer than 64 characters',
    'receivables.invoiceTwice': 'invoice {invoice} is listed twice (also on line {line}); list it once',
    'receivables.customerEmpty': "the customer's name is empty; it is needed to match payments without a reference",
    'receivables.customerLong': "the customer's name is longer than 140 characters",
    'receivables.currency': '"{currency}" is not a currency code such as NOK or EUR',
    'receivables.amountSyntax': '"{text}" is not a decimal amount',
    'receivables.amountPrecision':
      '"{text}" has {decimals, plural, one {# decimal} other {# decimals}}; {currency} has {exponent, select, 0 {none} other {{exponent}}}',
    'receivables.notPositive': 'the amount {amount} is not positive; a receivable is what the customer owes',
    'receivables.dueDate': '"{text}" is not a date written as {format}',
    'receivables.reference':
      '"{text}" is neither a KID (digits) nor an RF reference; leave it empty if the invoice has none',
    'receivables.checkDigits': 'the check digits of {kind} "{text}" do not hold; correct the reference in the ERP',
    'receivables.none': 'the file lists no receivables (only a header)',
    'receivables.report.head': '{file}: not imported; correct these lines and drop the file again.',
    'receivables.report.line': 'line {line}: {message}',
    'receivables.report.lineColumn': 'line {line}, column "{column}": {message}',
    'receivables.valid': '{file}: valid — {count} open receivable(s), read with receivables profile "{profile}"',
  },
  nb: {
    'receivables.notCsv':
      'filen kan ikke leses som CSV med profilen «{profile}» ({detail}); kontroller skilletegn og anførselstegn',
    'receivables.empty': 'filen er tom: den har ingen overskriftslinje',
    'receivables.missingColumns':
      'overskriften mangler kolonnen(e) {columns} som profilen «{profile}» venter; eksporter filen med disse kolonnene eller juster profilen',
    'receivables.fieldCount':
      'linjen har {fields} felt der overskriften har {header}; et skilletegn inne i en verdi uten anførselstegn?',
    'receivables.invoiceEmpty': 'fakturanummeret er tomt; hver fordring trenger sitt fakturanummer',
    'receivables.invoiceLong': 'fakturanummeret er lengre enn 64 tegn',
    'receivables.invoiceTwice': 'faktura {invoice} står to ganger (også på linje {line}); før den opp én gang',
    'receivables.customerEmpty': 'kundens navn er tomt; det trengs for å avstemme betalinger uten referanse',
    'receivables.customerLong': 'kundens navn er lengre enn 140 tegn',
    'receivables.currency': '«{currency}» er ikke en valutakode som NOK eller EUR',
    'receivables.amountSyntax': '«{text}» er ikke et desimalbeløp',
    'receivables.amountPrecision':
      '«{text}» har {decimals, plural, one {# desimal} other {# desimaler}}; {currency} har {exponent, select, 0 {ingen} other {{exponent}}}',
    'receivables.notPositive': 'beløpet {amount} er ikke positivt; en fordring er det kunden skylder',
    'receivables.dueDate': '«{text}» er ikke en dato skrevet som {format}',
    'receivables.reference':
      '«{text}» er verken en KID (sifre) eller en RF-referanse; la feltet stå tomt hvis fakturaen ikke har noen',
    'receivables.checkDigits': 'kontrollsifrene i {kind} «{text}» stemmer ikke; rett referansen i ERP-systemet',
    'receivables.none': 'filen har ingen fordringer (bare en overskrift)',
    'receivables.report.head': '{file}: ikke lest inn; rett disse linjene og legg filen inn igjen.',
    'receivables.report.line': 'linje {line}: {message}',
    'receivables.report.lineColumn': 'linje {line}, kolonne «{column}»: {message}',
    'receivables.valid': '{file}: gyldig — {count} åpne fordring(er), lest med fordringsprofilen «{profile}»',
  },
});
