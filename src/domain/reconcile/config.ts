// The knobs of reconciliation, with the defaults documented in docs/reconciliation.md. A
// partial configuration is completed and checked once; every problem is reported at once.
import { SettleError } from '../errors.js';
import { DEFAULT_TOLERANCES, toleranceProblems, type Tolerances } from './tolerances.js';

export const MATCH_RULES = ['end-to-end', 'batch-lump-sum', 'amount-account-date'] as const;
export type MatchRule = (typeof MATCH_RULES)[number];

export interface ReconcileConfig {
  /** Rules in the order they run; a rule left out is disabled. */
  readonly rules: readonly MatchRule[];
  /** Largest |booking date − requested execution date| in calendar days a rule accepts, and beyond which a match is reported as a date difference. */
  readonly dateWindowDays: number;
  /** Largest |booked − sent| amount difference, in minor units, still treated as equal. Default 0: any difference is reported. */
  readonly amountToleranceMinor: bigint;
  /** The amount + account + date rule only looks at transactions that carry no end-to-end id (or "NOTPROVIDED"). */
  readonly amountRuleOnlyWithoutEndToEnd: boolean;
  /** A sent payment not booked this many business days after its execution date is reported as not booked. */
  readonly notBookedAfterBusinessDays: number;
  /** Consents that expire within this many days are reported. */
  readonly consentWarningDays: number;
  /** Whether a debit that did not come from settle needs a person (exit 1). */
  readonly unexpectedDebitNeedsPerson: boolean;
  /** Amount, fee and date tolerances and the auto-confirm score (per company). */
  readonly tolerances: Tolerances;
}

export const DEFAULT_RECONCILE_CONFIG: ReconcileConfig = Object.freeze({
  rules: Object.freeze([...MATCH_RULES]),
  dateWindowDays: 3,
  amountToleranceMinor: 0n,
  amountRuleOnlyWithoutEndToEnd: true,
  notBookedAfterBusinessDays: 2,
  consentWarningDays: 14,
  unexpectedDebitNeedsPerson: true,
  tolerances: DEFAULT_TOLERANCES,
});

/** Completes a partial configuration with the defaults; throws ERR_RECONCILE_CONFIG listing every problem. */
export function resolveReconcileConfig(partial: Partial<ReconcileConfig> = {}): ReconcileConfig {
  const config: ReconcileConfig = { ...DEFAULT_RECONCILE_CONFIG, ...partial };
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const rule of config.rules) {
    if (!(MATCH_RULES as readonly string[]).includes(rule))
      problems.push(`rules: unknown rule "${String(rule)}" (known: ${MATCH_RULES.join(', ')})`);
    else if (seen.has(rule)) problems.push(`rules: "${rule}" is listed twice`);
    seen.add(rule);
  }
  const wholeAtLeast = (name: keyof ReconcileConfig, value: number, min: number): void => {
    if (!Number.isInteger(value) || value < min)
      problems.push(`${name}: must be a whole number ≥ ${min}, got ${String(value)}`);
  };
  wholeAtLeast('dateWindowDays', config.dateWindowDays, 0);
  wholeAtLeast('notBookedAfterBusinessDays', config.notBookedAfterBusinessDays, 0);
  wholeAtLeast('consentWarningDays', config.consentWarningDays, 0);
  if (typeof config.amountToleranceMinor !== 'bigint' || config.amountToleranceMinor < 0n) {
    problems.push('amountToleranceMinor: must be a non-negative amount in minor units');
  }
  problems.push(...toleranceProblems(config.tolerances));
  if (problems.length > 0) {
    throw new SettleError('ERR_RECONCILE_CONFIG', `reconciliation configuration is invalid: ${problems.join('; ')}`, {
      details: { problems },
    });
  }
  return Object.freeze({ ...config, rules: Object.freeze([...config.rules]) });
}
