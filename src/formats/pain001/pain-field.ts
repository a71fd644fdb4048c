// A pain.001 payment's fields as the reader collects them: by position (PAYMENT_FIELDS order),
// each value with where it was found, its location built only when an issue asks for it.
import type { IssueLocation } from '../../domain/issue.js';
import type { RawField, RawFields } from '../../domain/validation/raw-line.js';

/**
 * A field whose location is built when asked: the payment's (or block's) path and the field's
 * key are kept as they are and joined only for an issue, so a valid payment's field is one
 * object and no path string (the CSV reader's fields are built the same way).
 */
export class PainField implements RawField {
  constructor(
    public value: string,
    private readonly base: string,
    /** The path from `base` ("Amt/InstdAmt"); '' when `base` is the field's whole path. */
    private readonly key: string,
  ) {}

  get location(): IssueLocation {
    return { path: this.key === '' ? this.base : `${this.base}/${this.key}` };
  }
}

/** A block's or payment's fields by position in PAYMENT_FIELDS (a keyed store by field name was megamorphic). */
export type FieldSlots = (RawField | undefined)[];

/** Twenty empty slots written out: an array literal is one allocation, and cheaper to compile than Array(20).fill. */
// prettier-ignore
export const fieldSlots = (): FieldSlots => [
  undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined,
  undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined,
];

/**
 * The payment's fields as the line rules read them, by name in PAYMENT_FIELDS order (the shape
 * every line shares): its own, else the six it inherits from its block (`inherited`); the three
 * required ones the block lacks are the block's stand-ins (`stand`).
 */
export function paymentFields(
  own: FieldSlots,
  inherited: FieldSlots | undefined,
  stand: (slot: 0 | 1 | 2) => RawField | undefined,
): RawFields {
  const b = inherited;
  return {
    debtorIban: own[0] ?? (b ? (b[0] ?? stand(0)) : undefined),
    debtorName: own[1] ?? (b ? (b[1] ?? stand(1)) : undefined),
    requestedExecutionDate: own[2] ?? (b ? (b[2] ?? stand(2)) : undefined),
    endToEndId: own[3],
    amount: own[4],
    currency: own[5],
    creditorIban: own[6],
    creditorName: own[7],
    creditorBic: own[8],
    remittanceInformation: own[9],
    creditorReference: own[10],
    instructionPriority: own[11] ?? b?.[11],
    categoryPurpose: own[12] ?? b?.[12],
    ultimateDebtor: own[13] ?? b?.[13],
    ultimateCreditor: own[14],
    purpose: own[15],
    instructionId: own[16],
    creditorOrgId: own[17],
    creditorOrgScheme: own[18],
    creditorId: own[19],
  };
}
