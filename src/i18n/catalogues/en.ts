// English: the catalogue every other language is checked against (its keys are the message keys).
// Sentences are ICU MessageFormat: {name} for a value, {count, plural, one {…} other {…}} for
// counts. Amounts and dates arrive formatted (src/i18n/format.ts), never as numbers to format here.
import type { Catalogue } from '../catalogue.js';

export const en = {
  tag: 'en',
  name: 'English',
  // British conventions: "8 Jan 2026", 24-hour times, which nobody reads wrongly.
  formatLocale: 'en-GB',
  currencyStyle: 'code-after',
  dateFormat: { day: 'numeric', month: 'short', year: 'numeric' },
  spreadsheetCsv: { delimiter: ',', decimalMark: '.', bom: false },
  messages: {
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
    'nav.held': 'Held duplicates',
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
    // The approval notice (jobs/payments/approval-notice.ts): its copies and the approvers' e-mail.
    'notice.approval.subject': 'Payments of {company} wait for your approval',
    'notice.approval.waiting': 'Payments of {company} are waiting for approval at the bank.',
    'notice.approval.approveHere':
      'Approve them here (a person with signing authority for the company and the accounts):',
    'notice.approval.linkOnce': 'The link works ONCE and expires {expires}.',
    'notice.approval.doNotForward':
      'Opening it starts the identity check; do not forward it, and do not open it to "have a look".',
    'notice.approval.reissued': 'If it expires or is used without completing, settle issues a new one on its next run.',
    'notice.approval.linkWentTo':
      "The approval link went to {to, select, email {the approvers by e-mail} folder {the approvers' folder {folder}} both {the approvers by e-mail and the approvers' folder {folder}} none {no one yet (no approver e-mail or approvals folder is configured; an operator prints it with `settle approvals list --link`)} other {the approvers}}; it works once and expires {expires}.",
    'notice.approval.noLinkHere':
      'This copy does not hold it: ask an approver, or see docs/runbook.md if none received it.',
    'notice.approval.basket': 'Signing basket: {basket}',
    'notice.approval.approversNeeded':
      'Approvers the bank still needs: {needed, select, unknown {not given by the bank} other {{needed}}}',
    'notice.approval.paymentCount': 'Payments: {count}',
    'notice.approval.totals': 'Totals per debtor account:',
    'notice.approval.payments': 'Payments:',
    'notice.approval.column.debtorAccount': 'Debtor account',
    'notice.approval.column.currency': 'Currency',
    'notice.approval.column.payments': 'Payments',
    'notice.approval.column.amount': 'Amount',
    'notice.approval.column.creditor': 'Creditor',
    'notice.approval.column.account': 'Account',
    'notice.approval.column.executionDate': 'Execution date',
    'notice.approval.column.reference': 'ERP reference',
    'notice.approval.payrollHidden':
      '{count, plural, other {# payroll payment(s) are counted in the totals above; they are listed only for people with the payroll role.}}',
    'notice.approval.released': 'Held by settle’s payment controls and released by a person (docs/controls.md):',
    'notice.approval.releasedLine':
      '{reference} ({creditor}, {account}): held by {rules}, released by {releasers, plural, =0 {a person} other {{people}}}',
  },
} as const satisfies Catalogue;

/** The key of a sentence: every key of the English catalogue. */
export type MessageKey = keyof (typeof en)['messages'];

/** Another language: the same keys as English, no more and no fewer. */
export interface Translation extends Catalogue {
  messages: Readonly<Record<MessageKey, string>>;
}
