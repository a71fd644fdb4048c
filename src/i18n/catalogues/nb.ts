// Norsk bokmål, for regnskapsførere: the words their ERPs and banks use (betaling, remittering,
// avstemming, kreditor, forfallsdato, KID). Every key of the English catalogue, no more.
import type { Translation } from './en.js';

export const nb = {
  tag: 'nb',
  name: 'Norsk bokmål',
  formatLocale: 'nb-NO',
  // "08.01.2026", as Norwegian banks, ERPs and Excel write a date.
  currencyStyle: 'language',
  dateFormat: { day: '2-digit', month: '2-digit', year: 'numeric' },
  // Norwegian Excel opens ";"-separated files with decimal commas, and needs the BOM to read UTF-8.
  spreadsheetCsv: { delimiter: ';', decimalMark: ',', bom: true },
  messages: {
    'console.skipToContent': 'Gå til innholdet',
    'console.company': 'Selskap',
    'console.switchCompany': 'Bytt',
    'console.signOut': 'Logg ut',
    'console.signedInAs': '{name} ({roles})',
    'console.auditorRole': 'revisor',
    'console.nav': 'Konsoll',
    'console.pages': 'sider',
    'console.firstPage': 'Første side',
    'console.nextPage': 'Neste side',
    'console.signedOut.title': 'Logget ut',
    'console.signedOut.body': 'Økten din er avsluttet. <signIn>Logg inn</signIn> igjen; ingenting ble endret.',
    'console.notAllowed.title': 'Ikke tillatt',
    'console.notAllowed.needsRole': 'Dette krever rollen <b>{role}</b> i {company}; du har {roles}.',
    'console.notAllowed.noRole': 'Du har ingen rolle i selskapet {company}.',
    'console.refused.title': 'Avvist',
    'console.refused.csrf':
      'Skjemaet ble ikke sendt fra denne konsollen (ingen gyldig CSRF-nøkkel); ingenting ble endret.',
    'nav.today': 'I dag',
    'nav.approvals': 'Godkjenninger',
    'nav.payments': 'Betalinger',
    'nav.files': 'Filer',
    'nav.held': 'Holdte betalinger',
    'nav.bulks': 'Ukjente bunter',
    'nav.cancellations': 'Kanselleringer',
    'nav.reconciliation': 'Avstemming',
    'nav.statements': 'Kontoutskrifter',
    'nav.banks': 'Banker',
    'nav.audit': 'Revisjonslogg',
    'nav.board': 'Oversikt',
    'count.payments': '{count, plural, one {# betaling} other {# betalinger}}',
    'count.files': '{count, plural, one {# fil} other {# filer}}',
    'count.findings': '{count, plural, one {# avvik} other {# avvik}}',
    'notice.approval.subject': 'Betalinger fra {company} venter på din godkjenning',
    'notice.approval.waiting': 'Betalinger fra {company} venter på godkjenning i banken.',
    'notice.approval.approveHere': 'Godkjenn dem her (en person med signaturrett for selskapet og kontoene):',
    'notice.approval.linkOnce': 'Lenken virker ÉN gang og utløper {expires}.',
    'notice.approval.doNotForward':
      'Når du åpner den, starter identitetskontrollen; ikke videresend den, og ikke åpne den bare for å «ta en titt».',
    'notice.approval.reissued':
      'Utløper den eller brukes uten at godkjenningen fullføres, lager settle en ny ved neste kjøring.',
    'notice.approval.linkWentTo':
      'Godkjenningslenken ble sendt til {to, select, email {godkjennerne på e-post} folder {godkjennernes mappe {folder}} both {godkjennerne på e-post og godkjennernes mappe {folder}} none {ingen ennå (verken e-post til godkjennere eller godkjenningsmappe er satt opp; en operatør skriver den ut med `settle approvals list --link`)} other {godkjennerne}}; den virker én gang og utløper {expires}.',
    'notice.approval.noLinkHere':
      'Denne kopien har ikke lenken: spør en godkjenner, eller se docs/runbook.md hvis ingen har fått den.',
    'notice.approval.basket': 'Signeringskurv: {basket}',
    'notice.approval.approversNeeded':
      'Godkjennere banken fortsatt trenger: {needed, select, unknown {ikke oppgitt av banken} other {{needed}}}',
    'notice.approval.paymentCount': 'Betalinger: {count}',
    'notice.approval.totals': 'Sum per belastningskonto:',
    'notice.approval.payments': 'Betalinger:',
    'notice.approval.column.debtorAccount': 'Belastningskonto',
    'notice.approval.column.currency': 'Valuta',
    'notice.approval.column.payments': 'Betalinger',
    'notice.approval.column.amount': 'Beløp',
    'notice.approval.column.creditor': 'Kreditor',
    'notice.approval.column.account': 'Konto',
    'notice.approval.column.executionDate': 'Forfallsdato',
    'notice.approval.column.reference': 'Referanse i ERP',
    'notice.approval.payrollHidden':
      '{count, plural, one {# lønnsbetaling er med i summene over; den vises bare for personer med lønnsrollen.} other {# lønnsbetalinger er med i summene over; de vises bare for personer med lønnsrollen.}}',
    'notice.approval.released':
      'Holdt tilbake av settles betalingskontroller og frigitt av en person (docs/controls.md):',
    'notice.approval.releasedLine':
      '{reference} ({creditor}, {account}): holdt tilbake av {rules}, frigitt av {releasers, plural, =0 {en person} other {{people}}}',
  },
} as const satisfies Translation;
