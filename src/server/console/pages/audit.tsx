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
import { render, Sentence, Table } from '../../../html/index.js';
import {
  CATALOGUES,
  codeWords,
  currentLocale,
  recordedSentence,
  t,
  type Locale,
  type MessageKey,
} from '../../../i18n/index.js';
import type { AuditCheck, AuditEntry, AuditScope } from '../../../store/index.js';
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
      <a href={`/console/audit?${company}&before=${last.seq}`}>{t('audit.older')}</a>
    );
    const newest = before !== undefined && <a href={`/console/audit?${company}`}>{t('audit.newest')}</a>;
    return {
      title: t('audit.title'),
      body: render(
        <>
          <p>
            {scope === 'all'
              ? t('audit.scope.all')
              : t('audit.scope.company', { company: companyName(deps, req.company) })}
          </p>
          <Verdict check={check} zone={zone} shown />
          <VerifyForm req={req} action="/console/audit/verify" button={t('audit.verifyAll')} />
          <VerifyForm req={req} action="/console/audit/checkpoint" button={t('audit.checkpoint')} />
          <Table
            caption={t('audit.caption')}
            captionClass="skip"
            head={[
              '#',
              ...(['when', 'who', 'what', 'subject', 'reason', 'origin', 'hash'] as const).map((h) =>
                t(`audit.column.${h}`),
              ),
            ]}
            rows={shown}
            empty={{ note: t('audit.empty') }}
            cells={(a) => [
              <span class="num">{a.seq}</span>,
              localTime(a.at, zone),
              a.actor,
              actionWords(a.action, currentLocale()),
              subjectWords(a.subject, currentLocale()),
              reasonWords(a, zone),
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

/**
 * What an entry records: its action code in English, as the trail has always shown it; in another
 * language its words with the code beside them (a console action's words name its route), and
 * the code alone for an action the catalogue does not name.
 */
export function actionWords(action: string, locale: Locale): string {
  if (locale === 'en') return action;
  const console = /^console (\/.*)$/.exec(action);
  const key = `auditEntry.action.${console ? 'console' : action}`;
  if (!Object.hasOwn(CATALOGUES.en.messages, key)) return action;
  return t('auditEntry.actionWithCode', { words: t(key as MessageKey), code: console ? console[1]! : action });
}

/** What an entry is about: its type in words in another language than English ("Betaling P-1"), the id as it is. */
export function subjectWords(subject: { type: string; id: string }, locale: Locale): string {
  const words = locale === 'en' ? undefined : codeWords('entity', subject.type, locale);
  return `${words ?? subject.type} ${subject.id}`;
}

/** Why: a person's words as they gave them; settle's own reason in the reader's language. */
function reasonWords(entry: AuditEntry, zone: string): string {
  if (entry.reason === undefined) return '';
  return recordedSentence(currentLocale(), entry.reason, entry.said, { timeZone: zone });
}

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
    ? t('audit.fromCheckpoint', { seq: String(check.from.seq), at: localTime(check.from.verifiedAt, zone) })
    : t('audit.fromFirst');
  return (
    <>
      {check.ok ? (
        <p class="ok" role="status">
          <Sentence
            k="audit.holds"
            values={{ count: check.entries, shown: shown ? 'yes' : 'no' }}
            tags={{ head: () => <code class="head">{check.headHash}</code> }}
          />
        </p>
      ) : (
        <p class="bad" role="alert">
          {t('audit.broken', { entry: String(check.brokenAt), problem: check.problem })}
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
      title: t('audit.verified.title'),
      body: render(
        <>
          <Verdict check={check} zone={timeZoneOf(deps, req.company)} />
          <p>
            <a href={`/console/audit?company=${encodeURIComponent(req.company)}`}>{t('audit.back')}</a>
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
        title: t('audit.notRecorded.title'),
        body: render(<p class="bad">{t('audit.notRecorded.body', { entry: String(check.brokenAt) })}</p>),
      };
    return { redirect: `/console/audit?company=${encodeURIComponent(req.company)}` };
  },
};
