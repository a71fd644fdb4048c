// The frame of the alerts settle sends (src/notify/run-summary.ts): the run summary mail and each
// finding's mail, in the install's `locale` (a finding of one company in that company's). The
// log line of a run summary stays English, as every log line does.
import { area } from './area.js';

export const alerts = area({
  en: {
    'alerts.summary.subject': '[settle] {job} {outcome}{count, plural, =0 {} other {: {count} need(s) a person}}',
    'alerts.summary.headline': 'settle {job} run {runId}: {outcome}',
    'alerts.summary.started': 'started {at}, took {seconds} s',
    'alerts.summary.nothing': 'nothing to do',
    'alerts.summary.failed': 'failed: {code}: {message}',
    'alerts.summary.needsPerson': 'Needs a person ({count}):',
    'alerts.finding.subject': '[settle] {title}',
    'alerts.finding.kind': 'Kind: {kind}',
    'alerts.finding.key': 'Key: {key}',
    'alerts.finding.company': 'Company: {company}',
    'alerts.finding.runbook': 'See docs/runbook.md for what to do.',
    'alerts.fileRefused.title': '{company}: payment file {file} refused, left in the inbox unread',
    'alerts.fileRefused.text': '{message}\n({code}; docs/errors.md says what to do.)',
    'alerts.fileRejected.title': '{company}: payment file {file} {how, select, other {{outcome}}}',
    'alerts.fileRejected.text':
      'The payment file {file} of {company} was {how, select, other {{outcome}}}. It is now in {movedTo}{report, select, none {} other {; the reasons are in {report}}}.\nCorrect the file in the ERP and drop the corrected file into the inbox (docs/runbook.md, "A file is rejected").',
    'alerts.linesNotPaid.title': '{company}: {count} line(s) of {file} were not paid',
  },
  nb: {
    'alerts.summary.subject':
      '[settle] {job} {outcome}{count, plural, =0 {} one {: {count} trenger en person} other {: {count} trenger en person}}',
    'alerts.summary.headline': 'settle {job} kjøring {runId}: {outcome}',
    'alerts.summary.started': 'startet {at}, tok {seconds} s',
    'alerts.summary.nothing': 'ingenting å gjøre',
    'alerts.summary.failed': 'feilet: {code}: {message}',
    'alerts.summary.needsPerson': 'Trenger en person ({count}):',
    'alerts.finding.subject': '[settle] {title}',
    'alerts.finding.kind': 'Type: {kind}',
    'alerts.finding.key': 'Nøkkel: {key}',
    'alerts.finding.company': 'Selskap: {company}',
    'alerts.finding.runbook': 'Se docs/runbook.md for hva du gjør.',
    'alerts.fileRefused.title': '{company}: betalingsfilen {file} ble avvist og ligger ulest i innboksen',
    'alerts.fileRefused.text': '{message}\n({code}; docs/errors.md sier hva du gjør.)',
    'alerts.fileRejected.title':
      '{company}: betalingsfilen {file} {how, select, rejected {ble avvist} partially_accepted {ble delvis godtatt} duplicate {var en dublett} other {{outcome}}}',
    'alerts.fileRejected.text':
      'Betalingsfilen {file} fra {company} {how, select, rejected {ble avvist} partially_accepted {ble delvis godtatt} duplicate {var en dublett} other {{outcome}}}. Den ligger nå i {movedTo}{report, select, none {} other {; årsakene står i {report}}}.\nRett filen i ERP-systemet og legg den rettede filen i innboksen (docs/runbook.md, «A file is rejected»).',
    'alerts.linesNotPaid.title': '{company}: {count} linje(r) i {file} ble ikke betalt',
  },
});
