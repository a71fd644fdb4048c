// Today: what needs a person in the chosen company — the attention scan the alerts use
// (unknown bulks, approvals waiting with their link's expiry, consents and links near expiry,
// statement gaps), rejected files, open reconciliation findings — and the last run of each job.
import { scanForAttention } from '../../attention-scan.js';
import type { ConsolePage } from '../page.js';
import { escapeHtml, localTime, table, zoneOf } from './format.js';

/** Lists on this page show the newest few; the Files and Reconciliation pages page through all. */
const SHOWN = 20;
const DEFAULT_WARN_BEFORE_MS = 7 * 86_400_000;

export const todayPage: ConsolePage = {
  path: '/console/',
  nav: 'Today',
  role: 'viewer',
  async load(deps, req) {
    const { store, clock } = deps;
    const zone = zoneOf(deps.companies, req.company);
    const e = escapeHtml;
    const attention = (
      await scanForAttention({
        attention: store.attention,
        clock,
        warnBeforeMs: deps.warnBeforeMs ?? DEFAULT_WARN_BEFORE_MS,
      })
    ).filter((f) => f.company === req.company);
    const rejected = (await store.files.listFiles({ company: req.company, state: 'rejected' }))
      .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime())
      .slice(0, SHOWN);
    const findings = (await store.findings.list({ company: req.company })).filter((f) => f.decision === 'open');
    const runs = await store.jobRuns.latestPerJob();
    const successes = (await store.jobSuccesses.list()).filter((s) => s.company === req.company);

    const needs = table(
      'Needs a person',
      ['What', 'Details'],
      attention.map((f) => [e(f.title), e(f.text)]),
      'Nothing waits for a person.',
    );
    const files = table(
      'Rejected files',
      ['File', 'Received', 'Lines', 'Why'],
      rejected.map((f) => [
        e(f.fileName),
        e(localTime(f.receivedAt, zone)),
        `<span class="num">${f.lineCount}</span>`,
        e(f.errorSummary ?? ''),
      ]),
      'No rejected files.',
    );
    const open = table(
      'Open reconciliation findings',
      ['Finding', 'Subject', 'Since'],
      findings.slice(0, SHOWN).map((f) => [e(f.summary), e(f.subject), e(localTime(f.firstSeenAt, zone))]),
      'No open reconciliation findings.',
    );
    const jobs = table(
      'Last run of each job',
      ['Job', 'Started', 'Finished', 'Outcome', `Last success for ${req.company}`],
      runs.map((r) => {
        const success = successes.find((s) => s.job === r.job);
        const css = r.outcome === 'ok' ? 'ok' : r.outcome === 'failed' ? 'bad' : 'warn';
        return [
          e(r.job),
          e(localTime(r.startedAt, zone)),
          r.finishedAt ? e(localTime(r.finishedAt, zone)) : '—',
          `<span class="${css}">${e(r.outcome)}</span>`,
          success ? e(localTime(success.succeededAt, zone)) : '—',
        ];
      }),
      'No job has run yet.',
    );
    const more =
      findings.length > SHOWN ? `<p class="muted">${findings.length - SHOWN} more on the Reconciliation page.</p>` : '';
    return {
      title: `Today — ${deps.companies.find((c) => c.id === req.company)?.name ?? req.company}`,
      body: `<h2>Needs a person (${attention.length})</h2>\n${needs}
<h2>Rejected files (${rejected.length})</h2>\n${files}
<h2>Open reconciliation findings (${findings.length})</h2>\n${open}${more}
<h2>Jobs</h2>\n${jobs}
<p class="muted">Times in ${e(zone)}.</p>`,
    };
  },
};
