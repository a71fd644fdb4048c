// What settle does with every element of a pain.001 message, as one tree from the message
// element down: each element is carried to the bank, checked, kept by settle, deliberately
// ignored (with why it does not change what is paid), or refused (located, with why). An
// element a "read" element holds that is not in this tree is refused too: it may be a
// misspelling that hides a value (the npm `sepa` writer's <CdorPrtry> holds the creditor
// reference). The tree is the union of every version settle reads (versions.ts); a test holds it
// to each version's schema (test/formats/pain001/element-policy.test.ts), and
// docs/formats/pain001.md shows it as a table generated from it (npm run docs:policy).
import type { PaymentField } from '../../domain/validation/raw-line.js';

/** What an element is to settle; a "read" element's children are judged one by one. */
export type Rule =
  | { kind: 'read'; children: Readonly<Record<string, Rule>>; special?: Special }
  /** Its text is a payment field that the bulk request carries as `to`. */
  | { kind: 'carried'; field: PaymentField; to: string; children?: Readonly<Record<string, Rule>> }
  /** A value settle checks: a control total, or one of `allowed` (else refused with `code`). */
  | {
      kind: 'checked';
      what: string;
      special?: Special;
      allowed?: readonly string[];
      code?: 'PAYMENT_METHOD_UNSUPPORTED' | 'ELEMENT_UNSUPPORTED';
      why?: string;
    }
  /** Read and kept by settle (status reports, approvals), not sent: it does not change what is paid. */
  | { kind: 'kept'; why: string; field?: PaymentField; special?: Special }
  /** Read past: it does not change what is paid, for the reason given. */
  | { kind: 'ignored'; why: string }
  /** Refused wherever it appears: settle cannot carry it, and paying without it pays something else. */
  | { kind: 'refused'; why: string; children?: Readonly<Record<string, Rule>> };

/** Elements the document handler treats itself: control values, ids, the block and the payment (CdtTrfTxInf). */
export type Special =
  'MsgId' | 'GroupNbOfTxs' | 'GroupCtrlSum' | 'PmtInfId' | 'NbOfTxs' | 'CtrlSum' | 'BtchBookg' | 'Block' | 'Payment';

const read = (children: Record<string, Rule>, s?: Special): Rule =>
  s === undefined ? { kind: 'read', children } : { kind: 'read', children, special: s };
const carried = (field: PaymentField, to: string, children?: Record<string, Rule>): Rule =>
  children ? { kind: 'carried', field, to, children } : { kind: 'carried', field, to };
const ignored = (why: string): Rule => ({ kind: 'ignored', why });
const refused = (why: string): Rule => ({ kind: 'refused', why });
const special = (what: string, s: Special): Rule => ({ kind: 'checked', what, special: s });

const NOT_A_PARTY_NAME = 'only the name is carried: the bulk request names parties, it does not identify them';
const ADDRESS = 'an address does not change what is paid: the account and the name identify the party';
const INTERMEDIARY = refused('an intermediary bank cannot be carried to the bank');

/** A party whose name settle reads (Dbtr, Cdtr, UltmtDbtr, UltmtCdtr); the rest identifies it. */
function party(name: Rule, id: Rule = ignored(NOT_A_PARTY_NAME)): Rule {
  return read({
    Nm: name,
    PstlAdr: ignored(ADDRESS),
    Id: id,
    CtryOfRes: ignored(NOT_A_PARTY_NAME),
    CtctDtls: ignored('contact details do not change what is paid'),
  });
}

/** An account identified by IBAN (or Othr/Id, which must then be an IBAN). */
function account(field: PaymentField, to: string): Rule {
  return read({
    Id: read({
      IBAN: carried(field, to),
      Othr: read({
        Id: carried(field, to),
        SchmeNm: ignored('settle pays IBANs only: an Othr/Id goes through the IBAN check, whatever its scheme'),
        Issr: ignored('settle pays IBANs only: an Othr/Id goes through the IBAN check, whatever its issuer'),
      }),
    }),
    Tp: ignored('the kind of account does not change what is paid'),
    Ccy: ignored(
      "the account's own currency: the debtor account's is known from the bank's account directory, and a payment in another currency is refused at pickup",
    ),
    Nm: ignored("the account's name does not change what is paid"),
    Prxy: ignored('the account is identified by its Id; a proxy (phone number, e-mail) beside it adds nothing'),
  });
}

