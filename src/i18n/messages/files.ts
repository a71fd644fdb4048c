// The console's payment file page (src/server/console/pages/files.tsx): its error report section.
import { area } from './area.js';

export const files = area({
  en: {
    'files.errorReport': 'Error report',
    'files.openReport': 'Open the error report (every problem, with its row and what to change)',
    'files.summaryOnly': 'The first problems (the full report is in the company’s error folder):',
    'files.rejectedOrHeld':
      '{count, plural, one {# line was rejected or held.} other {# lines were rejected or held.}}',
    'files.inErrorFolder': 'Their report is in the company’s error folder.',
    'files.allReports': 'Every report about this file:',
    'files.noAcceptedLines': 'No line of this file was accepted: nothing of it goes to the bank.',
  },
  nb: {
    'files.errorReport': 'Feilrapport',
    'files.openReport': 'Åpne feilrapporten (hver feil, med rad og hva som må endres)',
    'files.summaryOnly': 'De første feilene (hele rapporten ligger i selskapets feilmappe):',
    'files.rejectedOrHeld':
      '{count, plural, one {# linje ble avvist eller holdt tilbake.} other {# linjer ble avvist eller holdt tilbake.}}',
    'files.inErrorFolder': 'Rapporten ligger i selskapets feilmappe.',
    'files.allReports': 'Alle rapporter om denne filen:',
    'files.noAcceptedLines': 'Ingen linje i denne filen ble godtatt: ingenting fra den går til banken.',
  },
});
