// What a company's payment controls are set to (docs/controls.md), resolved from the `controls`
// keys of its configuration: which rules are on, the limits per currency (with overrides per
// debtor account), the go-live date of the account rules and the hours files are expected in.
import type { LocalDate } from '../local-date.js';
import { parseAmount } from '../money.js';

/** The rules a line can be held by besides the likely-duplicate hold. */
export const CONTROL_RULES = [
  'changed-account',
  'new-account',
  'limit-line',
  'limit-file',
  'limit-debtor-day',
  'unusual-time',
] as const;
export type ControlRule = (typeof CONTROL_RULES)[number];

/** The rule id of the likely-duplicate hold, stored beside these (defined with the hold's types). */
export { DUPLICATE_RULE } from '../hold.js';

/**
 * Rules whose hold needs releases by two different people: a changed account is the classic
 * invoice fraud, and a limit exists to make one person not enough.
 */
const TWO_PERSON: ReadonlySet<string> = new Set<ControlRule>([
  'changed-account',
  'limit-line',
  'limit-file',
  'limit-debtor-day',
]);

/** How many releases a hold by `rules` needs (the highest of its rules). */
export function releasesNeeded(rules: readonly string[]): 1 | 2 {
  return rules.some((r) => TWO_PERSON.has(r)) ? 2 : 1;
}

/** Decimal amounts per ISO currency code, as written in the configuration ("250000.00"). */
export type AmountsByCurrency = Readonly<Record<string, string>>;

export interface Limits {
  perLine?: AmountsByCurrency;
  perFile?: AmountsByCurrency;
  perDebtorDay?: AmountsByCurrency;
}

export interface ControlHours {
  /** Local time "HH:MM" in the company's time zone: files from then on are expected. */
  from: string;
  /** Local time "HH:MM": files at or after it are unusual. */
  to: string;
  /** Days files are expected on, 0 = Sunday … 6 = Saturday. */
  days: readonly number[];
}

export interface ControlSettings {
  changedAccount: boolean;
  newAccount: boolean;
  /** After this day the new-account rule holds lines; undefined: the rule is off. */
  goLive?: LocalDate | undefined;
  limits: Limits;
  /** Limits per debtor account (normalised IBAN), each replacing the company's for its currencies. */
  accountLimits: Readonly<Record<string, Limits>>;
  hours?: ControlHours | undefined;
}

export const NO_CONTROLS: ControlSettings = {
  changedAccount: false,
  newAccount: false,
  limits: {},
  accountLimits: {},
};

/** The limit in minor units for `currency`, or undefined when none is set (or it does not parse). */
export function limitMinor(amounts: AmountsByCurrency | undefined, currency: string): bigint | undefined {
  const text = amounts?.[currency];
  if (text === undefined) return undefined;
  const parsed = parseAmount(text, currency);
  return parsed.ok ? parsed.money.minor : undefined;
}

/** Located problems of limits as configured: unknown currencies and amounts finer than the currency. */
export function limitProblems(limits: Limits, at: string): string[] {
  const problems: string[] = [];
  for (const kind of ['perLine', 'perFile', 'perDebtorDay'] as const)
    for (const [currency, text] of Object.entries(limits[kind] ?? {})) {
      const parsed = parseAmount(text, currency);
      if (!parsed.ok) problems.push(`${at}.${kind}.${currency}: ${parsed.message}`);
    }
  return problems;
}
