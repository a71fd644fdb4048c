// One message model per payment: what the bank said about a payment, in the three forms its
// readers need. The ERP's files (pain.002, status CSV) carry the ISO reason code and the bank's
// own text; human reports and e-mails carry the action. Mapping tables: docs/payments.md
// "Why a line was refused". A line held or dropped by settle's own controls carries settle's
// reason code instead (./controls/reason-codes.ts), kept as it is.
import { isHoldReasonCode, RULE_REASON_CODES } from './controls/reason-codes.js';
import { isRecordedText, recorded, type RecordedText } from './recorded-text.js';

export interface LineMessage {
  /** ISO 20022 external status reason code (ExternalStatusReason1Code), e.g. AC03, DT01, AM04. */
  code: string;
  /** The bank's own words, as it gave them. */
  bankText: string;
  /**
   * Where `bankText` is settle's words (a hold, a drop, a cancellation, or what settle says when
   * the bank said nothing), the same sentence for the catalogue: the ERP's files carry it in the
   * company's language. The bank's own words are never translated.
   */
  words?: RecordedText;
  /** The request field the bank named (e.g. "requestedExecutionDate", "creditorAccount.iban"). */
  field?: string;
  /** 1-based line of the ERP file it concerns; absent when the bank named no line. */
  lineNumber?: number;
  /** What a person should do, in the accountant's words. */
  action: string;
}

/** Field of a bulk request (its line part removed) → ISO reason code. First match wins. */
const FIELD_CODES: readonly (readonly [RegExp, string])[] = [
  [/^requestedExecutionDate$/, 'DT01'],
  [/^debtorAccount/, 'AC02'],
  [/^debtorName$/, 'RR01'],
  [/^creditorAccount/, 'AC03'],
  [/^creditorName$/, 'RR03'],
  [/^instructedAmount\.currency$/, 'AM03'],
  [/^instructedAmount/, 'AM12'],
  [/^endToEndIdentification$/, 'RC11'],
  [/^remittanceInformation/, 'RR07'],
  [/^instructionPriority$/, 'CH16'],
  [/^batchBookingPreferred$/, 'CH16'],
  [/^paymentLines$/, 'AM18'],
  [/^$/, 'FF01'],
];

/** A problem answer without a field list, by HTTP status, for a refusal (facts §2.5, spec §7). */
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'FF01',
  401: 'AG01',
  403: 'AG01',
  404: 'AC02',
};

/** What a person does about each code; the bank's text says what was wrong. */
const ACTIONS: Readonly<Record<string, string>> = {
  DT01: 'Correct the execution date in the ERP (a future business day) and send the payment in a new file.',
  AC01: "Check the account number with the creditor, correct it in the ERP's supplier record and send the payment in a new file.",
  AC02: 'Ask the operator to check that the debtor account is onboarded and enabled for this company at the bank; then send the payment in a new file.',
  AC03: "Check the creditor's account number with the creditor, correct it in the ERP's supplier record and send the payment in a new file.",
  AC04: 'The account is closed: ask the creditor for their new account number and send the payment in a new file.',
  AC06: 'The account is blocked: contact the creditor before paying again.',
  AG01: 'The bank does not allow this payment from this account: ask the bank or the operator, then send it again in a new file.',
  AM03: "Pay from an account in the payment's currency, or correct the currency in the ERP, and send it in a new file.",
  AM04: 'Make sure the debtor account has funds to cover the payment, then send it again in a new file.',
  AM05: 'The payment was sent before: check the ledger before paying it again.',
  AM12: 'Correct the amount in the ERP and send the payment in a new file.',
  AM18: 'Split the payments into smaller files, then send them again.',
  RR01: "Correct the debtor's name in the ERP's company settings and send the payment in a new file.",
  RR03: "Fill in the creditor's name in the ERP's supplier record and send the payment in a new file.",
  RR07: 'Correct the payment message (remittance) in the ERP and send the payment in a new file.',
  RC11: 'Give the payment a unique reference in the ERP (its end-to-end id) and send it in a new file.',
  CH16: 'The bank refused the payment as invalid: correct it as the bank says and send it in a new file.',
  FF01: 'The bank refused the payment as invalid: correct it as the bank says and send it in a new file.',
  DS02: 'Cancelled at the company’s request (settle payments cancel or a camt.055): nothing was paid; send it again in a new file only if it is still owed.',
  MS03: 'The bank gave no reason: ask the bank, then decide whether to send the payment again.',
  NARR: 'Read the bank’s reason, correct the payment in the ERP and send it in a new file.',
};

