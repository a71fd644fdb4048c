// The rules of one payment line: every field checked, every problem reported (never only the
// first), and a PaymentInstruction built only when the line has no error. Pure and synchronous;
// the rules that need the whole file or the outside world live in payment-validator.ts.
import { checkBic, checkIban, type IbanCheck } from '../account-id.js';
import type { BusinessCalendar } from '../business-calendar.js';
import { parseCreditorReference } from '../creditor-reference.js';
import { isCurrencyCode } from '../currency.js';
import type { Issue, IssueLocation, Severity } from '../issue.js';
import { addDays, isWeekend, parseDate, type LocalDate } from '../local-date.js';
import { parseAmount, type DecimalFormat, type Money } from '../money.js';
import type { InstructionPriority, PaymentInstruction } from '../payment.js';
import { compileAmountParser, type AmountParser } from './amount-parser.js';
import { charactersOutside, fitsCharset, transliterate, type CharsetRule } from './charset.js';
import { IssueCode } from './codes.js';
import { REQUIRED_FIELDS, type PaymentField, type RawField, type RawPaymentLine } from './raw-line.js';

export type NonBusinessDayPolicy = 'flag' | 'move' | 'reject';

/** Why a line cannot be paid from its debtor account: the account itself, or the line's currency. */
export interface DebtorAccountProblem {
  message: string;
  /** The account can pay, but not in the line's currency (the bank would refuse it: AM03). */
  currency?: boolean;
}

export interface LineRuleOptions {
  /** Date rules are evaluated as on this day (today in the company's time zone, or --as-of). */
  asOf: LocalDate;
  /** Bank calendar; without one only weekends count as non-business days. */
  calendar?: BusinessCalendar;
  /** What a weekend or holiday execution date does: warn, move to the next business day (warned), or fail. */
  nonBusinessDayPolicy?: NonBusinessDayPolicy;
  /** Largest allowed amount per currency as a decimal string; key "*" for every other currency. */
  maxAmount?: Readonly<Record<string, string>>;
  charset?: CharsetRule;
  /** Normalised IBANs of the company's onboarded accounts; undefined when the bank was not reachable. */
  onboardedDebtorAccounts?: ReadonlySet<string>;
  /**
   * The problem with paying from a debtor account (normalised IBAN) in a currency (ISO code as
   * written, upper-cased), with what to do about it; undefined when it can pay. Pickup builds it
   * from the company's account directory, which knows each account's status and currency.
   */
  debtorAccountProblem?: (iban: string, currency: string | undefined) => DebtorAccountProblem | undefined;
}

/** How the reader's text is written: CSV profiles choose; pain.001 is always "." and ISO dates. */
export interface LineFormat {
  decimalFormat: DecimalFormat;
  dateFormat: string;
  /** The CSV profile the format comes from, named in hints about its settings; none for pain.001. */
  profile?: string;
}

export interface LineResult {
  payment?: PaymentInstruction;
  /** The amount as read, whenever it could be read (also on lines with other errors): for file totals. */
  amount?: Money;
  issues: Issue[];
}

export type LineRules = (line: RawPaymentLine) => LineResult;

const MAX_NAME = 70;
const MAX_E2E = 35;
/** pain.001 InstrId is Max35Text, as is pain.002 OrgnlInstrId. */
const MAX_INSTRUCTION_ID = 35;
/** pain.001 Othr/Id and SchmeNm/Prtry are Max35Text; an ERP's creditor id is held to the same. */
const MAX_CREDITOR_ID = 35;
const CREDITOR_ID_WORDS = {
  creditorOrgId: 'organisation number',
  creditorOrgScheme: 'organisation number scheme',
  creditorId: 'creditor id',
} as const;
const MAX_REMITTANCE = 140;
const MAX_REFERENCE = 35;

export function compileLineRules(options: LineRuleOptions, format: LineFormat): LineRules {
  const checker = new LineChecker(options, format);
  return (line) => checker.check(line);
}

/** Per-line state kept in one small object, so the hot path allocates little. */
interface Ctx {
  line: RawPaymentLine;
  issues: Issue[];
}

