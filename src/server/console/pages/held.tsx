// Held payments: the company's lines held as likely duplicates of a payment accepted from
// another file or of an earlier line of their own (same creditor account, amount and
// reference), or by a payment control (docs/controls.md), oldest first. An operator releases
// one (the next submit sends it) or drops it (never sent; the ERP's status file shows it
// cancelled) through the same use case as `settle payments release|drop` (jobs/controls/held-payments.ts),
// which keeps the decision on the held row and writes it to the audit trail.
import { decideHold } from '../../../../jobs/controls/index.js';
import type { HeldPayment, HoldDecision } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Sentence, Table } from '../../../html/index.js';
import { currentLocale, recordedSentence, t, type MessageKey } from '../../../i18n/index.js';
import { loadPage } from './load-page.js';
import { DecisionForm, isOperator, reasonOf, refuseUnlessOperator, runDecision } from './operator.js';
import { href, ruleText, Pager, when } from './parts.js';

const DECISIONS: { verb: string; decision: HoldDecision; label: MessageKey }[] = [
  { verb: 'release', decision: 'released', label: 'held.release' },
  { verb: 'drop', decision: 'dropped', label: 'held.drop' },
];

/**
 * A hold's reason in the reader's language: a likely duplicate's read back from its English (as
 * before), a control hold's from the words it recorded in its line's messages (the row keeps
 * English only); a hold without them stays as written.
 */
function heldReason(h: HeldPayment): string {
  const words = reasonInWords(h.reason);
  const locale = currentLocale();
  if (words !== h.reason || locale === 'en' || !h.reasonText) return words;
  return recordedSentence(locale, h.reason, h.reasonText);
}

/**
 * The reason a likely duplicate was held, in the reader's language: the store keeps it in English
 * words (src/store/held-payments.ts), so its two forms are read back here; any other stays as written.
 */
export function reasonInWords(reason: string): string {
  const head =
    /^likely duplicate: same creditor account, amount and reference as line (\d+) \(end-to-end id (.*?)\) of /;
  const m = head.exec(reason);
  if (!m) return reason;
  const rest = reason.slice(m[0].length);
  if (rest === 'this file') return t('held.reason.sameFile', { line: m[1]!, e2e: m[2]! });
  const other = /^"(.*)", accepted (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC$/s.exec(rest);
  return other ? t('held.reason.otherFile', { line: m[1]!, e2e: m[2]!, file: other[1]!, at: other[2]! }) : reason;
}

function DecisionForms({ req, held }: { req: PageRequest; held: HeldPayment }) {
  if (!isOperator(req)) return null;
  return (
    <>
      {DECISIONS.map((d) => (
        <DecisionForm
          req={req}
          path={`/console/held/${encodeURIComponent(held.id)}/${d.verb}`}
          id={`held-${held.id}-${d.verb}`}
          button={t(d.label)}
        />
      ))}
    </>
  );
}

export const heldPage: ConsolePage = {
  path: '/console/held',
  nav: 'nav.held',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.operatorViews.heldPayments(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const payment = (id: string) => href(`/console/payments/${encodeURIComponent(id)}`, req);
    return {
      title: t('held.title'),
      body: render(
        <>
          <p>{t('held.intro')}</p>
          <Table
            caption={t('held.caption')}
            head={(['fileAndLine', 'e2e', 'rule', 'why', 'held', 'decide'] as const).map((h) => t(`held.column.${h}`))}
            rows={page.rows}
            empty={t('held.none')}
            cells={(h) => [
              <span id={`held-${h.id}`}>
                <Sentence
                  k="held.line"
                  values={{ name: h.fileName, line: h.lineNumber }}
                  tags={{
                    file: (name) => (
                      <Link href={href(`/console/files/${encodeURIComponent(h.fileId)}`, req)}>{name}</Link>
                    ),
                  }}
                />
              </span>,
              <Link href={payment(h.paymentId)}>{h.endToEndId}</Link>,
              <>
                {h.rules.map(ruleText).join(', ')}
                {h.releasesNeeded === 2 ? (
                  <>
                    <br />
                    {h.firstRelease ? t('held.twoPeopleFirst', { person: h.firstRelease.by }) : t('held.twoPeople')}
                  </>
                ) : null}
              </>,
              <>
                {heldReason(h)}
                {h.rules.includes('duplicate') ? (
                  <>
                    {h.evidence ? (
                      <>
                        <br />
                        {recordedSentence(currentLocale(), h.evidence, h.evidenceText)}
                      </>
                    ) : null}
                    <br />
                    <Link href={payment(h.matchedPaymentId)}>{t('held.looksLike')}</Link>
                  </>
                ) : null}
              </>,
              when(deps, req, h.heldAt),
              <DecisionForms req={req} held={h} />,
            ]}
          />
          <Pager path="/console/held" req={req} next={page.next} />
        </>,
      ),
    };
  }),
};

function holdAction(verb: string, decision: HoldDecision): ConsoleAction {
  return {
    path: `/console/held/:id/${verb}`,
    // Every person of the company reaches it; the action refuses all but operators, so the router records the refusal.
    async handle(deps, req) {
      const refused = refuseUnlessOperator(req, 'releaseHeld');
      if (refused) return refused;
      const reason = reasonOf(req);
      if ('refused' in reason) return reason.refused;
      return runDecision(deps, req, t('held.notDecided'), async () => {
        await decideHold(deps.store, {
          ref: req.params.id ?? '',
          decision,
          reason: reason.reason,
          actor: req.origin.actor,
          origin: auditOrigin(req.origin),
          company: req.company,
          person: req.user.person,
        });
        return { redirect: href('/console/held', req) };
      });
    },
  };
}

export const holdActions: ConsoleAction[] = DECISIONS.map((d) => holdAction(d.verb, d.decision));
