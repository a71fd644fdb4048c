// The alerts settle sends (src/alerts/run-summary.ts): the run summary mail, each alert's mail
// with its frame, and every alert subject's own title and text (src/main/alerts.ts, deadlines.ts,
// src/server/attention-scan.ts, scheduler.ts), in the install's `locale` (an alert about one
// company in that company's). The log line and the webhook's payload stay English.
import { area } from './area.js';

export const alerts = area({
  en: {
    'alerts.summary.subject': '[settle] {job} {outcome}{count, plural, =0 {} other {: {count} need(s) a person}}',
    'alerts.summary.headline': 'settle {job} run {runId}: {outcome}',
    'alerts.summary.started': 'started {at}, took {seconds} s',
    'alerts.summary.nothing': 'nothing to do',
    'alerts.summary.count': '{what, select, other {{label}}}: {n}',
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
    'alerts.linesNotPaid.title': '{company}: {count, plural, other {# line(s)}} of {file} were not paid',
    'alerts.linesNotPaid.trailer':
      "{report, select, none {} other {The same list is in {report} (and .html beside it).\n}}The ERP's status {count, plural, one {file} other {files}}: {paths}.",
    'alerts.unknown.title':
      '{company}: outcome of {count, plural, other {# payment(s)}} from {account} for {date} is unknown',
    'alerts.unknown.text':
      'settle sent bulk {bulk} ({count, plural, other {# payment(s)}} from account {account}, execution date {date}) and never got an answer. It is not re-sent automatically: the money may or may not have moved. Follow docs/runbook.md, "A payment is unknown".',
    'alerts.approvalWaiting.title': '{company}: payments wait for approval (signing basket {basket})',
    'alerts.approvalWaiting.text':
      'Payments of {company} wait in signing basket {basket} for an approver to complete the approval link. Until then the bank does not execute them.',
    'alerts.approvalWaiting.textUntil':
      'Payments of {company} wait in signing basket {basket} for an approver to complete the approval link (valid until {expires}). Until then the bank does not execute them.',
    'alerts.linkExpiring.title': '{company}: approval link of basket {basket} expires {expires}',
    'alerts.linkExpiring.text':
      'The approval link of signing basket {basket} expires at {expires}. Ask the approvers to complete it, or follow docs/runbook.md, "A consent or an approval link expires".',
    'alerts.consentExpiring.title': '{company}: consent at {bank} expires {expires}',
    'alerts.consentExpiring.text':
      'The consent {consent} of {company} at {bank} expires at {expires}. Renew it with `settle consents refresh {consent}` (docs/runbook.md).',
    'alerts.statementGap.title':
      '{company, select, none {} other {{company}: }}statement {continuity, select, other {{continuity}}} on {account} for {day}',
    'alerts.statementGap.text':
      "The statement of account {account} for {day} does not continue the previous day ({continuity, select, other {{continuity}}}){detail, select, none {} other {: {detail}}}. Fetch statements again; if it stays, compare with the bank's statement before the ledger import.",
    'alerts.jobFailed.title': 'settle {job} failed: {code}',
    'alerts.jobFailed.text':
      'The {job} job failed with {code}: {message}\nIt runs again at its next scheduled time. docs/errors.md explains the code.',
    'alerts.deadlineMissed.title':
      '{company}: {job, select, nightly {nightly chain} other {statements}} not completed by {by}',
    'alerts.deadlineMissed.text':
      '{job, select, nightly {The nightly chain} other {The statement export}} of {company} had not completed by {by} ({timeZone}); {last, select, never {it has never completed} other {it last completed at {last}}}. Check that settle serve or the systemd timer runs and what the last run said (docs/runbook.md, "A deadline was missed").',
    'alerts.cutOffPassed':
      "requestedExecutionDate execution date {today} is today, and {bank}'s cut-off {time} had passed when settle sent the payments ({at}); the earliest date is {earliest}",
  },
  nb: {
    'alerts.summary.subject':
      '[settle] {job} {outcome}{count, plural, =0 {} one {: {count} trenger oppfølging} other {: {count} trenger oppfølging}}',
    'alerts.summary.headline': 'settle {job} kjøring {runId}: {outcome}',
    'alerts.summary.started': 'startet {at}, tok {seconds} s',
    'alerts.summary.nothing': 'ingenting å gjøre',
    'alerts.summary.count':
      '{what, select, steps_ok {steg fullført} steps_failed {steg feilet} files_accepted {filer godtatt} files_partially_accepted {filer delvis godtatt} files_rejected {filer avvist} files_refused {filer avvist og latt ligge} files_duplicate {filer som var lest inn før} files_cancellation {filer med kanselleringer} files_healed {filer flyttet ferdig} files_waiting {filer som venter} payments_not_paid {betalinger ikke utført} accounts_fetched {kontoer hentet} accounts_not_enabled {kontoer ikke aktivert} accounts_not_enabled_yet {kontoer ikke aktivert ennå} accounts_failed {kontoer som feilet} units_claimed_by_another_instance {enheter en annen instans har reservert} days_withheld {dager ikke eksportert} statements_exported {kontoutskrifter eksportert} other {{label}}}: {n}',
    'alerts.summary.failed': 'feilet: {code}: {message}',
    'alerts.summary.needsPerson': 'Trenger oppfølging ({count}):',
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
    'alerts.linesNotPaid.title': '{company}: {count, plural, one {# linje} other {# linjer}} i {file} ble ikke betalt',
    'alerts.linesNotPaid.trailer':
      '{report, select, none {} other {Den samme listen står i {report} (og .html ved siden av).\n}}{count, plural, one {Statusfilen} other {Statusfilene}} til ERP-systemet: {paths}.',
    'alerts.unknown.title':
      '{company}: utfallet av {count, plural, one {# betaling} other {# betalinger}} fra {account} med forfallsdato {date} er ukjent',
    'alerts.unknown.text':
      'settle sendte bunten {bulk} ({count, plural, one {# betaling} other {# betalinger}} fra konto {account}, forfallsdato {date}) og fikk aldri svar. Den sendes ikke på nytt automatisk: pengene kan ha blitt overført eller ikke. Følg docs/runbook.md, «A payment is unknown».',
    'alerts.approvalWaiting.title': '{company}: betalinger venter på godkjenning (signeringskurv {basket})',
    'alerts.approvalWaiting.text':
      'Betalinger fra {company} venter i signeringskurv {basket} på at en godkjenner fullfører godkjenningslenken. Til da utfører ikke banken dem.',
    'alerts.approvalWaiting.textUntil':
      'Betalinger fra {company} venter i signeringskurv {basket} på at en godkjenner fullfører godkjenningslenken, som gjelder til {expires}. Til da utfører ikke banken dem.',
    'alerts.linkExpiring.title': '{company}: godkjenningslenken til kurv {basket} utløper {expires}',
    'alerts.linkExpiring.text':
      'Godkjenningslenken til signeringskurv {basket} utløper {expires}. Be godkjennerne fullføre den, eller følg docs/runbook.md, «A consent or an approval link expires».',
    'alerts.consentExpiring.title': '{company}: samtykket hos {bank} utløper {expires}',
    'alerts.consentExpiring.text':
      'Samtykket {consent} for {company} hos {bank} utløper {expires}. Forny det med `settle consents refresh {consent}` (docs/runbook.md).',
    'alerts.statementGap.title':
      '{company, select, none {} other {{company}: }}{continuity, select, gap {hull} mismatch {avvik} other {{continuity}}} i kontoutskriften for {account} for {day}',
    'alerts.statementGap.text':
      'Kontoutskriften for konto {account} for {day} fortsetter ikke fra dagen før ({continuity, select, gap {hull} mismatch {avvik} other {{continuity}}}){detail, select, none {} other {: {detail}}}. Hent kontoutskriftene på nytt; består avviket, sammenlign med bankens kontoutskrift før importen til regnskapet.',
    'alerts.jobFailed.title': 'settle {job} feilet: {code}',
    'alerts.jobFailed.text':
      'Jobben {job} feilet med {code}: {message}\nDen kjøres igjen til neste planlagte tid. docs/errors.md forklarer koden.',
    'alerts.deadlineMissed.title':
      '{company}: {job, select, nightly {nattkjøringen} other {kontoutskriftene}} ble ikke fullført innen {by}',
    'alerts.deadlineMissed.text':
      '{job, select, nightly {Nattkjøringen} other {Eksporten av kontoutskrifter}} for {company} var ikke fullført innen {by} ({timeZone}); {last, select, never {den er aldri blitt fullført} other {den ble sist fullført {last}}}. Sjekk at settle serve eller systemd-timeren kjører, og hva siste kjøring sa (docs/runbook.md, «A deadline was missed»).',
    'alerts.cutOffPassed':
      'Forfallsdatoen {today} er i dag, og fristen hos {bank} ({time}) var passert da settle sendte betalingene ({at}); tidligste forfallsdato er {earliest}',
  },
});