function at(ctx: Ctx, field: PaymentField): IssueLocation {
  return ctx.line.fields[field]?.location ?? ctx.line.location;
}

function add(ctx: Ctx, code: IssueCode, severity: Severity, field: PaymentField, message: string): void {
  const value = ctx.line.fields[field]?.value;
  ctx.issues.push({
    code,
    severity,
    location: at(ctx, field),
    field,
    ...(value === undefined ? {} : { value }),
    message,
  });
}

/** A field's text without surrounding blanks; undefined when absent or blank. */
function value(field: RawField | undefined): string | undefined {
  if (field === undefined) return undefined;
  const raw = field.value;
  // Most values start and end with a visible ASCII character, which is never white space:
  // then trim() (a call into the runtime) is not needed.
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  if (first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f) return raw;
  const v = raw.trim();
  return v === '' ? undefined : v;
}

class LineChecker {
  private readonly policy: NonBusinessDayPolicy;
  private readonly charset: CharsetRule;
  private readonly maxByCurrency = new Map<string, bigint | undefined>();
  // Files repeat the same debtor account, currency and execution date on every line and
  // often the same creditors: caching these checks makes validation cheap next to parsing.
  // The caches are bounded (cleared when full), so memory stays flat on any file.
  // One cache per account field: a line's debtor account (the same on every line) and its
  // creditor account would otherwise take turns as the last key, and both miss the fast path.
  private readonly debtorIbans = new BoundedCache<string, IbanCheck>();
  private readonly creditorIbans = new BoundedCache<string, IbanCheck>();
  /** A currency as written → its code in capitals and whether one can pay with it. */
  private readonly currencyCache = new BoundedCache<string, { code: string; known: boolean }>(64);
  private readonly dateCache = new BoundedCache<string, LocalDate | null>();
  private readonly businessCache = new BoundedCache<LocalDate, boolean>();
  private readonly parseAmount: AmountParser;

  constructor(
    private readonly options: LineRuleOptions,
    private readonly format: LineFormat,
  ) {
    this.policy = options.nonBusinessDayPolicy ?? 'flag';
    this.charset = options.charset ?? {};
    this.parseAmount = compileAmountParser(format.decimalFormat);
  }

