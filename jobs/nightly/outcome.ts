// What each step of the nightly chain did, as numbers and lists rather than sentences: the chain
// merges them over companies by adding, `settle run <job>` and the nightly decide "needs a
// person" from them in one place (`needsPerson`), and every reader renders them (`describeOutcome`,
// in a person's language; English in JSON and logs). A step's outcome is built from its job's
// result by the `…Outcome` functions below, so that the nightly and `settle run <job>` count alike.
import { codeCell, translate, type Locale, type MessageKey, type MessageValues } from '../../src/i18n/index.js';
import type { ApproveSummary } from '../approve/index.js';
import { type AccountFetch, fetchNeedsAttention } from '../statements/index.js';
import type { PickedFile } from '../pickup/index.js';
import type { CompanyReconciliation } from '../reconcile/index.js';
import type { WrittenStatusReport, StatusSummary } from '../status/index.js';
import type { SubmitSummary } from '../submit/index.js';

export interface PickupStepOutcome {
  step: 'pickup';
  files: number;
  accepted: number;
  partlyAccepted: number;
  rejected: number;
  duplicate: number;
  /** Files whose outcome needs a person although none of the counts above names it (e.g. a cancellation). */
  otherForPerson: number;
  held: number;
  heldLines: { file: string; lineNumber: number; endToEndId: string; rules: readonly string[] }[];
  waiting: { file: string; waitingFor?: string }[];
  refused: { file: string; code?: string }[];
}

export interface SubmitStepOutcome {
  step: 'submit';
  planned: number;
  sent: number;
  rejected: number;
  retry: number;
  forPerson: number;
  waitingBulks: number;
  waitingUntil?: string;
}

export interface ApproveStepOutcome {
  step: 'approve';
  baskets: number;
  newLinks: number;
  problems: number;
}

export interface StatusStepOutcome {
  step: 'status';
  polled: number;
  changed: number;
  failed: number;
}

export interface StatusReportStepOutcome {
  step: 'status-report';
  files: number;
  refusedLines: number;
}

export interface FetchStepOutcome {
  step: 'fetch';
  accounts: number;
  /** Accounts fetched per bank, in the order first met. */
  fetchedPerBank: { bank: string; accounts: number }[];
  notFetched: number;
  notYetEnabled: number;
  /** A gap, a mismatch, an account no longer enabled, or a failed read. */
  forPerson: number;
}

export interface ExportStepOutcome {
  step: 'export';
  files: number;
  withheldDays: number;
  changedDays: number;
}

export interface ConsentsStepOutcome {
  step: 'consents';
  read: number;
}

export interface ReconcileStepOutcome {
  step: 'reconcile';
  companies: { company: string; findings: number; needingPerson: number; needsPerson: boolean }[];
}

export type StepOutcome =
  | PickupStepOutcome
  | SubmitStepOutcome
  | ApproveStepOutcome
  | StatusStepOutcome
  | StatusReportStepOutcome
  | FetchStepOutcome
  | ExportStepOutcome
  | ConsentsStepOutcome
  | ReconcileStepOutcome;

/** Outcomes a file can have without anything for a person: a waiting file is taken by the next run. */
const PICKUP_SETTLED = new Set<PickedFile['outcome']>(['accepted', 'healed', 'waiting']);

export function pickupOutcome(picked: readonly PickedFile[]): PickupStepOutcome {
  const count = (o: PickedFile['outcome']) => picked.filter((p) => p.outcome === o).length;
  const named = new Set<PickedFile['outcome']>(['partially-accepted', 'rejected', 'duplicate', 'refused']);
  return {
    step: 'pickup',
    files: picked.length,
    accepted: count('accepted'),
    partlyAccepted: count('partially-accepted'),
    rejected: count('rejected'),
    duplicate: count('duplicate'),
    otherForPerson: picked.filter((p) => !PICKUP_SETTLED.has(p.outcome) && !named.has(p.outcome)).length,
    held: picked.reduce((sum, p) => sum + (p.held ?? 0), 0),
    heldLines: picked.flatMap((p) => (p.heldLines ?? []).map((h) => ({ file: p.name, ...h }))),
    waiting: picked
      .filter((p) => p.outcome === 'waiting')
      .map((p) => ({ file: p.name, ...(p.waitingFor ? { waitingFor: p.waitingFor } : {}) })),
    refused: picked
      .filter((p) => p.outcome === 'refused')
      .map((p) => ({ file: p.name, ...(p.refused ? { code: p.refused.code } : {}) })),
  };
}