const ORG_SCHEME =
  'kept with the organisation number, which is compared as written whatever its scheme (a proprietary one included)';
const NOT_THE_ORG_NO = 'the changed-account control knows a creditor by its organisation number (OrgId/Othr/Id)';

/**
 * The creditor's identification: the first OrgId/Othr/Id is its organisation number, kept for the
 * changed-account control (docs/controls.md), with its scheme if given. Whatever the scheme: a proprietary scheme (an ERP's
 * own creditor number) identifies the creditor just as well, and pain.001 has no element of its own
 * for an ERP creditor id, so it is compared the same way, as written.
 */
const CREDITOR_ID: Rule = read({
  OrgId: read({
    Othr: read({
      Id: {
        kind: 'kept',
        field: 'creditorOrgId',
        why: 'the creditor’s organisation number: the changed-account control knows a creditor by it first; the bulk request has no field for it',
      },
      SchmeNm: read({
        Cd: { kind: 'kept', field: 'creditorOrgScheme', why: ORG_SCHEME },
        Prtry: { kind: 'kept', field: 'creditorOrgScheme', why: ORG_SCHEME },
      }),
      Issr: ignored('the number is compared as written, whatever its issuer'),
    }),
    AnyBIC: ignored(NOT_THE_ORG_NO),
    BICOrBEI: ignored(NOT_THE_ORG_NO),
    LEI: ignored(NOT_THE_ORG_NO),
  }),
  PrvtId: ignored('a person’s identification: the changed-account control knows a person by name'),
});

const CHARGE_BEARER: Rule = {
  kind: 'checked',
  what: 'SLEV or SHAR',
  allowed: ['SLEV', 'SHAR'],
  code: 'ELEMENT_UNSUPPORTED',
  why: 'settle cannot tell the bank who bears the charges; only SLEV and SHAR (each side pays its own bank, the bank’s default) are accepted',
};

/** Payment type, at block level and in a payment (the payment's own wins). */
const PAYMENT_TYPE: Rule = read({
  InstrPrty: carried('instructionPriority', 'instructionPriority'),
  SvcLvl: read({
    Cd: {
      kind: 'checked',
      what: 'SEPA or NURG',
      allowed: ['SEPA', 'NURG'],
      code: 'ELEMENT_UNSUPPORTED',
      why: 'the bulk request cannot ask for another service level (URGP, SDVA, …); for an urgent payment give InstrPrty HIGH',
    },
    Prtry: refused('a proprietary service level cannot be carried to the bank'),
  }),
  LclInstrm: refused(
    'a local instrument (INST for an instant payment, a national scheme such as CH01) cannot be carried to the bank',
  ),
  CtgyPurp: read({
    Cd: {
      kind: 'kept',
      field: 'categoryPurpose',
      why: 'settle uses it for approvals (SALA lines are payroll); the bulk request has no field for it, and it does not change what is paid',
    },
    Prtry: ignored('a proprietary category purpose: like Cd, the bulk request has no field for it'),
  }),
});

const EXECUTION_DATE = carried('requestedExecutionDate', 'requestedExecutionDate', {
  Dt: carried('requestedExecutionDate', 'requestedExecutionDate'),
  DtTm: carried('requestedExecutionDate', 'requestedExecutionDate (its date part)'),
});

const STRUCTURED_NOT_CARRIED =
  'the bulk request carries one creditor reference and the unstructured text; put invoice numbers and other details in Ustrd';