/** ISO codes settle passes on unchanged when the bank gives one (ExternalStatusReason1Code form). */
const ISO_REASON = /^[A-Z]{2}\d{2}$|^NARR$/;

/** The ISO reason code for a code the bank gave in a tppMessage: kept when it is ISO, else NARR with its text. */
export function reasonCodeOf(bankCode: string | undefined): string {
  const code = bankCode?.trim().toUpperCase() ?? '';
  return ISO_REASON.test(code) ? code : 'NARR';
}

/** The ISO reason code for a request field the bank named (line prefix `paymentLines[i].` removed). */
export function reasonCodeForField(field: string): string {
  return FIELD_CODES.find(([pattern]) => pattern.test(field))?.[1] ?? 'NARR';
}

/** The ISO reason code for a refusal the bank explained only with an HTTP status. */
export function reasonCodeForStatus(status: number | undefined): string {
  return (status !== undefined ? STATUS_CODES[status] : undefined) ?? 'NARR';
}

/**
 * What the bank said about a payment it booked back after it was accepted (returned, reversed):
 * its return reason and its words, with the action for the reason. Money went out and came back.
 */
export function messageForReturn(reason: string, bankText: string | undefined, lineNumber: number): LineMessage {
  const code = reasonCodeOf(reason);
  return {
    code,
    bankText: bankText ?? 'Returned by the creditor’s bank',
    ...(bankText === undefined ? { words: recorded('lineText.returned') } : {}),
    lineNumber,
    action: `The payment was paid and came back to the debtor account. ${actionFor(code)}`,
  };
}

export function actionFor(code: string): string {
  return ACTIONS[code] ?? ACTIONS.NARR!;
}

/** Splits `paymentLines[3].creditorAccount.iban` into its line index (0-based) and the field within. */
export function splitLineField(path: string): { index?: number; field: string } {
  const m = /^paymentLines\[(\d+)\]\.?(.*)$/.exec(path);
  if (!m) return { field: path };
  return { index: Number(m[1]), field: m[2] ?? '' };
}

export interface BankProblem {
  status?: number;
  title?: string;
  detail?: string;
  /** A field error; settle's own (a passed cut-off) has its words' key and values beside the English. */
  errors?: readonly ({ field: string; message: string } & Partial<RecordedText>)[];
}

/** How many of the lines the bank named each other line of a refused bulk lists by number. */
export const NAMED_LINES_LISTED = 20;

/**
 * The messages of a refused bulk for each of its lines (given in the order they were sent):
 * a field error of `paymentLines[i]` goes to line i, a field error of the bulk itself (its
 * execution date, its debtor account) to every line, and a problem without a field list to
 * every line, saying plainly that the bank named none.
 */
