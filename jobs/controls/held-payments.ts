// A person decides about a payment held as a likely duplicate: release it (the next submit sends
// it) or drop it (never sent; the ERP's status file shows it cancelled). Recorded on the held
// row with who, when and why, and in the audit trail with where from.
import { SettleError } from '../../src/domain/errors.js';
import { normaliseIdentity } from '../../src/domain/person.js';
import { planHoldDecision } from '../../src/domain/plans/hold-plan.js';
import type { HeldPayment, HoldDecision, Store } from '../../src/store/index.js';

export interface HoldDecisionInput {
  /** A held id, a payment id or an end-to-end id (settle payments held lists them). */
  ref: string;
  decision: HoldDecision;
  reason: string;
  /** Who decides (SETTLE_ACTOR or the OS user on the command line) and from where. */
  actor: string;
  origin: string;
  company?: string;
  /**
   * Who decides as a person (src/domain/person.ts), from a signed-in console session: only then
   * may they give a hold's second release. Absent on the command line.
   */
  person?: string;
}

export async function decideHold(
  store: Pick<Store, 'held' | 'audit' | 'applyPlan'>,
  input: HoldDecisionInput,
): Promise<HeldPayment> {
  const reason = input.reason.trim();
  if (reason === '') throw new SettleError('ERR_USAGE', '--reason must say why (it is kept with the decision)');
  const found = await store.held.find(input.ref, input.company);
  if (found.length === 0)
    throw new SettleError(
      'ERR_PAYMENT_NOT_HELD',
      `no held payment ${JSON.stringify(input.ref)}${input.company ? ` in company ${input.company}` : ''}; see settle payments held`,
      { values: { why: 'noneFound', ref: input.ref, company: input.company ?? 'none' } },
    );
  if (found.length > 1)
    throw new SettleError(
      'ERR_PAYMENT_NOT_HELD',
      `${JSON.stringify(input.ref)} names ${found.length} held payments (${found.map((h) => `${h.company}: ${h.id}`).join(', ')}); give the held id or --company`,
      {
        values: {
          why: 'several',
          ref: input.ref,
          count: found.length,
          listed: found.map((h) => `${h.company}: ${h.id}`).join(', '),
        },
      },
    );
  const held = await decideHeldPayment(store, found[0]!.id, {
    decision: input.decision,
    by: input.actor,
    reason,
    ...(input.person === undefined ? {} : { person: input.person, secondRelease: true }),
  });
  // A first of two releases decides nothing yet: it is audited as what it is.
  const first = input.decision === 'released' && held.decision === undefined;
  await store.audit.append({
    actor: input.actor,
    action: first ? 'payment.release.first' : input.decision === 'released' ? 'payment.release' : 'payment.drop',
    subject: { type: 'payment', id: held.paymentId },
    reason,
    origin: input.origin,
    details: {
      company: held.company,
      endToEndId: held.endToEndId,
      file: held.fileName,
      line: held.lineNumber,
      rules: held.rules,
      ...(held.evidence ? { evidence: held.evidence } : {}),
      ...(held.firstRelease ? { firstReleasedBy: held.firstRelease.by } : {}),
    },
  });
  return held;
}

/**
 * A person's decision (`who.decision`) on one held line, read → plan → apply: a drop decides it; a release decides
 * it unless the hold needs two and this is the first (src/domain/controls/release.ts), which is
 * kept and sends nothing. `who.person` is who decides across logins (src/domain/person.ts;
 * default: `by`, case-folded); `who.secondRelease` says whether this person may give a hold's
 * second release (the console, where they signed in; the command line's actor is self-declared).
 * The store refuses the plan when the hold was decided, or released once, meanwhile.
 */
export async function decideHeldPayment(
  store: Pick<Store, 'held' | 'applyPlan'>,
  id: string,
  who: { decision: HoldDecision; by: string; reason: string; person?: string; secondRelease?: boolean },
): Promise<HeldPayment> {
  const { decision, by, reason } = who;
  const held = await store.held.get(id);
  if (!held)
    throw new SettleError('ERR_PAYMENT_NOT_HELD', `${id} is not a held payment; see settle payments held`, {
      values: { why: 'notHeld', id },
    });
  const person = who.person ?? normaliseIdentity(by);
  const secondRelease = who.secondRelease === true ? { secondRelease: true } : {};
  await store.applyPlan(planHoldDecision(held, decision, { by, person, reason, ...secondRelease }));
  return (await store.held.get(id))!;
}