  check(line: RawPaymentLine): LineResult {
    const ctx: Ctx = { line, issues: [] };
    // Every field is read and trimmed once, by name: this runs for each of millions of lines.
    const f = line.fields;
    const debtorIbanText = value(f.debtorIban);
    const debtorNameText = value(f.debtorName);
    const dateText = value(f.requestedExecutionDate);
    const endToEndId = value(f.endToEndId);
    const amountText = value(f.amount);
    const currencyText = value(f.currency);
    const creditorIbanText = value(f.creditorIban);
    const creditorNameText = value(f.creditorName);
    if (
      !debtorIbanText ||
      !debtorNameText ||
      !dateText ||
      !endToEndId ||
      !amountText ||
      !currencyText ||
      !creditorIbanText ||
      !creditorNameText
    ) {
      for (const field of REQUIRED_FIELDS) {
        if (value(f[field]) !== undefined) continue;
        const code =
          field === 'endToEndId'
            ? IssueCode.E2E_MISSING
            : field.endsWith('Name')
              ? IssueCode.NAME_MISSING
              : IssueCode.FIELD_MISSING;
        add(ctx, code, 'error', field, `${field} is required but empty or missing`);
      }
    }

    const debtorIban = this.iban(ctx, 'debtorIban', debtorIbanText);
    const creditorIban = this.iban(ctx, 'creditorIban', creditorIbanText);
    const onboarded = this.options.onboardedDebtorAccounts;
    const debtorProblem =
      debtorIban === undefined
        ? undefined
        : this.options.debtorAccountProblem?.(debtorIban, currencyText && this.currency(currencyText).code);
    if (debtorProblem?.currency)
      add(ctx, IssueCode.DEBTOR_CURRENCY_MISMATCH, 'error', 'currency', debtorProblem.message);
    else if (debtorProblem !== undefined)
      add(ctx, IssueCode.DEBTOR_ACCOUNT_NOT_ONBOARDED, 'error', 'debtorIban', debtorProblem.message);
    else if (debtorIban !== undefined && onboarded && !onboarded.has(debtorIban)) {
      add(
        ctx,
        IssueCode.DEBTOR_ACCOUNT_NOT_ONBOARDED,
        'error',
        'debtorIban',
        `debtor account ${debtorIban} is not one of the company's onboarded accounts`,
      );
    }

    let creditorBic = value(f.creditorBic);
    if (creditorBic !== undefined) {
      creditorBic = creditorBic.toUpperCase();
      if (!checkBic(creditorBic))
        add(
          ctx,
          IssueCode.BIC_INVALID,
          'error',
          'creditorBic',
          `BIC "${creditorBic}" is not 8 or 11 characters of the ISO 9362 form`,
        );
    }

    const { amount, amountRead } = this.amount(ctx, amountText, currencyText);
    const date = this.date(ctx, dateText);

    if (endToEndId !== undefined) {
      if (endToEndId.length > MAX_E2E)
        add(
          ctx,
          IssueCode.E2E_TOO_LONG,
          'error',
          'endToEndId',
          `end-to-end id has ${endToEndId.length} characters; at most ${MAX_E2E} are allowed`,
        );
      this.identifier(ctx, 'endToEndId', endToEndId);
    }
    const creditorReference = value(f.creditorReference);
    if (creditorReference !== undefined) {
      if (!validCreditorReference(creditorReference)) {
        const why =
          creditorReference.length > MAX_REFERENCE
            ? `is longer than ${MAX_REFERENCE} characters`
            : 'fails its RF (ISO 11649) check digits';
        add(
          ctx,
          IssueCode.CREDITOR_REFERENCE_INVALID,
          'error',
          'creditorReference',
          `creditor reference "${creditorReference}" ${why}`,
        );
      }
      this.identifier(ctx, 'creditorReference', creditorReference);
    }
    const debtorName = this.freeText(ctx, 'debtorName', debtorNameText, MAX_NAME, IssueCode.NAME_TOO_LONG);
    const creditorName = this.freeText(ctx, 'creditorName', creditorNameText, MAX_NAME, IssueCode.NAME_TOO_LONG);
    const remittance = this.freeText(
      ctx,
      'remittanceInformation',
      value(f.remittanceInformation),
      MAX_REMITTANCE,
      IssueCode.REMITTANCE_TOO_LONG,
    );

    let priority: InstructionPriority | undefined;
    const priorityText = value(f.instructionPriority)?.toLowerCase();
    if (priorityText !== undefined) {
      if (priorityText === 'normal' || priorityText === 'norm') priority = 'normal';
      else if (priorityText === 'high') priority = 'high';
      else
        add(
          ctx,
          IssueCode.PRIORITY_INVALID,
          'error',
          'instructionPriority',
          `instruction priority "${priorityText}" is not one of normal, high (NORM, HIGH)`,
        );
    }

    const categoryPurpose = value(f.categoryPurpose)?.toUpperCase();
    if (categoryPurpose !== undefined && !/^[A-Z0-9]{1,4}$/.test(categoryPurpose))
      add(
        ctx,
        IssueCode.CATEGORY_PURPOSE_INVALID,
        'error',
        'categoryPurpose',
        `category purpose "${categoryPurpose}" is not an ISO 20022 code of up to 4 letters or digits (e.g. SALA for salaries, SUPP for suppliers)`,
      );

    // Fields most lines lack: read only when present (the common line pays for three tests).
    const ultimateDebtor =
      f.ultimateDebtor &&
      this.freeText(ctx, 'ultimateDebtor', value(f.ultimateDebtor), MAX_NAME, IssueCode.NAME_TOO_LONG);
    const ultimateCreditor =
      f.ultimateCreditor &&
      this.freeText(ctx, 'ultimateCreditor', value(f.ultimateCreditor), MAX_NAME, IssueCode.NAME_TOO_LONG);
    const purpose = f.purpose && value(f.purpose)?.toUpperCase();
    if (purpose !== undefined && !/^[A-Z0-9]{4}$/.test(purpose))
      add(
        ctx,
        IssueCode.PURPOSE_INVALID,
        'error',
        'purpose',
        `purpose "${purpose}" is not an ISO 20022 purpose code of four letters or digits (e.g. SUPP for a supplier, SALA for a salary, TAXS for tax)`,
      );

    // Quoted back as written (pain.002, camt.053/054), never sent: only its length is held, to the field it came from.
    const instructionId = f.instructionId && value(f.instructionId);
    if (instructionId !== undefined && instructionId.length > MAX_INSTRUCTION_ID)
      add(
        ctx,
        IssueCode.INSTRUCTION_ID_TOO_LONG,
        'error',
        'instructionId',
        `instruction id has ${instructionId.length} characters; at most ${MAX_INSTRUCTION_ID} are allowed`,
      );

    // Kept for the changed-account control, never sent: compared as written, so only the length is held.
    const creditorOrgId = f.creditorOrgId && this.creditorId(ctx, 'creditorOrgId', value(f.creditorOrgId));
    const creditorOrgScheme =
      f.creditorOrgScheme && this.creditorId(ctx, 'creditorOrgScheme', value(f.creditorOrgScheme));
    const creditorId = f.creditorId && this.creditorId(ctx, 'creditorId', value(f.creditorId));

    const { issues } = ctx;
    if (issues.length > 0 && issues.some((i) => i.severity === 'error'))
      return amountRead ? { issues, amount: amountRead } : { issues };
    const payment: PaymentInstruction = {
      debtorIban: debtorIban!,
      debtorName: debtorName!,
      requestedExecutionDate: date!,
      endToEndId: endToEndId!,
      amount: amount!,
      creditorIban: creditorIban!,
      creditorName: creditorName!,
      lineNumber: line.lineNumber,
    };
    if (creditorBic !== undefined) payment.creditorBic = creditorBic;
    if (remittance !== undefined) payment.remittanceInformation = remittance;
    if (creditorReference !== undefined) payment.creditorReference = creditorReference;
    if (priority !== undefined) payment.instructionPriority = priority;
    if (categoryPurpose !== undefined) payment.categoryPurpose = categoryPurpose;
    if (ultimateDebtor) payment.ultimateDebtor = ultimateDebtor;
    if (ultimateCreditor) payment.ultimateCreditor = ultimateCreditor;
    if (purpose !== undefined) payment.purpose = purpose;
    if (instructionId !== undefined) payment.instructionId = instructionId;
    if (creditorOrgId) payment.creditorOrgId = creditorOrgId;
    // A scheme says what kind of number the line's number is: without a number it says nothing.
    if (creditorOrgId && creditorOrgScheme) payment.creditorOrgScheme = creditorOrgScheme;
    if (creditorId) payment.creditorId = creditorId;
    if (line.batchBooking !== undefined) payment.batchBooking = line.batchBooking;
    if (line.paymentInformationId !== undefined) payment.paymentInformationId = line.paymentInformationId;
    return { payment, issues, amount: payment.amount };
  }