export function messagesForRefusal(problem: BankProblem, lineNumbers: readonly number[]): Map<number, LineMessage[]> {
  const out = new Map<number, LineMessage[]>(lineNumbers.map((n) => [n, []]));
  const add = (lineNumber: number, message: LineMessage): void => void out.get(lineNumber)?.push(message);
  for (const error of problem.errors ?? []) {
    const { index, field } = splitLineField(error.field);
    const code = reasonCodeForField(field);
    const bankText = field === '' ? error.message : `${field} ${error.message}`;
    const words = isRecordedText(error) ? { words: recorded(error.key, error.values) } : {};
    const base = { code, bankText, ...words, ...(field !== '' ? { field } : {}), action: actionFor(code) };
    const lineNumber = index === undefined ? undefined : lineNumbers[index];
    if (lineNumber !== undefined) add(lineNumber, { ...base, lineNumber });
    else for (const n of lineNumbers) add(n, { ...base, lineNumber: n });
  }
  // The bank refuses a bulk whole: the lines it found nothing on go back too, and say why.
  // The named lines as a set and their list written once: a bulk of 50,000 lines with 5,000 named
  // cost 2.25e8 comparisons and three joins of the list for each line that was not named.
  const named = new Set(lineNumbers.filter((n) => (out.get(n) ?? []).length > 0));
  if (named.size > 0) {
    // Each line names the first lines the bank named and how many more; the named lines carry
    // the bank's own words themselves (a list of 5,000 on each of 45,000 lines was 1.3 GB).
    const list = [...named].slice(0, NAMED_LINES_LISTED).join(', ');
    const more = named.size - Math.min(named.size, NAMED_LINES_LISTED);
    const others = more === 0 ? '' : ` and ${more.toLocaleString('en')} other line${more === 1 ? '' : 's'}`;
    const bankText = `Refused with its bulk because of line ${list}${others} (nothing named on this line)`;
    const words =
      more === 0
        ? recorded('lineText.refusedWithBulk', { lines: list })
        : recorded('lineText.refusedWithBulkMany', { lines: list, more });
    const action = `Nothing is wrong with this line: send it again in a new file, with line ${list}${others} corrected.`;
    for (const n of lineNumbers) if (!named.has(n)) add(n, { code: 'FF01', bankText, words, lineNumber: n, action });
  }
  if ((problem.errors ?? []).length === 0) {
    const code = reasonCodeForStatus(problem.status);
    const said = [problem.title, problem.detail].filter((t) => t !== undefined && t !== '').join(': ');
    const bankText = `${said || 'The bank refused the whole bulk'} (the bank named no line)`;
    const words = recorded('lineText.bankNamedNoLine', { said: said || recorded('lineText.wholeBulk') });
    for (const n of lineNumbers) add(n, { code, bankText, words, lineNumber: n, action: actionFor(code) });
  }
  return out;
}

/** The message of a line the bank rejected with a tppMessage (after it took the bulk). */
export function messageForTpp(
  tpp: { code?: string; message?: string | null; key?: string; values?: unknown },
  lineNumber: number,
): LineMessage {
  // A message settle stored with its own words (a hold, a drop, a cancellation) has their key.
  const own = isRecordedText(tpp) ? { words: recorded(tpp.key, tpp.values) } : {};
  if (tpp.code !== undefined && isHoldReasonCode(tpp.code))
    return { code: tpp.code, bankText: tpp.message ?? '', ...own, lineNumber, action: holdAction(tpp.code) };
  const code = reasonCodeOf(tpp.code);
  const text = tpp.message ?? '';
  const bankText = code === 'NARR' && tpp.code ? `${tpp.code}${text ? `: ${text}` : ''}` : text || `reason ${code}`;
  const words =
    bankText === `reason ${code}` && text === '' ? { words: recorded('lineText.reasonCode', { code }) } : own;
  return { code, bankText, ...words, lineNumber, action: actionFor(code) };
}

const DROPPED: ReadonlySet<string> = new Set(Object.values(RULE_REASON_CODES).map((c) => c.dropped));

/** What to do about a line settle's controls hold or a person dropped after a hold. */
function holdAction(code: string): string {
  return DROPPED.has(code)
    ? 'A person dropped it after a hold: nothing was paid; send it again in a new file only if it is still owed.'
    : 'Wait: a person releases or drops it in settle (settle payments held); do not send it again from the ERP.';
}
