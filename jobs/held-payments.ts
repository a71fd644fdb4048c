// A person decides about a payment held as a likely duplicate: release it (the next submit sends
// it) or drop it (never sent; the ERP's status file shows it cancelled). Recorded on the held
// row with who (SETTLE_ACTOR, else the operating-system user), when and why.
import { userInfo } from 'node:os';
import { ExitCode, SettleError } from '../src/domain/errors.js';
import type { HeldPayment, HoldDecision, Store } from '../src/store/index.js';

/** Who is acting: SETTLE_ACTOR when set (a service account acting for a named person), else the OS user. */
export function currentActor(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.SETTLE_ACTOR?.trim();
  if (named) return named;
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

export interface HoldDecisionInput {
  /** A held id, a payment line id or an end-to-end id (settle payments held lists them). */
  ref: string;
  decision: HoldDecision;
  reason: string;
  actor: string;
  company?: string;
}

export async function decideHold(store: Pick<Store, 'held'>, input: HoldDecisionInput): Promise<HeldPayment> {
  const reason = input.reason.trim();
  if (reason === '')
    throw new SettleError('ERR_USAGE', '--reason must say why (it is kept with the decision)', {
      exitCode: ExitCode.usage,
    });
  const found = await store.held.find(input.ref, input.company);
  if (found.length === 0)
    throw new SettleError(
      'ERR_PAYMENT_NOT_HELD',
      `no held payment ${JSON.stringify(input.ref)}${input.company ? ` in company ${input.company}` : ''}; see settle payments held`,
      { exitCode: ExitCode.usage },
    );
  if (found.length > 1)
    throw new SettleError(
      'ERR_PAYMENT_NOT_HELD',
      `${JSON.stringify(input.ref)} names ${found.length} held payments (${found.map((h) => `${h.company}: ${h.id}`).join(', ')}); give the held id or --company`,
      { exitCode: ExitCode.usage },
    );
  return store.held.decide(found[0]!.id, input.decision, input.actor, reason);
}
