// The accountant's report of a payment file that was refused or partly accepted
// (src/formats/report/refused-file.tsx): what happened to the file, each problem in the file's own
// words (its column header, row and value) with what to change, the held lines, and a separate
// part for the operator with the settings advice and the technical listing.
import { area } from './area.js';

export const refusedReport = area({
  en: {
    'refusedReport.title': '{file}: what happened to the file and what to change',
    'refusedReport.outcome.rejected':
      'NOTHING FROM THIS FILE WAS SENT: no payment of it goes to the bank. Correct the problems below in the ERP, then drop the whole corrected file again.',
    'refusedReport.outcome.partial':
      'PART OF THIS FILE WAS ACCEPTED: {accepted} of {payments} payment(s) will be sent;{held, plural, =0 {} one { # of them is held for a person (listed below) and not sent until released.} other { # of them are held for a person (listed below) and not sent until released.}} the {refused} line(s) with errors below were not. Correct those lines in the ERP and send only them, in a new file: the whole file again would repeat the accepted ones.',
    'refusedReport.outcome.accepted':
      'THIS FILE WAS ACCEPTED: {accepted} of {payments} payment(s).{held, plural, =0 {} one { # of them is held for a person (listed below) and not sent until released.} other { # of them are held for a person (listed below) and not sent until released.}}',
    'refusedReport.problems': 'What to change in the file ({count, plural, one {# problem} other {# problems}})',
    'refusedReport.problemsMore':
      '… and {count, plural, one {# more problem} other {# more problems}}, not described here so that the report stays readable: {listedIn, select, listing {each is listed at the end of this output, after the technical listing, in the order found} other {the JSON report beside it ({json}) lists every problem}}.',
    'refusedReport.held': 'Held for a person ({count, plural, one {# line} other {# lines}}): not sent until released',
    'refusedReport.operator': 'For the operator (IT): settings and the technical listing',
    'refusedReport.operatorNone': 'No setting to change: the file itself must be corrected.',
    'refusedReport.column.row': 'Row',
    'refusedReport.column.column': 'Column',
    'refusedReport.column.value': 'Value',
    'refusedReport.column.problem': 'Problem',
    'refusedReport.column.fix': 'What to change',
    'refusedReport.noValue': '(empty)',
    'refusedReport.line':
      '{where}{column, select, none {} other {, column "{column}"}}{value, select, none {} other {, value "{value}"}}: {problem} What to change: {fix}',
    'refusedReport.where': '{kind, select, row {Row {row}} path {Payment {path}} other {The whole file}}',
    'refusedReport.separator':
      '{mark, select, semicolon {; (semicolon)} comma {, (comma)} tab {a tab} bar {| (vertical bar)} point {. (point)} other {{mark}}}',
    'refusedReport.delimiter':
      'This file uses {found} between columns, but the profile "{profile}" expects {expected}.',
    'refusedReport.delimiterFix':
      'Save the file again with {expected} between columns (in Excel: "CSV UTF-8 (comma delimited)"), or ask the operator for a profile with {found}.',
    'refusedReport.decimalMark':
      'This file writes amounts with {found} before the decimals, but the profile "{profile}" expects {expected}.',
    'refusedReport.decimalMarkFix':
      'Write every amount with {expected} before the decimals (as the ERP’s payment export does), or ask the operator for a profile with {found}.',
    'refusedReport.problem':
      '{code, select, IBAN_INVALID {The account number is not a valid IBAN (a typing error or a missing digit).} BIC_INVALID {The BIC (the bank’s SWIFT code) is not 8 or 11 letters and digits.} CURRENCY_INVALID {This is not a currency code one can pay in.} AMOUNT_SYNTAX {This is not an amount as the file should write it.} AMOUNT_PRECISION {The amount has more decimals than the currency has.} AMOUNT_NOT_POSITIVE {The amount must be greater than zero.} AMOUNT_ABOVE_MAXIMUM {The amount is above the largest amount allowed for one payment.} EXECUTION_DATE_INVALID {This is not a date as the file should write it.} EXECUTION_DATE_PAST {The payment date is in the past.} EXECUTION_DATE_NOT_BUSINESS_DAY {The payment date is not a banking day.} FIELD_MISSING {This value is required but empty.} NAME_MISSING {The name is required but empty.} NAME_TOO_LONG {The name is longer than 70 characters.} E2E_MISSING {The payment’s reference is required but empty.} E2E_TOO_LONG {The payment’s reference is longer than 35 characters.} E2E_DUPLICATE_IN_FILE {The same reference is used on another row of this file.} E2E_ALREADY_ACCEPTED {A payment with this reference was already accepted earlier.} REMITTANCE_TOO_LONG {The message to the creditor is longer than 140 characters.} CREDITOR_REFERENCE_INVALID {The KID or creditor reference is not valid.} CHARSET_INVALID {The value has characters the bank does not take.} DEBTOR_ACCOUNT_NOT_ONBOARDED {The company cannot pay from this account through settle.} DEBTOR_CURRENCY_MISMATCH {The account does not pay in this currency.} CSV_COLUMNS_MISSING {The file lacks columns the profile needs.} CSV_COLUMN_COUNT {The row has another number of values than the header.} other {{message}}}',
    'refusedReport.fix':
      '{code, select, IBAN_INVALID {Check the account number with the creditor and correct it in the ERP.} BIC_INVALID {Correct the BIC, or leave it empty for a Norwegian account.} CURRENCY_INVALID {Write the currency as three letters, e.g. NOK or EUR.} AMOUNT_SYNTAX {Write the amount with digits only, as the other rows do.} AMOUNT_PRECISION {Round the amount to the currency’s decimals (NOK: two).} AMOUNT_NOT_POSITIVE {Correct the amount; a credit note is settled in the ERP, not paid.} AMOUNT_ABOVE_MAXIMUM {Check the amount; if it is right, ask the operator about the limit.} EXECUTION_DATE_INVALID {Write the date as the other rows do.} EXECUTION_DATE_PAST {Set a payment date of today or later.} EXECUTION_DATE_NOT_BUSINESS_DAY {Choose a banking day, or leave it: settle moves it if so configured.} E2E_DUPLICATE_IN_FILE {Give each payment its own reference.} E2E_ALREADY_ACCEPTED {Remove the row if it was paid already; otherwise give it a new reference.} CREDITOR_REFERENCE_INVALID {Check the KID on the invoice.} CHARSET_INVALID {Replace the characters the bank does not take.} DEBTOR_ACCOUNT_NOT_ONBOARDED {Pay from one of the company’s accounts at the bank, or ask the operator.} DEBTOR_CURRENCY_MISMATCH {Pay from an account in this currency.} CSV_COLUMNS_MISSING {Export the file again with the ERP’s payment export, with its header row.} CSV_COLUMN_COUNT {Check the row for a separator inside a value, and export the file again.} other {Correct the value in the ERP and drop the file again.}}',
    'refusedReport.heldLine':
      'Row {row}, reference {reference}: {duplicate, select, yes {held as a likely duplicate} other {held by the payment controls ({rules})}}, not sent: {reason}. A person releases or drops it on the console’s page “Held payments”.',
    'refusedReport.heldMore':
      '… and {count, plural, one {# more held line} other {# more held lines}}, not listed here so that the report stays readable: the JSON report beside it ({json}) lists every held line, and so does the console’s page “Held payments”.',
    'refusedReport.field':
      '{field, select, debtorIban {debtor account} debtorName {payer} requestedExecutionDate {payment date} endToEndId {reference} amount {amount} currency {currency} creditorIban {creditor account} creditorName {creditor} creditorBic {BIC} remittanceInformation {message} creditorReference {KID} instructionPriority {priority} other {{field}}}',
  },
  nb: {
    'refusedReport.title': '{file}: hva som skjedde med filen og hva som må rettes',
    'refusedReport.outcome.rejected':
      'INGENTING FRA DENNE FILEN BLE SENDT: ingen betaling i den går til banken. Rett feilene nedenfor i ERP-systemet, og legg deretter inn hele den rettede filen på nytt.',
    'refusedReport.outcome.partial':
      'EN DEL AV FILEN BLE GODTATT: {accepted} av {payments} betalinger sendes;{held, plural, =0 {} one { # av dem er holdt tilbake for en person (se nedenfor) og sendes ikke før den frigis.} other { # av dem er holdt tilbake for en person (se nedenfor) og sendes ikke før de frigis.}} de {refused} linjene med feil nedenfor ble ikke sendt. Rett disse linjene i ERP-systemet og send bare dem, i en ny fil: hele filen på nytt ville gjenta de godtatte betalingene.',
    'refusedReport.outcome.accepted':
      'FILEN BLE GODTATT: {accepted} av {payments} betalinger.{held, plural, =0 {} one { # av dem er holdt tilbake for en person (se nedenfor) og sendes ikke før den frigis.} other { # av dem er holdt tilbake for en person (se nedenfor) og sendes ikke før de frigis.}}',
    'refusedReport.problems': 'Hva som må rettes i filen ({count, plural, one {# feil} other {# feil}})',
    'refusedReport.problemsMore':
      '… og {count, plural, one {# feil til} other {# feil til}}, som ikke er beskrevet her for at rapporten skal kunne leses: {listedIn, select, listing {hver av dem står til slutt i utskriften, etter den tekniske listen, i den rekkefølgen de ble funnet} other {JSON-rapporten ved siden av ({json}) lister hver feil}}.',
    'refusedReport.held':
      'Holdt tilbake for en person ({count, plural, one {# linje} other {# linjer}}): sendes ikke før de frigis',
    'refusedReport.operator': 'For driften (IT): innstillinger og den tekniske listen',
    'refusedReport.operatorNone': 'Ingen innstilling å endre: selve filen må rettes.',
    'refusedReport.column.row': 'Rad',
    'refusedReport.column.column': 'Kolonne',
    'refusedReport.column.value': 'Verdi',
    'refusedReport.column.problem': 'Feil',
    'refusedReport.column.fix': 'Hva du må endre',
    'refusedReport.noValue': '(tom)',
    'refusedReport.line':
      '{where}{column, select, none {} other {, kolonne «{column}»}}{value, select, none {} other {, verdi «{value}»}}: {problem} Hva du må endre: {fix}',
    'refusedReport.where': '{kind, select, row {Rad {row}} path {Betaling {path}} other {Hele filen}}',
    'refusedReport.separator':
      '{mark, select, semicolon {; (semikolon)} comma {, (komma)} tab {tabulator} bar {| (loddrett strek)} point {. (punktum)} other {{mark}}}',
    'refusedReport.delimiter':
      'Denne filen bruker {found} mellom kolonnene, men profilen «{profile}» venter {expected}.',
    'refusedReport.delimiterFix':
      'Lagre filen på nytt med {expected} mellom kolonnene (i Excel: «CSV UTF-8 (kommadelt)»), eller be driften om en profil med {found}.',
    'refusedReport.decimalMark':
      'Denne filen skriver beløp med {found} foran desimalene, men profilen «{profile}» venter {expected}.',
    'refusedReport.decimalMarkFix':
      'Skriv alle beløp med {expected} foran desimalene (slik ERP-systemets betalingseksport gjør), eller be driften om en profil med {found}.',
    'refusedReport.problem':
      '{code, select, IBAN_INVALID {Kontonummeret er ikke et gyldig IBAN (en skrivefeil eller et siffer som mangler).} BIC_INVALID {BIC (bankens SWIFT-kode) er ikke 8 eller 11 bokstaver og sifre.} CURRENCY_INVALID {Dette er ikke en valutakode det kan betales i.} AMOUNT_SYNTAX {Dette er ikke et beløp slik filen skal skrive det.} AMOUNT_PRECISION {Beløpet har flere desimaler enn valutaen har.} AMOUNT_NOT_POSITIVE {Beløpet må være større enn null.} AMOUNT_ABOVE_MAXIMUM {Beløpet er over det største beløpet som er tillatt for én betaling.} EXECUTION_DATE_INVALID {Dette er ikke en dato slik filen skal skrive den.} EXECUTION_DATE_PAST {Forfallsdatoen er passert.} EXECUTION_DATE_NOT_BUSINESS_DAY {Forfallsdatoen er ikke en bankdag.} FIELD_MISSING {Verdien må fylles ut, men er tom.} NAME_MISSING {Navnet må fylles ut, men er tomt.} NAME_TOO_LONG {Navnet er lengre enn 70 tegn.} E2E_MISSING {Betalingens referanse må fylles ut, men er tom.} E2E_TOO_LONG {Betalingens referanse er lengre enn 35 tegn.} E2E_DUPLICATE_IN_FILE {Den samme referansen brukes på en annen rad i filen.} E2E_ALREADY_ACCEPTED {En betaling med denne referansen er allerede godtatt tidligere.} REMITTANCE_TOO_LONG {Remitteringen til kreditor er lengre enn 140 tegn.} CREDITOR_REFERENCE_INVALID {KID-en eller kreditorreferansen er ikke gyldig.} CHARSET_INVALID {Verdien har tegn banken ikke tar imot.} DEBTOR_ACCOUNT_NOT_ONBOARDED {Selskapet kan ikke betale fra denne kontoen gjennom settle.} DEBTOR_CURRENCY_MISMATCH {Kontoen betaler ikke i denne valutaen.} CSV_COLUMNS_MISSING {Filen mangler kolonner profilen trenger.} CSV_COLUMN_COUNT {Raden har et annet antall verdier enn overskriftsraden.} other {{message}}}',
    'refusedReport.fix':
      '{code, select, IBAN_INVALID {Sjekk kontonummeret med kreditor og rett det i ERP-systemet.} BIC_INVALID {Rett BIC, eller la den stå tom for en norsk konto.} CURRENCY_INVALID {Skriv valutaen med tre bokstaver, f.eks. NOK eller EUR.} AMOUNT_SYNTAX {Skriv beløpet bare med sifre, slik de andre radene gjør.} AMOUNT_PRECISION {Rund av beløpet til valutaens desimaler (NOK: to).} AMOUNT_NOT_POSITIVE {Rett beløpet; en kreditnota gjøres opp i ERP-systemet, den betales ikke.} AMOUNT_ABOVE_MAXIMUM {Sjekk beløpet; er det riktig, spør driften om grensen.} EXECUTION_DATE_INVALID {Skriv datoen slik de andre radene gjør.} EXECUTION_DATE_PAST {Sett en forfallsdato i dag eller senere.} EXECUTION_DATE_NOT_BUSINESS_DAY {Velg en bankdag, eller la den stå: settle flytter den hvis det er satt opp slik.} E2E_DUPLICATE_IN_FILE {Gi hver betaling sin egen referanse.} E2E_ALREADY_ACCEPTED {Fjern raden hvis den allerede er betalt; ellers gi den en ny referanse.} CREDITOR_REFERENCE_INVALID {Sjekk KID-en på fakturaen.} CHARSET_INVALID {Bytt ut tegnene banken ikke tar imot.} DEBTOR_ACCOUNT_NOT_ONBOARDED {Betal fra en av selskapets kontoer i banken, eller spør driften.} DEBTOR_CURRENCY_MISMATCH {Betal fra en konto i denne valutaen.} CSV_COLUMNS_MISSING {Eksporter filen på nytt med ERP-systemets betalingseksport, med overskriftsraden.} CSV_COLUMN_COUNT {Se etter et skilletegn inne i en verdi, og eksporter filen på nytt.} other {Rett verdien i ERP-systemet og legg inn filen på nytt.}}',
    'refusedReport.heldLine':
      'Rad {row}, referanse {reference}: {duplicate, select, yes {holdt tilbake som en mulig dobbeltbetaling} other {holdt tilbake av betalingskontrollene ({rules})}}, ikke sendt: {reason}. En person frigir eller forkaster den i konsollet, på siden for tilbakeholdte betalinger.',
    'refusedReport.heldMore':
      '… og {count, plural, one {# tilbakeholdt linje til} other {# tilbakeholdte linjer til}}, som ikke er listet her for at rapporten skal kunne leses: JSON-rapporten ved siden av ({json}) lister hver tilbakeholdte linje, og det gjør også konsollets side for tilbakeholdte betalinger.',
    'refusedReport.field':
      '{field, select, debtorIban {belastningskonto} debtorName {betaler} requestedExecutionDate {forfallsdato} endToEndId {referanse} amount {beløp} currency {valuta} creditorIban {kreditors konto} creditorName {kreditor} creditorBic {BIC} remittanceInformation {remittering} creditorReference {KID} instructionPriority {prioritet} other {{field}}}',
  },
});