const REMITTANCE: Rule = read({
  Ustrd: carried('remittanceInformation', 'remittanceInformationUnstructured (several are joined with a space)'),
  Strd: read({
    CdtrRefInf: read({
      Tp: read({
        CdOrPrtry: read({
          Cd: ignored('the type is read from the reference itself (RF by ISO 11649, digits as a KID)'),
          Prtry: ignored('the type is read from the reference itself (RF by ISO 11649, digits as a KID)'),
        }),
        Issr: ignored('the issuer is read from the reference itself (ISO for an RF reference)'),
      }),
      Ref: carried('creditorReference', 'remittanceInformationStructured.reference'),
    }),
    RfrdDocInf: refused(STRUCTURED_NOT_CARRIED),
    RfrdDocAmt: refused(STRUCTURED_NOT_CARRIED),
    Invcr: refused(STRUCTURED_NOT_CARRIED),
    Invcee: refused(STRUCTURED_NOT_CARRIED),
    TaxRmt: refused(STRUCTURED_NOT_CARRIED),
    GrnshmtRmt: refused(STRUCTURED_NOT_CARRIED),
    AddtlRmtInf: refused(STRUCTURED_NOT_CARRIED),
  }),
});

const SUPPLEMENTARY = refused(
  'supplementary data has no meaning the standard defines, so settle can neither tell whether it changes the payment nor carry it',
);

const PAYMENT: Rule = read(
  {
    PmtId: read({
      InstrId: {
        kind: 'kept',
        field: 'instructionId',
        why: 'quoted back in the pain.002 (OrgnlInstrId) and the statements (Refs/InstrId), where ERPs look payments up by it; the bulk request has no field for it, and it does not change what is paid',
      },
      EndToEndId: carried('endToEndId', 'endToEndIdentification'),
      UETR: ignored('a tracking reference for the banks’ own messages; it does not change what is paid'),
    }),
    PmtTpInf: PAYMENT_TYPE,
    Amt: read({
      InstdAmt: carried('amount', 'instructedAmount (with its Ccy)'),
      EqvtAmt: {
        kind: 'refused',
        why: 'an amount given in the debtor account’s currency (EqvtAmt) cannot be carried; give the amount to pay as InstdAmt',
        // Read even so, so that the control sums and totals add up and the only error is this one.
        children: { Amt: carried('amount', 'instructedAmount') },
      },
    }),
    XchgRateInf: refused('an agreed exchange rate cannot be carried to the bank'),
    ChrgBr: CHARGE_BEARER,
    ChqInstr: refused('cheque instructions: settle sends credit transfers only'),
    UltmtDbtr: party(carried('ultimateDebtor', 'ultimateDebtor')),
    IntrmyAgt1: INTERMEDIARY,
    IntrmyAgt1Acct: INTERMEDIARY,
    IntrmyAgt2: INTERMEDIARY,
    IntrmyAgt2Acct: INTERMEDIARY,
    IntrmyAgt3: INTERMEDIARY,
    IntrmyAgt3Acct: INTERMEDIARY,
    CdtrAgt: read({
      FinInstnId: read({
        BIC: carried('creditorBic', 'creditorAgent'),
        BICFI: carried('creditorBic', 'creditorAgent'),
        ClrSysMmbId: ignored('the IBAN identifies the creditor’s bank'),
        LEI: ignored('the IBAN identifies the creditor’s bank'),
        Nm: ignored('the IBAN identifies the creditor’s bank'),
        PstlAdr: ignored('the IBAN identifies the creditor’s bank'),
        Othr: ignored('the IBAN identifies the creditor’s bank (writers put NOTPROVIDED here)'),
      }),
      BrnchId: ignored('the IBAN identifies the creditor’s bank'),
    }),
    CdtrAgtAcct: refused('an account at the creditor’s bank other than the creditor account cannot be carried'),
    Cdtr: party(carried('creditorName', 'creditorName'), CREDITOR_ID),
    CdtrAcct: account('creditorIban', 'creditorAccount.iban'),
    UltmtCdtr: party(carried('ultimateCreditor', 'ultimateCreditor')),
    InstrForCdtrAgt: refused('instructions to the creditor’s bank cannot be carried to the bank'),
    InstrForDbtrAgt: refused('instructions to the debtor’s bank cannot be carried to the bank'),
    Purp: read({
      Cd: carried('purpose', 'purposeCode'),
      Prtry: refused('a proprietary purpose cannot be carried to the bank; give an ISO purpose code as Purp/Cd'),
    }),
    RgltryRptg: refused('regulatory reporting cannot be carried to the bank; report such payments another way'),
    Tax: refused(
      'tax details cannot be carried to the bank, and without them the tax authority cannot apply the payment',
    ),
    RltdRmtInf: refused(
      'remittance advice sent separately (e-mail, post) cannot be carried to the bank; give the text as RmtInf',
    ),
    RmtInf: REMITTANCE,
    MndtRltdInf: ignored('the creditor’s mandate for the transfer: the debtor pays as instructed'),
    SplmtryData: SUPPLEMENTARY,
  },
  'Payment',
);