export function submitOutcome(s: SubmitSummary): SubmitStepOutcome {
  const count = (...o: string[]) => s.bulks.filter((b) => o.includes(b.outcome)).length;
  return {
    step: 'submit',
    planned: s.planned,
    sent: count('sent', 'replayed'),
    rejected: count('rejected'),
    retry: count('retry', 'sending'),
    forPerson: count('unknown', 'attention'),
    waitingBulks: s.waiting.bulks,
    ...(s.waiting.until ? { waitingUntil: s.waiting.until.toISOString() } : {}),
  };
}

export function approveOutcome(a: ApproveSummary): ApproveStepOutcome {
  return {
    step: 'approve',
    baskets: a.baskets.length,
    newLinks: a.baskets.filter((b) => b.linkIssued).length,
    problems: a.baskets.filter((b) => b.problem !== undefined).length,
  };
}

export function statusOutcome(s: StatusSummary): StatusStepOutcome {
  return { step: 'status', polled: s.polled, changed: s.changed, failed: s.failed };
}

export function statusReportOutcome(reports: readonly WrittenStatusReport[]): StatusReportStepOutcome {
  return {
    step: 'status-report',
    files: reports.length,
    refusedLines: reports.reduce((n, w) => n + w.refused.length, 0),
  };
}

export function fetchOutcome(fetched: readonly AccountFetch[]): FetchStepOutcome {
  const perBank = new Map<string, number>();
  for (const r of fetched.filter((f) => f.outcome === 'fetched'))
    perBank.set(r.bankId ?? 'bank unknown', (perBank.get(r.bankId ?? 'bank unknown') ?? 0) + 1);
  return {
    step: 'fetch',
    accounts: fetched.length,
    fetchedPerBank: [...perBank].map(([bank, accounts]) => ({ bank, accounts })),
    notFetched: fetched.filter((f) => f.outcome !== 'fetched').length,
    notYetEnabled: fetched.filter((f) => f.outcome === 'not-yet-enabled').length,
    forPerson: fetchNeedsAttention(fetched) || fetched.some((f) => f.outcome === 'failed') ? 1 : 0,
  };
}

export function exportOutcome(e: {
  files: readonly unknown[];
  withheld: readonly unknown[];
  changed: readonly unknown[];
}) {
  return {
    step: 'export',
    files: e.files.length,
    withheldDays: e.withheld.length,
    changedDays: e.changed.length,
  } satisfies ExportStepOutcome;
}

export function consentsOutcome(consents: readonly unknown[]): ConsentsStepOutcome {
  return { step: 'consents', read: consents.length };
}

export function reconcileOutcome(reconciliations: readonly CompanyReconciliation[]): ReconcileStepOutcome {
  return {
    step: 'reconcile',
    companies: reconciliations.map((r) => ({
      company: r.company,
      findings: r.summary.findings,
      needingPerson: r.summary.needingPerson,
      needsPerson: r.needsPerson,
    })),
  };
}

/** Whether a step's outcome leaves something a person must look at: the one rule for every run. */
export function needsPerson(o: StepOutcome): boolean {
  switch (o.step) {
    case 'pickup':
      return o.held + o.partlyAccepted + o.rejected + o.duplicate + o.refused.length + o.otherForPerson > 0;
    case 'submit':
      return o.rejected + o.forPerson > 0;
    case 'approve':
      // A new link waits for an approver to sign; a problem waits for an operator.
      return o.newLinks + o.problems > 0;
    case 'status':
    case 'consents':
      return false;
    case 'status-report':
      return o.refusedLines > 0;
    case 'fetch':
      return o.forPerson > 0;
    case 'export':
      return o.withheldDays + o.changedDays > 0;
    case 'reconcile':
      return o.companies.some((c) => c.needsPerson);
  }
}

