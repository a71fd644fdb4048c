// Audit: the one hash-chained audit trail, newest first, keyset-paged on its sequence number.
// A view verifies the chain from the last checkpoint (src/store/audit-trail.ts), so it costs the
// entries written since rather than the whole trail; "Verify everything" walks from the first
// entry, trusting no checkpoint. Both record checkpoints as they go. An operator may also
// record a verified checkpoint: the router's audit entry for that action pins the head.
import type { ConsoleAction, ConsolePage } from '../page.js';
import type { AuditCheck } from '../../../store/index.js';
import { escapeHtml, localTime, table, zoneOf } from './format.js';

const PAGE_SIZE = 50;

export const auditPage: ConsolePage = {
  path: '/console/audit',
  nav: 'Audit',
  // The trail holds every company's decisions: only operators, who run the whole install, read it.
  role: 'operator',
  async load(deps, req) {
    const e = escapeHtml;
    const zone = zoneOf(deps.companies, req.company);
    const before = /^\d+$/.test(req.query.get('before') ?? '') ? Number(req.query.get('before')) : undefined;
    const [check, entries] = await Promise.all([
      deps.store.audit.verify({ from: 'checkpoint' }),
      deps.store.audit.page({ limit: PAGE_SIZE + 1, ...(before === undefined ? {} : { before }) }),
    ]);
    const shown = entries.slice(0, PAGE_SIZE);
    const verdict = verdictOf(check, zone);
    const rows = shown.map((a) => [
      `<span class="num">${a.seq}</span>`,
      e(localTime(a.at, zone)),
      e(a.actor),
      e(a.action),
      e(`${a.subject.type} ${a.subject.id}`),
      e(a.reason ?? ''),
      e(a.origin),
      `<code>${e(a.hash.slice(0, 12))}</code>`,
    ]);
    const company = `company=${encodeURIComponent(req.company)}`;
    const last = shown.at(-1);
    const older =
      entries.length > PAGE_SIZE && last
        ? `<a href="/console/audit?${company}&amp;before=${last.seq}">Older entries</a>`
        : '';
    const newest = before !== undefined ? `<a href="/console/audit?${company}">Newest entries</a>` : '';
    return {
      title: 'Audit trail',
      body: `${verdict}
<form method="post" action="/console/audit/verify"><input type="hidden" name="_csrf" value="${e(req.csrfToken)}"><input type="hidden" name="company" value="${e(req.company)}"><button type="submit">Verify everything</button></form>
<form method="post" action="/console/audit/checkpoint"><input type="hidden" name="_csrf" value="${e(req.csrfToken)}"><input type="hidden" name="company" value="${e(req.company)}"><button type="submit">Record a verified checkpoint</button></form>
${table('Audit trail entries', ['#', 'When', 'Who', 'What', 'Subject', 'Reason', 'From where', 'Hash'], rows, 'The audit trail is empty.')}
<p>${[newest, older].filter(Boolean).join(' · ')}</p>`,
    };
  },
};

/** What a verification found, and from where it walked. */
function verdictOf(check: AuditCheck, zone: string): string {
  const e = escapeHtml;
  const scope = check.from
    ? `Verified from checkpoint ${check.from.seq} (recorded ${e(localTime(check.from.verifiedAt, zone))}); the entries before it were verified when it was recorded — “Verify everything” walks them again.`
    : 'Verified from the first entry.';
  return check.ok
    ? `<p class="ok" role="status">The chain holds: ${check.entries} entries, each following the one before; head ${e(check.headHash.slice(0, 16))}…</p>\n<p class="muted">${scope}</p>`
    : `<p class="bad" role="alert">The chain is broken at entry ${check.brokenAt}: ${e(check.problem)}. Restore the audit trail from a backup and find out who changed the database.</p>\n<p class="muted">${scope}</p>`;
}

/** A walk of the whole trail from its first entry, trusting no checkpoint; the router audits it. */
export const auditVerifyAction: ConsoleAction = {
  path: '/console/audit/verify',
  role: 'operator',
  async handle(deps, req) {
    const check = await deps.store.audit.verify({ from: 'genesis' });
    const back = `<p><a href="/console/audit?company=${encodeURIComponent(req.company)}">Back to the audit trail</a></p>`;
    return {
      status: check.ok ? 200 : 409,
      title: 'Audit trail verified from the first entry',
      body: `${verdictOf(check, zoneOf(deps.companies, req.company))}\n${back}`,
    };
  },
};

export const auditCheckpointAction: ConsoleAction = {
  path: '/console/audit/checkpoint',
  role: 'operator',
  async handle(deps, req) {
    const check = await deps.store.audit.verify();
    if (!check.ok)
      return {
        status: 409,
        title: 'Not recorded',
        body: `<p class="bad">The chain is broken at entry ${check.brokenAt}; no checkpoint is recorded on a broken chain.</p>`,
      };
    return { redirect: `/console/audit?company=${encodeURIComponent(req.company)}` };
  },
};
