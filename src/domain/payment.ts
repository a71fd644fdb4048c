// A payment instruction as settle stores and sends it: one line of an ERP file after
// validation. Readers produce raw text fields; validation turns them into this.
import type { LocalDate } from './local-date.js';
import type { Money } from './money.js';

export type InstructionPriority = 'normal' | 'high';

export interface PaymentInstruction {
  debtorIban: string;
  debtorName: string;
  requestedExecutionDate: LocalDate;
  endToEndId: string;
  amount: Money;
  creditorIban: string;
  creditorName: string;
  creditorBic?: string;
  /** Free-text remittance (RmtInf/Ustrd). */
  remittanceInformation?: string;
  /** Structured creditor reference (RmtInf/Strd/CdtrRefInf/Ref), e.g. a Norwegian KID or an RF reference. */
  creditorReference?: string;
  instructionPriority?: InstructionPriority;
  /**
   * ISO 20022 category purpose (pain.001 PmtTpInf/CtgyPurp/Cd, or a CSV column or profile
   * default), e.g. SALA for salaries: approvers without the payroll role see such lines as totals.
   */
  categoryPurpose?: string;
  /** On whose behalf the debtor pays (pain.001 UltmtDbtr/Nm, or a CSV column): carried to the bank. */
  ultimateDebtor?: string;
  /** For whom the payment is meant, when not the creditor (UltmtCdtr/Nm): carried to the bank. */
  ultimateCreditor?: string;
  /** ISO 20022 purpose code of the payment (Purp/Cd, e.g. SUPP, SALA, TAXS): carried to the bank. */
  purpose?: string;
  /** Batch booking asked for by the file (pain.001 BtchBookg); undefined = company default. */
  batchBooking?: boolean;
  /** 1-based position of the line in its file (CSV row, or transaction index in pain.001). */
  lineNumber: number;
  /**
   * The ERP's instruction id (pain.001 PmtId/InstrId, or a CSV column): not sent to the bank (the
   * bulk request has no field for it), kept and quoted back in pain.002 OrgnlInstrId and the
   * statements' Refs/InstrId, since some ERPs look their payments up by it.
   */
  instructionId?: string;
  /**
   * The creditor's organisation number (pain.001 Cdtr/Id/OrgId/Othr/Id, or a CSV column): kept, not
   * sent; the changed-account control knows a creditor by it first.
   */
  creditorOrgId?: string;
  /** The scheme of `creditorOrgId` as the file names it (Othr/SchmeNm/Cd or Prtry), if it does: kept with it. */
  creditorOrgScheme?: string;
  /** The ERP's own id of the creditor (a CSV column): kept, not sent; the control's second key. */
  creditorId?: string;
  /** pain.001 PmtInfId of the line's payment information block: pain.002 reports by it. */
  paymentInformationId?: string;
}
