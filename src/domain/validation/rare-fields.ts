// The fields most payment lines lack — priority, category purpose, ultimate parties, purpose,
// instruction id, creditor ids — checked apart from the line's other rules (line-rules.ts), in
// the same order and with the same issues, and only on a line that has one of them: the line
// rules' one big function stays small enough to compile cheaply, and a line without them pays
// for nine tests. The results are written into this one object, reused line after line (the line
// rules copy them into the payment at once): no object per line.
import type { InstructionPriority } from '../payment.js';
import { IssueCode } from './codes.js';
import { add, value, type Ctx } from './line-context.js';
import type { RawFields } from './raw-line.js';
import type { TextRules } from './text-rules.js';

const MAX_NAME = 70;
/** pain.001 InstrId is Max35Text, as is pain.002 OrgnlInstrId. */
const MAX_INSTRUCTION_ID = 35;

export class RareFields {
  priority: InstructionPriority | undefined;
  categoryPurpose: string | undefined;
  ultimateDebtor: string | undefined;
  ultimateCreditor: string | undefined;
  purpose: string | undefined;
  instructionId: string | undefined;
  creditorOrgId: string | undefined;
  creditorOrgScheme: string | undefined;
  creditorId: string | undefined;

  constructor(private readonly texts: TextRules) {}

  /** Reads and checks the line's rare fields (issues into `ctx`); this object then holds what was read. */
  read(ctx: Ctx, f: RawFields): this {
    if (
      f.instructionPriority === undefined &&
      f.categoryPurpose === undefined &&
      f.ultimateDebtor === undefined &&
      f.ultimateCreditor === undefined &&
      f.purpose === undefined &&
      f.instructionId === undefined &&
      f.creditorOrgId === undefined &&
      f.creditorOrgScheme === undefined &&
      f.creditorId === undefined
    ) {
      this.priority = undefined;
      this.categoryPurpose = undefined;
      this.ultimateDebtor = undefined;
      this.ultimateCreditor = undefined;
      this.purpose = undefined;
      this.instructionId = undefined;
      this.creditorOrgId = undefined;
      this.creditorOrgScheme = undefined;
      this.creditorId = undefined;
      return this;
    }
    this.check(ctx, f);
    return this;
  }

  private check(ctx: Ctx, f: RawFields): void {
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

    this.priority = priority;
    this.categoryPurpose = categoryPurpose;
    this.ultimateDebtor = ultimateDebtor;
    this.ultimateCreditor = ultimateCreditor;
    this.purpose = purpose;
    this.instructionId = instructionId;
    this.creditorOrgId = creditorOrgId;
    this.creditorOrgScheme = creditorOrgScheme;
    this.creditorId = creditorId;
  }
}
