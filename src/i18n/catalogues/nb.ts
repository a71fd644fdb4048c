// Norsk bokmål, for regnskapsførere: the words their ERPs and banks use (betaling, remittering,
// avstemming, kreditor, forfallsdato, KID). Every key of the English catalogue, no more.
import { areasBokmal } from '../messages/index.js';
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
    ...areasBokmal,
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
  },
} as const satisfies Translation;