const BLOCK: Rule = read(
  {
    PmtInfId: special('kept for the pain.002 status report (at most 35 characters)', 'PmtInfId'),
    PmtMtd: {
      kind: 'checked',
      what: 'TRF',
      allowed: ['TRF'],
      code: 'PAYMENT_METHOD_UNSUPPORTED',
      why: 'settle sends credit transfers only (TRF); a cheque (CHK) or transfer advice (TRA) cannot be sent as a credit transfer',
    },
    BtchBookg: special('batchBookingPreferred (true, false, 1 or 0)', 'BtchBookg'),
    NbOfTxs: special("checked against the block's payments", 'NbOfTxs'),
    CtrlSum: special("checked against the block's amounts", 'CtrlSum'),
    PmtTpInf: PAYMENT_TYPE,
    ReqdExctnDt: EXECUTION_DATE,
    PoolgAdjstmntDt: ignored('a cash pool’s value-date correction, not a date of this payment'),
    Dbtr: party(carried('debtorName', 'debtorName')),
    DbtrAcct: account('debtorIban', 'debtorAccount.iban'),
    DbtrAgt: ignored('the debtor’s bank is the bank of the debtor account'),
    DbtrAgtAcct: ignored('the debtor’s bank is the bank of the debtor account'),
    InstrForDbtrAgt: refused('instructions to the debtor’s bank cannot be carried to the bank'),
    UltmtDbtr: party(carried('ultimateDebtor', 'ultimateDebtor')),
    ChrgBr: CHARGE_BEARER,
    ChrgsAcct: refused('a separate account for charges cannot be carried to the bank'),
    ChrgsAcctAgt: refused('a separate account for charges cannot be carried to the bank'),
    ReqdAdvcTp: ignored(
      'asks for debit or credit advices; settle writes the notifications from the account’s transactions',
    ),
    CdtTrfTxInf: PAYMENT,
  },
  'Block',
);

/** Children of CstmrCdtTrfInitn, the message element. */
export const MESSAGE: Readonly<Record<string, Rule>> = {
  GrpHdr: read({
    MsgId: { kind: 'kept', special: 'MsgId', why: 'quoted back in the pain.002 status report' },
    CreDtTm: ignored('when the file was written'),
    Authstn: ignored('an authorisation of the file for the bank’s file channel; settle sends under its consent'),
    NbOfTxs: special('checked against all payments of the file', 'GroupNbOfTxs'),
    CtrlSum: special('checked against all amounts of the file', 'GroupCtrlSum'),
    InitgPty: ignored('who sent the file (the ERP, a bureau): not a party of the payments'),
    FwdgAgt: ignored('the bank that forwards the file; settle sends to the bank itself'),
    InitnSrc: ignored('the software that wrote the file'),
  }),
  PmtInf: BLOCK,
  SplmtryData: SUPPLEMENTARY,
};
