// Validation of a bulk credit-transfer request (spec §2.6). All problems are collected in one
// pass and answered as one 400 with an `errors` list, field paths like paymentLines[2].instructedAmount.amount.
import { checkBic, checkIban } from '../domain/account-id.js';
import { isLocalDate, type LocalDate } from '../domain/local-date.js';
import { parseAmount } from '../domain/money.js';
import type { PaymentLine } from './model.js';
import type { FieldError } from './problems.js';

/** A request line as the bank records it, before it has an id and a status. */
export type ParsedLine = Omit<PaymentLine, 'paymentId' | 'status' | 'tppMessages' | 'history' | 'transactionId'>;

export interface ParsedBulk {
  debtorIban: string;
  debtorName: string | null;
  requestedExecutionDate: LocalDate;
  batchBookingPreferred: boolean;
  lines: ParsedLine[];
}

const E2E = /^[A-Za-z0-9/\-?:().,'+ ]{1,35}$/;

/**
 * `sameDayRefusal` says why a date of today cannot be executed for this debtor account (its
 * bank's cut-off has passed, or it takes no same-day payments); undefined: today is accepted.
 * Without it, as the spec says, only future dates are accepted.
 */
export function parseBulkRequest(
  body: unknown,
  today: LocalDate,
  maxLines: number,
  sameDayRefusal: (debtorIban: string) => string | undefined = () => `must be a future date (after ${today})`,
): { ok: true; bulk: ParsedBulk } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const err = (field: string, message: string): void => void errors.push({ field, message });
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { ok: false, errors: [{ field: '', message: 'the body must be a JSON object' }] };
  const b = body as Record<string, unknown>;
  const text = (v: unknown, field: string, max: number, required: boolean): string | null => {
    if (v === undefined || v === null) {
      if (required) err(field, 'is required');
      return null;
    }
    if (typeof v !== 'string') return (err(field, 'must be a string'), null);
    if (required && v.trim() === '') return (err(field, 'must not be empty'), null);
    if (v.length > max) return (err(field, `must be at most ${max} characters`), null);
    return v;
  };
  const iban = (v: unknown, field: string): string => {
    const o = v as Record<string, unknown> | null | undefined;
    if (o === null || typeof o !== 'object') return (err(field, 'is required (an object with iban)'), '');
    if (typeof o.iban !== 'string') return (err(`${field}.iban`, 'is required'), '');
    const check = checkIban(o.iban);
    if (!check.ok) err(`${field}.iban`, check.message);
    return check.iban;
  };

  const debtorIban = iban(b.debtorAccount, 'debtorAccount');
  const debtorName = text(b.debtorName, 'debtorName', 70, false);
  let requestedExecutionDate = today;
  if (typeof b.requestedExecutionDate !== 'string' || !isLocalDate(b.requestedExecutionDate)) {
    err('requestedExecutionDate', 'is required as a date (YYYY-MM-DD)');
  } else if (b.requestedExecutionDate < today) {
    err('requestedExecutionDate', `must be a future date (after ${today})`);
  } else if (b.requestedExecutionDate === today && sameDayRefusal(debtorIban) !== undefined) {
    err('requestedExecutionDate', sameDayRefusal(debtorIban)!);
  } else {
    requestedExecutionDate = b.requestedExecutionDate;
  }
  if (b.batchBookingPreferred !== undefined && typeof b.batchBookingPreferred !== 'boolean')
    err('batchBookingPreferred', 'must be a boolean');

  const lines: ParsedLine[] = [];
  if (!Array.isArray(b.paymentLines) || b.paymentLines.length === 0) {
    err('paymentLines', 'must be an array with at least one line');
  } else if (b.paymentLines.length > maxLines) {
    err('paymentLines', `must have at most ${maxLines} lines`);
  } else {
    const seen = new Set<string>();
    b.paymentLines.forEach((raw: unknown, i) => {
      const at = `paymentLines[${i}]`;
      if (raw === null || typeof raw !== 'object') return err(at, 'must be an object');
      const l = raw as Record<string, unknown>;
      const e2e = text(l.endToEndIdentification, `${at}.endToEndIdentification`, 35, true);
      if (e2e !== null) {
        if (!E2E.test(e2e)) err(`${at}.endToEndIdentification`, 'has characters outside the SEPA/ISO 20022 set');
        if (seen.has(e2e)) err(`${at}.endToEndIdentification`, `"${e2e}" is used twice in this bulk`);
        seen.add(e2e);
      }
      let minor = 0n;
      let currency = '';
      const amt = l.instructedAmount as Record<string, unknown> | null | undefined;
      if (amt === null || typeof amt !== 'object') {
        err(`${at}.instructedAmount`, 'is required');
      } else if (typeof amt.currency !== 'string') {
        err(`${at}.instructedAmount.currency`, 'is required');
      } else if (typeof amt.amount !== 'string') {
        err(`${at}.instructedAmount.amount`, 'is required as a decimal string (e.g. "1500.00")');
      } else {
        const parsed = parseAmount(amt.amount, amt.currency);
        if (!parsed.ok)
          err(`${at}.instructedAmount.${parsed.problem === 'currency' ? 'currency' : 'amount'}`, parsed.message);
        else if (parsed.money.minor <= 0n) err(`${at}.instructedAmount.amount`, 'must be greater than zero');
        else ({ minor, currency } = parsed.money);
      }
      const creditorIban = iban(l.creditorAccount, `${at}.creditorAccount`);
      const creditorName = text(l.creditorName, `${at}.creditorName`, 70, true);
      const remittance = text(
        l.remittanceInformationUnstructured,
        `${at}.remittanceInformationUnstructured`,
        140,
        false,
      );
      const creditorAgent = text(l.creditorAgent, `${at}.creditorAgent`, 11, false);
      if (creditorAgent !== null && !checkBic(creditorAgent.toUpperCase()))
        err(`${at}.creditorAgent`, 'must be a BIC of 8 or 11 characters');
      const ultimateDebtor = text(l.ultimateDebtor, `${at}.ultimateDebtor`, 70, false);
      const ultimateCreditor = text(l.ultimateCreditor, `${at}.ultimateCreditor`, 70, false);
      const purposeCode = text(l.purposeCode, `${at}.purposeCode`, 4, false);
      if (purposeCode !== null && !/^[A-Z0-9]{4}$/.test(purposeCode))
        err(`${at}.purposeCode`, 'must be an ISO 20022 purpose code (4 letters or digits)');
      const structuredReference = structured(
        l.remittanceInformationStructured,
        `${at}.remittanceInformationStructured`,
        err,
      );
      let priority = 'normal';
      if (l.instructionPriority !== undefined && l.instructionPriority !== null) {
        if (typeof l.instructionPriority !== 'string' || !/^(normal|high)$/i.test(l.instructionPriority))
          err(`${at}.instructionPriority`, 'must be normal or high');
        else priority = l.instructionPriority.toLowerCase();
      }
      lines.push({
        endToEndIdentification: e2e ?? '',
        minor,
        currency,
        creditorIban,
        creditorName: creditorName ?? '',
        creditorAgent,
        ultimateDebtor,
        ultimateCreditor,
        purposeCode,
        remittance,
        structuredReference,
        instructionPriority: priority,
      });
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    bulk: {
      debtorIban,
      debtorName,
      requestedExecutionDate,
      batchBookingPreferred: b.batchBookingPreferred === true,
      lines,
    },
  };
}

/** remittanceInformationStructured: {reference (1–35), referenceType?: KID | RF}, or absent. */
function structured(
  v: unknown,
  field: string,
  err: (field: string, message: string) => void,
): ParsedLine['structuredReference'] {
  if (v === undefined || v === null) return null;
  const o = v as Record<string, unknown>;
  if (
    typeof o !== 'object' ||
    typeof o.reference !== 'string' ||
    o.reference.trim() === '' ||
    o.reference.length > 35
  ) {
    err(`${field}.reference`, 'is required as a string of 1 to 35 characters');
    return null;
  }
  const type = o.referenceType;
  if (type !== undefined && type !== null && type !== 'KID' && type !== 'RF') {
    err(`${field}.referenceType`, 'must be KID or RF');
    return null;
  }
  return { reference: o.reference, referenceType: typeof type === 'string' ? type : null };
}
