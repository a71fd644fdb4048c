// The rules of one payment: every field checked, every problem reported (never only the
// first), and a PaymentInstruction built only when the line has no error. Pure and synchronous;
// the rules that need the whole file or the outside world live in payment-validator.ts.
import { checkBic, checkIban, type IbanCheck } from '../account-id.js';
import type { BusinessCalendar } from '../business-calendar.js';
import type { Issue } from '../issue.js';
import type { LocalDate } from '../local-date.js';
import type { Money } from '../money.js';
import type { InstructionPriority, PaymentInstruction } from '../payment.js';
import { AmountRule, type LineFormat } from './amount-rule.js';
import { BoundedCache } from './bounded-cache.js';
import type { CharsetRule } from './charset.js';
import { IssueCode } from './codes.js';
import { ExecutionDateRule, type NonBusinessDayPolicy } from './execution-date-rule.js';
import { add, value, type Ctx } from './line-context.js';
import { REQUIRED_FIELDS, type RawPaymentLine } from './raw-line.js';
import { MAX_REFERENCE, TextRules, validCreditorReference } from './text-rules.js';

export type { LineFormat } from './amount-rule.js';
export type { NonBusinessDayPolicy } from './execution-date-rule.js';
export { validCreditorReference } from './text-rules.js';

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
const MAX_REMITTANCE = 140;

export function compileLineRules(options: LineRuleOptions, format: LineFormat): LineRules {
  const checker = new LineChecker(options, format);
  return (line) => checker.check(line);
}

class LineChecker {
  // Files repeat the same debtor account, currency and execution date on every line and
  // often the same creditors: caching these checks makes validation cheap next to parsing.
  // The caches are bounded (cleared when full), so memory stays flat on any file.
  // One cache per account field: a line's debtor account (the same on every line) and its
  // creditor account would otherwise take turns as the last key, and both miss the fast path.
  private readonly debtorIbans = new BoundedCache<string, IbanCheck>();
  private readonly creditorIbans = new BoundedCache<string, IbanCheck>();
  private readonly amounts: AmountRule;
  private readonly dates: ExecutionDateRule;
  private readonly texts: TextRules;

  constructor(
    private readonly options: LineRuleOptions,
    format: LineFormat,
  ) {
    this.amounts = new AmountRule(options.maxAmount, format);
    this.dates = new ExecutionDateRule(options, format.dateFormat);
    this.texts = new TextRules(options.charset ?? {});
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
        : this.options.debtorAccountProblem?.(debtorIban, currencyText && this.amounts.currency(currencyText).code);
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

    const { amount, amountRead } = this.amounts.check(ctx, amountText, currencyText);
    const date = this.dates.check(ctx, dateText);

    if (endToEndId !== undefined) {
      if (endToEndId.length > MAX_E2E)
        add(
          ctx,
          IssueCode.E2E_TOO_LONG,
          'error',
          'endToEndId',
          `end-to-end id has ${endToEndId.length} characters; at most ${MAX_E2E} are allowed`,
        );
      this.texts.identifier(ctx, 'endToEndId', endToEndId);
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
      this.texts.identifier(ctx, 'creditorReference', creditorReference);
    }
    const debtorName = this.texts.freeText(ctx, 'debtorName', debtorNameText, MAX_NAME, IssueCode.NAME_TOO_LONG);
    const creditorName = this.texts.freeText(ctx, 'creditorName', creditorNameText, MAX_NAME, IssueCode.NAME_TOO_LONG);
    const remittance = this.texts.freeText(
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
      this.texts.freeText(ctx, 'ultimateDebtor', value(f.ultimateDebtor), MAX_NAME, IssueCode.NAME_TOO_LONG);
    const ultimateCreditor =
      f.ultimateCreditor &&
      this.texts.freeText(ctx, 'ultimateCreditor', value(f.ultimateCreditor), MAX_NAME, IssueCode.NAME_TOO_LONG);
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
    const creditorOrgId = f.creditorOrgId && this.texts.creditorId(ctx, 'creditorOrgId', value(f.creditorOrgId));
    const creditorOrgScheme =
      f.creditorOrgScheme && this.texts.creditorId(ctx, 'creditorOrgScheme', value(f.creditorOrgScheme));
    const creditorId = f.creditorId && this.texts.creditorId(ctx, 'creditorId', value(f.creditorId));

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
}
