// The audit trail (src/server/console/pages/audit.tsx): its entries and the chain's verification.
import { area } from './area.js';

export const audit = area({
  en: {
    'audit.title': 'Audit trail',
    'audit.scope.all': 'Every entry of the install, those about no company too (you are an auditor).',
    'audit.scope.company': "The entries about {company}. The chain verified below is the install's one chain.",
    'audit.verifyAll': 'Verify everything',
    'audit.checkpoint': 'Record a verified checkpoint',
    'audit.caption': 'Audit trail entries',
    'audit.column.when': 'When',
    'audit.column.who': 'Who',
    'audit.column.what': 'What',
    'audit.column.subject': 'Subject',
    'audit.column.reason': 'Reason',
    'audit.column.origin': 'From where',
    'audit.column.hash': 'Hash',
    'audit.empty': 'The audit trail is empty.',
    'audit.older': 'Older entries',
    'audit.newest': 'Newest entries',
    'audit.fromCheckpoint':
      'Verified from checkpoint {seq} (recorded {at}); the entries before it were verified when it was recorded — “Verify everything” walks them again.',
    'audit.fromFirst': 'Verified from the first entry.',
    'audit.holds':
      'The chain holds: {count, plural, one {# entry} other {# entries}}, each following the one before{shown, select, yes {, and every entry shown here holds} other {}}; head <head></head>',
    'audit.broken':
      'The chain is broken at entry {entry}: {problem}. Restore the audit trail from a backup and find out who changed the database.',
    'audit.verified.title': 'Audit trail verified from the first entry',
    'audit.back': 'Back to the audit trail',
    'audit.notRecorded.title': 'Not recorded',
    'audit.notRecorded.body': 'The chain is broken at entry {entry}; no checkpoint is recorded on a broken chain.',
  },
  nb: {
    'audit.title': 'Revisjonslogg',
    'audit.scope.all': 'Alle oppføringer i installasjonen, også de som ikke gjelder et selskap (du er revisor).',
    'audit.scope.company': 'Oppføringene om {company}. Kjeden som kontrolleres nedenfor, er installasjonens ene kjede.',
    'audit.verifyAll': 'Kontroller alt',
    'audit.checkpoint': 'Registrer et kontrollert sjekkpunkt',
    'audit.caption': 'Oppføringer i revisjonsloggen',
    'audit.column.when': 'Når',
    'audit.column.who': 'Hvem',
    'audit.column.what': 'Hva',
    'audit.column.subject': 'Gjelder',
    'audit.column.reason': 'Begrunnelse',
    'audit.column.origin': 'Hvorfra',
    'audit.column.hash': 'Hash',
    'audit.empty': 'Revisjonsloggen er tom.',
    'audit.older': 'Eldre oppføringer',
    'audit.newest': 'Nyeste oppføringer',
    'audit.fromCheckpoint':
      'Kontrollert fra sjekkpunkt {seq} (registrert {at}); oppføringene før det ble kontrollert da det ble registrert — «Kontroller alt» går gjennom dem på nytt.',
    'audit.fromFirst': 'Kontrollert fra første oppføring.',
    'audit.holds':
      'Kjeden er hel: {count, plural, one {# oppføring} other {# oppføringer}}, hver etter den forrige{shown, select, yes {, og hver oppføring som vises her, er hel} other {}}; siste hash <head></head>',
    'audit.broken':
      'Kjeden er brutt ved oppføring {entry}: {problem}. Gjenopprett revisjonsloggen fra en sikkerhetskopi, og finn ut hvem som endret databasen.',
    'audit.verified.title': 'Revisjonsloggen kontrollert fra første oppføring',
    'audit.back': 'Tilbake til revisjonsloggen',
    'audit.notRecorded.title': 'Ikke registrert',
    'audit.notRecorded.body':
      'Kjeden er brutt ved oppføring {entry}; det registreres ikke sjekkpunkt på en brutt kjede.',
  },
});