  private iban(ctx: Ctx, field: 'debtorIban' | 'creditorIban', v: string | undefined): string | undefined {
    if (v === undefined) return undefined;
    const cache = field === 'debtorIban' ? this.debtorIbans : this.creditorIbans;
    let check = cache.get(v);
    if (!check) cache.set(v, (check = checkIban(v)));
    if (!check.ok) add(ctx, IssueCode.IBAN_INVALID, 'error', field, check.message);
    return check.iban;
  }

  /** Keyed by the text as written, so a repeated currency is neither capitalised nor looked up again. */
  private currency(text: string): { code: string; known: boolean } {
    let currency = this.currencyCache.get(text);
    if (currency === undefined) {
      const code = text.toUpperCase();
      this.currencyCache.set(text, (currency = { code, known: isCurrencyCode(code) }));
    }
    return currency;
  }

  private maxFor(currency: string): bigint | undefined {
    const { maxAmount } = this.options;
    if (!maxAmount) return undefined;
    if (this.maxByCurrency.has(currency)) return this.maxByCurrency.get(currency);
    const limit = maxAmount[currency] ?? maxAmount['*'];
    const parsed = limit === undefined ? undefined : parseAmount(limit, currency);
    const max = parsed?.ok ? parsed.money.minor : undefined;
    this.maxByCurrency.set(currency, max);
    return max;
  }

