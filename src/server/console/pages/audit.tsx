// Audit: the hash-chained audit trail, newest first, keyset-paged on its sequence number, scoped
// like every page: a company's operators read the entries about their company, the install-wide
// auditors (console.auditors) every entry, those about no company too. There is one chain for
// the install, so the scope is a filter on the company column (migration 0690), not a chain of
// its own. Each view verifies the whole chain from the last checkpoint to the head (so it costs
// the entries written since), and every entry it shows wherever it is, before the checkpoint too
// (AuditTrail.checkShown): the page never calls an entry it shows whole when it was edited. It
// shows the head it verified in full, to compare with the `audit head` log lines. "Verify
// everything" walks from the first entry, trusting no checkpoint. Both record checkpoints as they
// go. An operator may also record a verified checkpoint: the router's audit entry pins the head.
// Refused actions counted in minutes that are over are written first, so the page shows them.
import { render, Table } from '../../../html/index.js';
import type { AuditCheck, AuditScope } from '../../../store/index.js';
import type { ConsoleAction, ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { CsrfField, localTime, timeZoneOf } from './parts.js';

const PAGE_SIZE = 50;

export const auditPage: ConsolePage = {
  path: '/console/audit',
  nav: 'nav.audit',
  // A company's operators read its entries; the install-wide auditors read every entry.
  async load(deps, req) {
    const zone = timeZoneOf(deps, req.company);
    const before = /^\d+$/.test(req.query.get('before') ?? '') ? Number(req.query.get('before')) : undefined;
    const scope = scopeOf(req);
    await deps.store.auditRefusals.flush();
    const [walk, entries] = await Promise.all([
      deps.store.audit.verify({ from: 'checkpoint' }),
      deps.store.audit.page({ limit: PAGE_SIZE + 1, scope, ...(before === undefined ? {} : { before }) }),
    ]);
    const shown = entries.slice(0, PAGE_SIZE);
    const broken = walk.ok ? await deps.store.audit.checkShown(shown) : undefined;
    const check: AuditCheck = broken ? { ok: false, entries: walk.entries, ...broken, ...walkStart(walk) } : walk;
    const company = `company=${encodeURIComponent(req.company)}`;
    const last = shown.at(-1);
    const older = entries.length > PAGE_SIZE && last && (
      <a href={`/console/audit?${company}&before=${last.seq}`}>Older entries</a>
    );
    const newest = before !== undefined && <a href={`/console/audit?${company}`}>Newest entries</a>;
    return {
      title: 'Audit trail',
      body: render(
        <>
          <p>
            {scope === 'all'
              ? 'Every entry of the install, those about no company too (you are an auditor).'
              : `The entries about ${companyName(deps, req.company)}. The chain verified below is the install's one chain.`}
          </p>
          <Verdict check={check} zone={zone} shown />
          <VerifyForm req={req} action="/console/audit/verify" button="Verify everything" />
          <VerifyForm req={req} action="/console/audit/checkpoint" button="Record a verified checkpoint" />
          <Table
            caption="Audit trail entries"
            captionClass="skip"
            head={['#', 'When', 'Who', 'What', 'Subject', 'Reason', 'From where', 'Hash']}
            rows={shown}
            empty={{ note: 'The audit trail is empty.' }}
            cells={(a) => [
              <span class="num">{a.seq}</span>,
              localTime(a.at, zone),
              a.actor,
              a.action,
              `${a.subject.type} ${a.subject.id}`,
              a.reason ?? '',
              a.origin,
              <code>{a.hash.slice(0, 12)}</code>,
            ]}
          />
          <p>
            {newest}
            {newest && older && ' · '}
            {older}
          </p>
        </>,
      ),
    };
  },
};

/** An auditor reads every entry; anyone else the chosen company's (the router checked the role). */
function scopeOf(req: PageRequest): AuditScope {
  return req.user.auditor ? 'all' : { companies: [req.company] };
}

function companyName(deps: ConsoleDeps, company: string): string {
  return deps.companies.find((c) => c.id === company)?.name ?? company;
}

function walkStart(check: AuditCheck): Pick<AuditCheck, 'from'> {
  return check.from ? { from: check.from } : {};
}

function VerifyForm({ req, action, button }: { req: PageRequest; action: string; button: string }) {
  return (
    <form method="post" action={action}>
      <CsrfField req={req} />
      <input type="hidden" name="company" value={req.company} />
      <button type="submit">{button}</button>
    </form>
  );
}

/** What a verification found, and from where it walked. */
function Verdict({ check, zone, shown }: { check: AuditCheck; zone: string; shown?: boolean }) {
  const scope = check.from
    ? `Verified from checkpoint ${check.from.seq} (recorded ${localTime(check.from.verifiedAt, zone)}); the entries before it were verified when it was recorded — “Verify everything” walks them again.`
    : 'Verified from the first entry.';
  return (
    <>
      {check.ok ? (
        <p class="ok" role="status">
          The chain holds: {check.entries} entries, each following the one before
          {shown && ', and every entry shown here holds'}; head <code class="head">{check.headHash}</code>
        </p>
      ) : (
        <p class="bad" role="alert">
          The chain is broken at entry {check.brokenAt}: {check.problem}. Restore the audit trail from a backup and find
          out who changed the database.
        </p>
      )}
      <p class="muted">{scope}</p>
    </>
  );
}

/** A walk of the whole trail from its first entry, trusting no checkpoint; the router audits it. */
export const auditVerifyAction: ConsoleAction = {
  path: '/console/audit/verify',
  async handle(deps, req) {
    const check = await deps.store.audit.verify({ from: 'genesis' });
    return {
      status: check.ok ? 200 : 409,
      title: 'Audit trail verified from the first entry',
      body: render(
        <>
          <Verdict check={check} zone={timeZoneOf(deps, req.company)} />
          <p>
            <a href={`/console/audit?company=${encodeURIComponent(req.company)}`}>Back to the audit trail</a>
          </p>
        </>,
      ),
    };
  },
};

export const auditCheckpointAction: ConsoleAction = {
  path: '/console/audit/checkpoint',
  async handle(deps, req) {
    const check = await deps.store.audit.verify();
    if (!check.ok)
      return {
        status: 409,
        title: 'Not recorded',
        body: render(
          <p class="bad">
            The chain is broken at entry {check.brokenAt}; no checkpoint is recorded on a broken chain.
          </p>,
        ),
      };
    return { redirect: `/console/audit?company=${encodeURIComponent(req.company)}` };
  },
};
