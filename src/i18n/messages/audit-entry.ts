// An audit entry as the console's audit trail shows it (src/server/console/pages/audit.tsx): the
// action it records in words (`auditEntry.action.<action>`, the code beside it in a language other
// than English, where the code alone is shown as it always was), and the reasons settle itself
// gives, recorded with the entry as recorded text (src/domain/audit-reason.ts). The English
// reasons here must render exactly the English the trail stores (test/i18n/history-cause.test.ts).
import { area } from './area.js';

export const auditEntry = area({
  en: {
    'auditEntry.actionWithCode': '{words} ({code})',
    'auditEntry.action.console': 'console action',
    'auditEntry.action.console.refused': 'refused console actions',
    'auditEntry.action.console.sign-in.refused': 'sign-in refused',
    'auditEntry.action.approval.link_shown': 'approval link shown',
    'auditEntry.action.bulk.resolve': 'bulk resolved by a person',
    'auditEntry.action.controls.load': 'payment controls loaded',
    'auditEntry.action.finding.reopen': 'finding reopened',
    'auditEntry.action.finding.acknowledge': 'finding acknowledged',
    'auditEntry.action.finding.confirm': 'proposal confirmed',
    'auditEntry.action.finding.reject': 'proposal rejected',
    'auditEntry.action.finding.assign': 'finding assigned',
    'auditEntry.action.finding.unassign': 'finding unassigned',
    'auditEntry.action.payment.release': 'payment released',
    'auditEntry.action.payment.release.first': 'payment released once (a second release is needed)',
    'auditEntry.action.payment.drop': 'payment dropped',
    'auditEntry.action.payment.cancel.request': 'cancellation requested',
    'auditEntry.action.payment.cancel.confirm': 'cancellation confirmed',
    'auditEntry.action.payment.cancel.decline': 'cancellation declined',
    'auditEntry.action.payment.cancel.refused': 'cancellation refused',
    'auditEntry.action.payment.cancel': 'payment cancelled',
    'auditEntry.action.period.signoff': 'period signed off',
    'auditEntry.action.period.reopen': 'period reopened',
    'auditEntry.reason.controlsFirstLoad': 'first load of the payment controls',
    'auditEntry.reason.controlsChanged': 'the payment controls changed since the last load',
    'auditEntry.reason.signInLockout':
      'too many failed sign-ins for this {by, select, user {user name} other {address}}',
    'auditEntry.reason.refusedInMinute':
      'refused {count, plural, one {# time} other {# times}} in the minute from {minute}: needs the role {needed}',
  },
  nb: {
    'auditEntry.actionWithCode': '{words} ({code})',
    'auditEntry.action.console': 'handling i konsollen',
    'auditEntry.action.console.refused': 'avviste handlinger i konsollen',
    'auditEntry.action.console.sign-in.refused': 'innlogging avvist',
    'auditEntry.action.approval.link_shown': 'godkjenningslenke vist',
    'auditEntry.action.bulk.resolve': 'bunt avklart av en person',
    'auditEntry.action.controls.load': 'betalingskontroller lastet',
    'auditEntry.action.finding.reopen': 'avvik gjenåpnet',
    'auditEntry.action.finding.acknowledge': 'avvik kvittert ut',
    'auditEntry.action.finding.confirm': 'forslag bekreftet',
    'auditEntry.action.finding.reject': 'forslag avvist',
    'auditEntry.action.finding.assign': 'avvik tildelt',
    'auditEntry.action.finding.unassign': 'tildeling av avvik fjernet',
    'auditEntry.action.payment.release': 'betaling frigitt',
    'auditEntry.action.payment.release.first': 'betaling frigitt én gang (en ny frigivelse trengs)',
    'auditEntry.action.payment.drop': 'betaling avvist',
    'auditEntry.action.payment.cancel.request': 'kansellering bedt om',
    'auditEntry.action.payment.cancel.confirm': 'kansellering bekreftet',
    'auditEntry.action.payment.cancel.decline': 'kansellering avslått',
    'auditEntry.action.payment.cancel.refused': 'kansellering avvist',
    'auditEntry.action.payment.cancel': 'betaling kansellert',
    'auditEntry.action.period.signoff': 'periode avsluttet',
    'auditEntry.action.period.reopen': 'periode gjenåpnet',
    'auditEntry.reason.controlsFirstLoad': 'første innlasting av betalingskontrollene',
    'auditEntry.reason.controlsChanged': 'betalingskontrollene er endret siden forrige innlasting',
    'auditEntry.reason.signInLockout':
      'for mange mislykkede innlogginger for {by, select, user {dette brukernavnet} other {denne adressen}}',
    'auditEntry.reason.refusedInMinute':
      'avvist {count, plural, one {# gang} other {# ganger}} i minuttet fra {minute}: krever rollen {needed}',
  },
});
