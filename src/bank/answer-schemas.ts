// The shape of the answers the payment jobs act on, checked at the client's edge before the
// tolerant readers (readers.ts) turn them into canonical values. Tolerance stays where the
// bank's own documents disagree (facts §10: status casing, `id` for `paymentId`, `tppMessage`
// and `tppMessages`, nulls for absent fields); an identifier or a status of the wrong type or
// form is refused, never converted: `{"paymentId": 12345}` is not a payment id (issue #50).
import { z } from 'zod';
import { BankError, BANK_ERROR_CODES } from './bank-error.js';

/**
 * A resource id: a string, as spec §5 types every id, of the characters the bank's ids use (UUIDs,
 * hex, `BULK-9`, `auth9000`), at most 128 of them. No spaces, slashes or control characters: the
 * id goes back into a URL path and into the store.
 */
export const bankIdentifier = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._~:-]{0,127}$/, {
  message: 'expected an identifier (letters, digits and . _ ~ : -, at most 128)',
});

/** An ISO 20022 transaction status: four letters, in any casing the bank writes (facts §10.4). */
export const transactionStatus = z.string().regex(/^\s*[A-Za-z]{4}\s*$/, {
  message: 'expected a four-letter transaction status such as ACSC',
});

/** A consent or SCA status word: letters, with the separators its spellings use (`awaiting_approval`). */
const statusWord = z.string().regex(/^\s*[A-Za-z][A-Za-z _-]{0,39}\s*$/, { message: 'expected a status word' });

const line = z.looseObject({
  paymentId: bankIdentifier.nullish(),
  transactionStatus: transactionStatus.nullish(),
});

const lines = z.array(z.unknown()).nullish();

/** paymentId, or `id` when the bank names it so; at least one must be there. */
const paymentIds = { paymentId: bankIdentifier.nullish(), id: bankIdentifier.nullish() };

export const ANSWER_SCHEMAS = {
  bulkCreated: z.looseObject({ ...paymentIds, transactionStatus: transactionStatus.nullish(), paymentLines: lines }),
  payment: z.looseObject({ ...paymentIds, transactionStatus, paymentLines: lines }),
  paymentStatus: z.looseObject({ ...paymentIds, transactionStatus }),
  signingBasket: z.looseObject({
    basketId: bankIdentifier.nullish(),
    id: bankIdentifier.nullish(),
    paymentIds: z.array(bankIdentifier).nullish(),
    transactionStatus: transactionStatus.nullish(),
    requiredAuthorizations: z.number().int().nonnegative().nullish(),
    remainingAuthorizations: z.number().int().nonnegative().nullish(),
  }),
  scaAuthorization: z.looseObject({
    authorizationId: bankIdentifier.nullish(),
    authorisationId: bankIdentifier.nullish(),
    scaStatus: statusWord.nullish(),
  }),
  consent: z.looseObject({
    consentId: bankIdentifier.nullish(),
    id: bankIdentifier.nullish(),
    status: statusWord.nullish(),
  }),
  line,
} as const;

/**
 * The answer, checked against its schema; a misfit is ERR_BANK_INVALID_RESPONSE naming the field
 * and what was expected (never the value: it may be anything the bank sent).
 */
export function fit(schema: z.ZodType, value: unknown, what: string): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the answer';
  throw new BankError(
    BANK_ERROR_CODES.invalidResponse,
    `the bank's ${what} could not be read: ${where}: ${issue?.message ?? 'does not fit the API'}`,
  );
}
