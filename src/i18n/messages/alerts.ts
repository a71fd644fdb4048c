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
  },
});
