// English: the catalogue every other language is checked against (its keys are the message keys).
// Sentences are ICU MessageFormat: {name} for a value, {count, plural, one {…} other {…}} for
// counts. Amounts and dates arrive formatted (src/i18n/format.ts), never as numbers to format here.
import type { Catalogue } from '../catalogue.js';
import { areasEnglish } from '../messages/index.js';

export const en = {
  tag: 'en',
  name: 'English',
  // British conventions: "8 Jan 2026", 24-hour times, which nobody reads wrongly.
  formatLocale: 'en-GB',
  currencyStyle: 'code-after',
  dateFormat: { day: 'numeric', month: 'short', year: 'numeric' },
  spreadsheetCsv: { delimiter: ',', decimalMark: '.', bom: false },
  messages: {
    ...areasEnglish,
    'console.skipToContent': 'Skip to content',
    'console.company': 'Company',
    'console.switchCompany': 'Switch',
    'console.signOut': 'Sign out',
    'console.signedInAs': '{name} ({roles})',
    'console.auditorRole': 'auditor',
    'console.nav': 'Console',
    'console.pages': 'pages',
    'console.firstPage': 'First page',
    'console.nextPage': 'Next page',
    'console.signedOut.title': 'Signed out',
    'console.signedOut.body': 'Your session ended. <signIn>Sign in</signIn> again; nothing was changed.',
    'console.notAllowed.title': 'Not allowed',
    'console.notAllowed.needsRole': 'This needs the role <b>{role}</b> in {company}; you have {roles}.',
    'console.notAllowed.noRole': 'You have no role in the company {company}.',
    'console.refused.title': 'Refused',
    'console.refused.csrf': 'The form was not sent from this console (no valid CSRF token); nothing was changed.',
    'nav.today': 'Today',
    'nav.approvals': 'Approvals',
    'nav.payments': 'Payments',
    'nav.files': 'Files',
    'nav.held': 'Held payments',
    'nav.bulks': 'Unknown bulks',
    'nav.cancellations': 'Cancellations',
    'nav.reconciliation': 'Reconciliation',
    'nav.statements': 'Statements',
    'nav.banks': 'Banks',
    'nav.audit': 'Audit',
    'nav.board': 'Board',
    'count.payments': '{count, plural, one {# payment} other {# payments}}',
    'count.files': '{count, plural, one {# file} other {# files}}',
    'count.findings': '{count, plural, one {# finding} other {# findings}}',
  },
} as const satisfies Catalogue;

/** The key of a sentence: every key of the English catalogue. */
export type MessageKey = keyof (typeof en)['messages'];

/** Another language: the same keys as English, no more and no fewer. */
export interface Translation extends Catalogue {
  messages: Readonly<Record<MessageKey, string>>;
}