  private amount(
    ctx: Ctx,
    amountText: string | undefined,
    currencyText: string | undefined,
  ): { amount?: Money; amountRead?: Money } {
    if (currencyText === undefined) return {};
    const { code: currency, known } = this.currency(currencyText);
    if (!known)
      add(
        ctx,
        IssueCode.CURRENCY_INVALID,
        'error',
        'currency',
        `"${currency}" is not an ISO 4217 currency code one can pay with`,
      );
    if (amountText === undefined || !known) return {};
    const parsed = this.parseAmount(amountText, currency);
    if (!parsed.ok) {
      const code = parsed.problem === 'precision' ? IssueCode.AMOUNT_PRECISION : IssueCode.AMOUNT_SYNTAX;
      add(ctx, code, 'error', 'amount', parsed.message + settingHint(this.format, parsed.seems));
      return {};
    }
    const money = parsed.money;
    if (money.minor <= 0n) {
      add(ctx, IssueCode.AMOUNT_NOT_POSITIVE, 'error', 'amount', `amount "${amountText}" must be greater than zero`);
      return { amountRead: money };
    }
    const max = this.maxFor(currency);
    if (max !== undefined && money.minor > max) {
      const limit = this.options.maxAmount?.[currency] ?? this.options.maxAmount?.['*'];
      add(
        ctx,
        IssueCode.AMOUNT_ABOVE_MAXIMUM,
        'error',
        'amount',
        `amount "${amountText}" ${currency} is above the configured maximum ${limit}`,
      );
      return { amountRead: money };
    }
    return { amount: money, amountRead: money };
  }

  private date(ctx: Ctx, dateText: string | undefined): LocalDate | undefined {
    if (dateText === undefined) return undefined;
    let parsed = this.dateCache.get(dateText);
    if (parsed === undefined)
      this.dateCache.set(dateText, (parsed = parseDate(dateText, this.format.dateFormat) ?? null));
    if (parsed === null) {
      add(
        ctx,
        IssueCode.EXECUTION_DATE_INVALID,
        'error',
        'requestedExecutionDate',
        `"${dateText}" is not a calendar date in the format ${this.format.dateFormat}`,
      );
      return undefined;
    }
    if (parsed < this.options.asOf) {
      add(
        ctx,
        IssueCode.EXECUTION_DATE_PAST,
        'error',
        'requestedExecutionDate',
        `execution date ${parsed} is before ${this.options.asOf}`,
      );
      return undefined;
    }
    if (this.isBusiness(parsed)) return parsed;
    const why = this.options.calendar?.holidayName(parsed) ?? 'a weekend day';
    if (this.policy === 'reject') {
      add(
        ctx,
        IssueCode.EXECUTION_DATE_NOT_BUSINESS_DAY,
        'error',
        'requestedExecutionDate',
        `execution date ${parsed} is not a business day (${why})`,
      );
      return undefined;
    }
    if (this.policy === 'flag') {
      add(
        ctx,
        IssueCode.EXECUTION_DATE_NOT_BUSINESS_DAY,
        'warning',
        'requestedExecutionDate',
        `execution date ${parsed} is not a business day (${why}); the bank may execute it later`,
      );
      return parsed;
    }
    let next = parsed;
    do next = addDays(next, 1);
    while (!this.isBusiness(next));
    add(
      ctx,
      IssueCode.EXECUTION_DATE_MOVED,
      'warning',
      'requestedExecutionDate',
      `execution date ${parsed} is not a business day (${why}); moved to ${next}`,
    );
    return next;
  }

  private isBusiness(d: LocalDate): boolean {
    let known = this.businessCache.get(d);
    if (known === undefined)
      this.businessCache.set(
        d,
        (known = this.options.calendar ? this.options.calendar.isBusinessDay(d) : !isWeekend(d)),
      );
    return known;
  }

