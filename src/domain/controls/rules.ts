// The payment controls of one file, as pure functions of the line, what the company paid before
// (PayeeHistory), what its debtor accounts already send on a day, and when the file arrived.
// Pickup asks for every line before anything is stored or sent; a line a rule matches is held
// for a person with the rule ids and the evidence in words (never dropped). Lines held, by a
// rule or as a duplicate, do not count toward the running totals of the limits: they are not
// sent unless a person releases them.
import { normalizeIban } from '../account-id.js';
import { formatMinor } from '../money.js';
import { currencyExponent } from '../currency.js';
import type { LocalDate } from '../local-date.js';
import type { PaymentInstruction } from '../payment.js';
import {
  dateFigure,
  daysFigure,
  moneyFigure,
  recorded,
  ruleFigure,
  type RecordedFigure,
  type RecordedText,
} from '../recorded-text.js';
import { zonedParts } from '../zoned-time.js';
import { CREDITOR_KEY_KINDS, keyOf, type AccountUse, type CreditorKeyKind, type PayeeHistory } from './history.js';
import { limitMinor, releasesNeeded, type ControlRule, type ControlSettings, type Limits } from './settings.js';

export interface ControlHit {
  rules: ControlRule[];
  /** Each rule's evidence, in the order of `rules`, joined with "; ". */
  evidence: string;
  /** The same evidence as catalogue sentences, one per rule, for a reader's language (lineText.*). */
  evidenceText: RecordedText[];
  releases: 1 | 2;
}

export interface FileControlInputs {
  settings: ControlSettings;
  history: PayeeHistory;
  /** Minor units already on their way per debtor account, currency and execution day (dayKey). */
  dayTotals: ReadonlyMap<string, bigint>;
  /** When the file arrived, and the company's time zone to read it in. */
  receivedAt: Date;
  timeZone: string;
  /** The company's day the file arrived on. */
  today: LocalDate;
}

/** The key of `dayTotals`: debtor account, currency and execution day. */
export function dayKey(debtorIban: string, currency: string, day: string): string {
  return dayKeyOf(normalizeIban(debtorIban), currency, day);
}

/** `dayKey` of an account already normalised. */
const dayKeyOf = (debtor: string, currency: string, day: string): string => `${debtor}|${currency}|${day}`;

/** What a rule saw: in English, and as the catalogue sentence it is in every language. */
type Evidence = [english: string, text: RecordedText];

export class FileControls {
  private readonly fileTotals = new Map<string, bigint>();
  private readonly dayTotals: Map<string, bigint>;
  private readonly unusualTime: Evidence | undefined;
  private readonly accountsLive: boolean;
  private lastLimits: LimitsInForce | undefined;

  constructor(private readonly inputs: FileControlInputs) {
    this.dayTotals = new Map(inputs.dayTotals);
    this.unusualTime = unusualTime(inputs);
    // Not on the go-live day itself, nor without any history: those files are the baseline, so a
    // first night (reconcile.since is usually the install day) is not a flood of holds.
    const { goLive } = inputs.settings;
    this.accountsLive = goLive !== undefined && inputs.today > goLive && inputs.history.size > 0;
  }

  /**
   * The rules `p` breaks, in file order (lines are checked in the order they come). `heldAnyway`
   * says the line is held already (as a duplicate): it is still checked, for the evidence, but
   * does not count toward the totals.
   */
  check(p: PaymentInstruction, heldAnyway = false): ControlHit | undefined {
    const found: [ControlRule, Evidence][] = [];
    const { settings } = this.inputs;
    if (settings.changedAccount) {
      const changed = this.changedAccount(p);
      if (changed) found.push(['changed-account', changed]);
    }
    if (settings.newAccount && this.accountsLive && found.length === 0) {
      const fresh = this.newAccount(p);
      if (fresh) found.push(['new-account', fresh]);
    }
    if (this.unusualTime) found.push(['unusual-time', this.unusualTime]);
    found.push(...this.limits(p, heldAnyway || found.length > 0));
    if (found.length === 0) return undefined;
    const rules = found.map(([rule]) => rule);
    return {
      rules,
      evidence: found.map(([rule, [why]]) => `${rule}: ${why}`).join('; '),
      evidenceText: found.map(([rule, [, why]]) => recorded('lineText.evidence', { rule: ruleFigure(rule), why })),
      releases: releasesNeeded(rules),
    };
  }

