// The run summaries: one line per step of the nightly chain and of `settle run <job>`
// (jobs/nightly/outcome.ts). English keeps the wording scripts and people have read since the
// first release ("3 file(s): …"); bokmål says it with its own plurals.
import { area } from './area.js';

export const run = area({
  en: {
    'run.pickup':
      '{files, plural, other {# file(s)}}: {accepted, plural, other {# accepted}}, {partlyAccepted, plural, other {# partly accepted}}, {rejected, plural, other {# rejected}}, {duplicate, plural, other {# duplicate}}',
    'run.pickup.held':
      '; {held, plural, other {# payment(s)}} held for a person (settle payments held): {lines}{more, plural, =0 {} other {, and # more}}',
    'run.pickup.heldLine': '{file} line {line} {endToEndId} ({rules})',
    'run.pickup.waiting': '; {count, plural, other {# waiting}}: {files}',
    'run.pickup.waitingFile': '{file} for {waitingFor}',
    'run.nextRun': 'the next run',
    'run.pickup.refused': '; {count, plural, other {# refused}}, left in the inbox unread: {files}',
    'run.submit':
      '{planned, plural, other {# bulk(s)}} planned; {sent, plural, other {# sent}}, {rejected, plural, other {# rejected}}, {retry, plural, other {# to retry}}, {forPerson, plural, other {# need a person}}',
    'run.submit.waiting':
      "{bulks, plural, other {# wait}} on another holder's claim{until, select, none {} other { until {until}}}",
    'run.approve': '{baskets, plural, other {# signing basket(s)}}, {newLinks, plural, other {# new approval link(s)}}',
    'run.status':
      '{polled, plural, other {# bulk(s)}} polled, {changed, plural, other {# status change(s)}}, {failed, plural, other {# read(s)}} failed',
    'run.statusReport': '{files, plural, other {# status file(s)}} for the ERP',
    'run.statusReport.refused': '; {lines, plural, other {# line(s)}} not paid, what to do is in the reports folder',
    'run.fetch':
      '{accounts, plural, other {# account(s)}}: {fetched, plural, other {# fetched}}{banks, select, none {} other { ({banks})}}, {notFetched, plural, other {# not}}{notYetEnabled, plural, =0 {} other { (# not enabled at the bank yet)}}',
    'run.export':
      '{files, plural, other {# statement file(s)}}; {withheldDays, plural, other {# day(s)}} withheld, {changedDays, plural, other {# changed}} at the bank',
    'run.consents': '{read, plural, other {# consent(s)}} read from the bank',
    'run.reconcile.company':
      '{company}: {findings, plural, other {# finding(s)}}, {needingPerson, plural, other {# need a person}}',
    'run.reconcile.none': 'no companies',
    'run.failed': 'failed: {code}: {message}',
    'run.skipped': 'skipped: {claimedBy}',
    'run.claimedByAnotherRun': '{count, plural, one {# company} other {# companies}} claimed by another run',
  },
  nb: {
    'run.pickup':
      '{files, plural, one {# fil} other {# filer}}: {accepted, plural, other {# godtatt}}, {partlyAccepted, plural, other {# delvis godtatt}}, {rejected, plural, other {# avvist}}, {duplicate, plural, one {# duplikat} other {# duplikater}}',
    'run.pickup.held':
      '; {held, plural, one {# betaling} other {# betalinger}} holdt tilbake for manuell behandling (settle payments held): {lines}{more, plural, =0 {} other {, og # til}}',
    'run.pickup.heldLine': '{file} linje {line} {endToEndId} ({rules})',
    'run.pickup.waiting': '; {count, plural, other {# venter}}: {files}',
    'run.pickup.waitingFile': '{file} på {waitingFor}',
    'run.nextRun': 'neste kjøring',
    'run.pickup.refused': '; {count, plural, other {# avvist}}, latt ligge ulest i innboksen: {files}',
    'run.submit':
      '{planned, plural, one {# bunt} other {# bunter}} planlagt; {sent, plural, other {# sendt}}, {rejected, plural, other {# avvist}}, {retry, plural, other {# prøves igjen}}, {forPerson, plural, other {# trenger oppfølging}}',
    'run.submit.waiting':
      '{bulks, plural, other {# venter}} på en annen kjørings reservasjon{until, select, none {} other { til {until}}}',
    'run.approve':
      '{baskets, plural, one {# signeringskurv} other {# signeringskurver}}, {newLinks, plural, one {# ny godkjenningslenke} other {# nye godkjenningslenker}}',
    'run.status':
      '{polled, plural, one {# bunt} other {# bunter}} spurt, {changed, plural, one {# statusendring} other {# statusendringer}}, {failed, plural, one {# lesing} other {# lesinger}} feilet',
    'run.statusReport': '{files, plural, one {# statusfil} other {# statusfiler}} til økonomisystemet',
    'run.statusReport.refused':
      '; {lines, plural, one {# linje} other {# linjer}} ikke betalt, hva som må gjøres står i rapportmappen',
    'run.fetch':
      '{accounts, plural, one {# konto} other {# kontoer}}: {fetched, plural, other {# hentet}}{banks, select, none {} other { ({banks})}}, {notFetched, plural, other {# ikke}}{notYetEnabled, plural, =0 {} other { (# ikke aktivert i banken ennå)}}',
    'run.export':
      '{files, plural, one {# kontoutskriftsfil} other {# kontoutskriftsfiler}}; {withheldDays, plural, one {# dag} other {# dager}} ikke eksportert, {changedDays, plural, other {# endret}} i banken',
    'run.consents': '{read, plural, one {# samtykke} other {# samtykker}} lest fra banken',
    'run.reconcile.company':
      '{company}: {findings, plural, one {# avvik} other {# avvik}}, {needingPerson, plural, other {# trenger oppfølging}}',
    'run.reconcile.none': 'ingen selskaper',
    'run.failed': 'feilet: {code}: {message}',
    'run.skipped': 'hoppet over: {claimedBy}',
    'run.claimedByAnotherRun': '{count, plural, one {# selskap} other {# selskaper}} reservert av en annen kjøring',
  },
});