/** Two outcomes of one step (two companies') as one: numbers added, lists joined. */
export function addOutcomes<O extends StepOutcome>(a: O, b: O): O {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b) as [string, unknown][]) {
    const mine = out[key];
    if (typeof value === 'number' && typeof mine === 'number') out[key] = mine + value;
    else if (Array.isArray(value) && Array.isArray(mine)) out[key] = [...(mine as unknown[]), ...(value as unknown[])];
    else if (key === 'waitingUntil' && typeof value === 'string')
      out[key] = typeof mine === 'string' && mine > value ? mine : value;
  }
  if (a.step === 'fetch') {
    // Per bank, once: two companies at one bank add up.
    const perBank = new Map<string, number>();
    for (const { bank, accounts } of out.fetchedPerBank as FetchStepOutcome['fetchedPerBank'])
      perBank.set(bank, (perBank.get(bank) ?? 0) + accounts);
    out.fetchedPerBank = [...perBank].map(([bank, accounts]) => ({ bank, accounts }));
  }
  return out as O;
}

/** A step's outcome as one line for people, in `locale`. */
export function describeOutcome(o: StepOutcome, locale: Locale): string {
  const say = (key: MessageKey, values?: MessageValues) => translate(locale, key, values);
  switch (o.step) {
    case 'pickup': {
      const lines = o.heldLines.slice(0, 5).map((h) =>
        say('run.pickup.heldLine', {
          file: h.file,
          line: String(h.lineNumber),
          endToEndId: h.endToEndId,
          rules: h.rules.map((r) => codeCell('rule', r, locale)).join(', '),
        }),
      );
      const more = o.heldLines.length - lines.length;
      return (
        say('run.pickup', {
          files: o.files,
          accepted: o.accepted,
          partlyAccepted: o.partlyAccepted,
          rejected: o.rejected,
          duplicate: o.duplicate,
        }) +
        (o.held > 0 ? say('run.pickup.held', { held: o.held, lines: lines.join(', '), more }) : '') +
        (o.waiting.length > 0
          ? say('run.pickup.waiting', {
              count: o.waiting.length,
              files: o.waiting
                .map((w) =>
                  say('run.pickup.waitingFile', { file: w.file, waitingFor: w.waitingFor ?? say('run.nextRun') }),
                )
                .join('; '),
            })
          : '') +
        (o.refused.length > 0
          ? say('run.pickup.refused', {
              count: o.refused.length,
              files: o.refused.map((r) => `${r.file} (${r.code ?? 'refused'})`).join('; '),
            })
          : '')
      );
    }
    case 'submit':
      return (
        say('run.submit', {
          planned: o.planned,
          sent: o.sent,
          rejected: o.rejected,
          retry: o.retry,
          forPerson: o.forPerson,
        }) + (o.waitingBulks > 0 ? `; ${describeWaiting(o, locale)}` : '')
      );
    case 'approve':
      return say('run.approve', { baskets: o.baskets, newLinks: o.newLinks });
    case 'status':
      return say('run.status', { polled: o.polled, changed: o.changed, failed: o.failed });
    case 'status-report':
      return (
        say('run.statusReport', { files: o.files }) +
        (o.refusedLines > 0 ? say('run.statusReport.refused', { lines: o.refusedLines }) : '')
      );
    case 'fetch':
      return say('run.fetch', {
        accounts: o.accounts,
        fetched: o.fetchedPerBank.reduce((n, b) => n + b.accounts, 0),
        banks: o.fetchedPerBank.map((b) => `${b.bank} ${b.accounts}`).join(', ') || 'none',
        notFetched: o.notFetched,
        notYetEnabled: o.notYetEnabled,
      });
    case 'export':
      return say('run.export', { files: o.files, withheldDays: o.withheldDays, changedDays: o.changedDays });
    case 'consents':
      return say('run.consents', { read: o.read });
    case 'reconcile':
      return (
        o.companies
          .map((c) =>
            say('run.reconcile.company', { company: c.company, findings: c.findings, needingPerson: c.needingPerson }),
          )
          .join('; ') || say('run.reconcile.none')
      );
  }
}

/** Bulks another run's claim holds back, and until when: "2 wait on another holder's claim until …". */
export function describeWaiting(o: SubmitStepOutcome, locale: Locale): string {
  return translate(locale, 'run.submit.waiting', { bulks: o.waitingBulks, until: o.waitingUntil ?? 'none' });
}