  private identifier(ctx: Ctx, field: PaymentField, value: string): void {
    const bad = charactersOutside(this.charset, value);
    if (bad.length > 0)
      add(
        ctx,
        IssueCode.CHARSET_INVALID,
        'error',
        field,
        `${field} "${value}" contains characters outside the allowed set (${bad.map(show).join(' ')}); identifiers are never transliterated`,
      );
  }

  /** An organisation number, its scheme or an ERP creditor id: trimmed, empty is none, at most 35 characters. */
  private creditorId(
    ctx: Ctx,
    field: 'creditorOrgId' | 'creditorOrgScheme' | 'creditorId',
    raw: string | undefined,
  ): string | undefined {
    const id = raw?.trim();
    if (id === undefined || id === '') return undefined;
    if (id.length > MAX_CREDITOR_ID)
      add(
        ctx,
        IssueCode.CREDITOR_ID_TOO_LONG,
        'error',
        field,
        `${CREDITOR_ID_WORDS[field]} has ${id.length} characters; at most ${MAX_CREDITOR_ID} are allowed`,
      );
    return id;
  }

  private freeText(
    ctx: Ctx,
    field: PaymentField,
    raw: string | undefined,
    max: number,
    tooLong: IssueCode,
  ): string | undefined {
    if (raw === undefined) return undefined;
    let text = raw;
    // Most text fits the set: checked first, so it costs one test and no result object.
    if (!fitsCharset(this.charset, raw)) {
      text = transliterate(this.charset, raw).text;
      add(
        ctx,
        IssueCode.CHARSET_TRANSLITERATED,
        'warning',
        field,
        `${field} changed to the allowed character set: "${raw}" → "${text}"`,
      );
    }
    if (text.length > max)
      add(ctx, tooLong, 'error', field, `${field} has ${text.length} characters; at most ${max} are allowed`);
    return text;
  }
}

/**
 * A Map that forgets everything when it reaches its size: enough for the repeats of one file.
 * The last key asked for is answered first without the Map: a file's lines mostly repeat the
 * line before (one debtor account, currency and date), and comparing two short strings costs
 * less than hashing a new one for the lookup.
 */
class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  private lastKey: K | undefined;
  private lastValue: V | undefined;
  constructor(private readonly max = 4096) {}
  get(key: K): V | undefined {
    if (key === this.lastKey) return this.lastValue;
    const value = this.map.get(key);
    if (value !== undefined) {
      this.lastKey = key;
      this.lastValue = value;
    }
    return value;
  }
  set(key: K, value: V): void {
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, value);
    this.lastKey = key;
    this.lastValue = value;
  }
}

/** What to change so that amounts written like this one are read: profile settings, or the pain.001 rule. */
function settingHint(format: LineFormat, seems: DecimalFormat | undefined): string {
  if (!seems) return '';
  if (format.profile === undefined)
    return '; pain.001 amounts are written with "." before the decimals and no thousands separator';
  const changes: string[] = [];
  if (seems.decimalSeparator !== format.decimalFormat.decimalSeparator)
    changes.push(`decimalSeparator: "${seems.decimalSeparator}"`);
  if ((seems.thousandsSeparator ?? '') !== (format.decimalFormat.thousandsSeparator ?? ''))
    changes.push(`thousandsSeparator: ${JSON.stringify(seems.thousandsSeparator ?? '')}`);
  return `: if the whole file is written so, set ${changes.join(' and ')} in CSV profile "${format.profile}"`;
}

function show(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return cp < 0x20 || cp === 0x7f || cp === 0xfffd ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : `"${ch}"`;
}

/** RF references (ISO 11649) carry mod-97 check digits; other references (e.g. KID) are only length-checked. */
export function validCreditorReference(ref: string): boolean {
  // The common case first: a reference of at most 35 characters whose first is a visible ASCII
  // character other than "R" or "r" (a KID, an invoice number) is no RF reference, so it passes
  // without the white-space removal and the reading.
  const first = ref.charCodeAt(0);
  if (ref.length <= MAX_REFERENCE && first > 0x20 && first < 0x7f && first !== 0x52 && first !== 0x72) return true;
  if (ref.replace(/\s+/g, '').length > MAX_REFERENCE) return false;
  const parsed = parseCreditorReference(ref);
  return parsed?.kind !== 'RF' || parsed.valid;
}
