// The approval notice (jobs/approve/approval-notice.ts): its copies and the approvers' e-mail.
import { area } from './area.js';

export const notice = area({
  en: {
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
  nb: {
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
      'Godkjenninger banken fortsatt krever: {needed, select, unknown {ikke oppgitt av banken} other {{needed}}}',
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
});