  /**
   * A creditor paid before, to other accounts only. It is known by the first of its keys the
   * company paid before: organisation number, then ERP creditor id, then name. That key alone
   * decides: a creditor whose organisation number was paid to this account is not held because
   * its name was paid elsewhere (two creditors may share a name, never a number).
   */
  private changedAccount(p: PaymentInstruction): Evidence | undefined {
    const { history } = this.inputs;
    const creditor = { name: p.creditorName, orgId: p.creditorOrgId, creditorId: p.creditorId };
    for (const kind of CREDITOR_KEY_KINDS) {
      const key = keyOf(kind, creditor);
      const paid = key === '' ? undefined : history.accountsBy(kind, key);
      if (!paid || paid.size === 0) continue;
      const iban = normalizeIban(p.creditorIban);
      if (paid.has(iban)) return undefined;
      const top = [...paid].sort((a, b) => b[1].count - a[1].count).slice(0, 3);
      const before = top.map(([account, use]) => `${account} ${uses(use)}`).join(' and ');
      const more = paid.size > 3 ? ` (and ${paid.size - 3} more accounts)` : '';
      const accounts = top.map(([account, use]) => recorded('lineText.paidAccount', { account, uses: usesText(use) }));
      return [
        `${KNOWN_AS[kind](key, p.creditorName)} was paid to ${before}${more}; this line pays ${iban}`,
        recorded(paid.size > 3 ? 'lineText.changedAccountMore' : 'lineText.changedAccount', {
          creditor: recorded(`lineText.knownAs.${kind}`, { key, name: p.creditorName }),
          before: recorded(
            `lineText.paidTo${top.length}`,
            Object.fromEntries(accounts.map((a, i) => [`a${i + 1}`, a])),
          ),
          more: paid.size > 3 ? paid.size - 3 : undefined,
          iban,
        }),
      ];
    }
    return undefined;
  }

  private newAccount(p: PaymentInstruction): Evidence | undefined {
    if (this.inputs.history.account(p.creditorIban)) return undefined;
    const iban = normalizeIban(p.creditorIban);
    const goLive = String(this.inputs.settings.goLive);
    return [
      `${iban} ("${p.creditorName}") was never paid by this company, nor is it in the known-accounts file (go-live ${goLive})`,
      recorded('lineText.newAccount', { iban, name: p.creditorName, goLive }),
    ];
  }

  private limits(p: PaymentInstruction, held: boolean): [ControlRule, Evidence][] {
    const { currency, minor } = p.amount;
    const { debtor, perLine, perFile, perDay } = this.limitsFor(p.debtorIban, currency);
    const found: [ControlRule, Evidence][] = [];
    if (perLine !== undefined && minor > perLine)
      found.push([
        'limit-line',
        [
          `${show(minor, currency)} is above the limit of ${show(perLine, currency)} a line`,
          recorded('lineText.limitLine', { amount: money(minor, currency), limit: money(perLine, currency) }),
        ],
      ]);
    const fileSoFar = this.fileTotals.get(currency) ?? 0n;
    if (perFile !== undefined && fileSoFar + minor > perFile)
      found.push([
        'limit-file',
        [
          `the file's lines before it come to ${show(fileSoFar, currency)}; with this ${show(minor, currency)} they pass the limit of ${show(perFile, currency)} a file`,
          recorded('lineText.limitFile', {
            soFar: money(fileSoFar, currency),
            amount: money(minor, currency),
            limit: money(perFile, currency),
          }),
        ],
      ]);
    const key = dayKeyOf(debtor, currency, p.requestedExecutionDate);
    const daySoFar = this.dayTotals.get(key) ?? 0n;
    if (perDay !== undefined && daySoFar + minor > perDay)
      found.push([
        'limit-debtor-day',
        [
          `${debtor} already sends ${show(daySoFar, currency)} on ${p.requestedExecutionDate}; with this ${show(minor, currency)} it passes the limit of ${show(perDay, currency)} a day`,
          recorded('lineText.limitDebtorDay', {
            iban: debtor,
            soFar: money(daySoFar, currency),
            day: dateFigure(p.requestedExecutionDate),
            amount: money(minor, currency),
            limit: money(perDay, currency),
          }),
        ],
      ]);
    if (!held && found.length === 0) {
      this.fileTotals.set(currency, fileSoFar + minor);
      this.dayTotals.set(key, daySoFar + minor);
    }
    return found;
  }

  /**
   * The limits of `debtorIban` in `currency` as minor units: the account's own, else the
   * company's (a file's limit is the company's only). Kept for the last account and currency
   * asked: a file's lines mostly share both, and parsing the configured amounts again for every
   * line was most of what the controls cost at pickup (docs/decisions/0021-same-file-keys-as-hashes.md,
   * "The pickup-controls row after the change"). One entry, so nothing grows with the file.
   */
  private limitsFor(debtorIban: string, currency: string): LimitsInForce {
    const last = this.lastLimits;
    if (last !== undefined && last.debtorIban === debtorIban && last.currency === currency) return last;
    const { settings } = this.inputs;
    const debtor = normalizeIban(debtorIban);
    const forAccount = settings.accountLimits[debtor];
    const limit = (kind: keyof Limits) =>
      limitMinor(forAccount?.[kind], currency) ?? limitMinor(settings.limits[kind], currency);
    this.lastLimits = {
      debtorIban,
      currency,
      debtor,
      perLine: limit('perLine'),
      perFile: limitMinor(settings.limits.perFile, currency),
      perDay: limit('perDebtorDay'),
    };
    return this.lastLimits;
  }
}

/** The limits in force for one debtor account (as a line writes it) and currency. */
interface LimitsInForce {
  debtorIban: string;
  currency: string;
  /** The account, normalised. */
  debtor: string;
  perLine: bigint | undefined;
  perFile: bigint | undefined;
  perDay: bigint | undefined;
}

/** An amount in words, "12000.00 NOK". */
function show(minor: bigint, currency: string): string {
  return `${formatMinor(minor, currencyExponent(currency) ?? 2)} ${currency}`;
}

/** The same amount as a figure, so that a language writes it its way ("12 000,00 kr"). */
function money(minor: bigint, currency: string): RecordedFigure {
  return moneyFigure([{ minor, currency }]);
}

/** How the evidence names the creditor, by the key it was known by. */
const KNOWN_AS: Record<CreditorKeyKind, (key: string, name: string) => string> = {
  orgId: (key, name) => `creditor org. no. ${key} ("${name}")`,
  creditorId: (key, name) => `ERP creditor id ${key} ("${name}")`,
  name: (_key, name) => `"${name}"`,
};

/** `uses` as a catalogue sentence. */
function usesText(use: AccountUse): RecordedText {
  if (use.count === 0 || use.first === undefined) return recorded('lineText.uses.listed');
  return recorded('lineText.uses.paid', { count: use.count, since: use.first.slice(0, 7) });
}

/** "14 times since 2025-03", or "listed in the known-accounts file". */
function uses(use: AccountUse): string {
  if (use.count === 0 || use.first === undefined) return '(listed in the known-accounts file)';
  return `${use.count} ${use.count === 1 ? 'time' : 'times'} since ${use.first.slice(0, 7)}`;
}

/** Why the file's arrival is outside the configured hours, or undefined when it is not. */
function unusualTime({ settings, receivedAt, timeZone }: FileControlInputs): Evidence | undefined {
  const hours = settings.hours;
  if (!hours) return undefined;
  const t = zonedParts(receivedAt, timeZone);
  const at = `${pad(t.hour)}:${pad(t.minute)}`;
  const weekday = new Date(Date.UTC(t.year, t.month - 1, t.day)).getUTCDay();
  const inHours = hours.from <= hours.to ? at >= hours.from && at < hours.to : at >= hours.from || at < hours.to;
  if (inHours && hours.days.includes(weekday)) return undefined;
  const day = DAY_NAMES[weekday]!;
  const expected = `${hours.days.map((d) => DAY_NAMES[d]).join(',')} ${hours.from}–${hours.to}`;
  return [
    `the file arrived ${day} ${at} ${timeZone}, outside the expected hours (${expected})`,
    recorded('lineText.unusualTime', {
      day,
      at,
      zone: timeZone,
      // The days go in as a figure, so that a language spells them out ("mandag, tirsdag").
      expected: recorded('lineText.expectedHours', {
        days: daysFigure(hours.days.map((d) => DAY_NAMES[d]!)),
        from: hours.from,
        to: hours.to,
      }),
    }),
  ];
}

export const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

const pad = (n: number) => String(n).padStart(2, '0');
