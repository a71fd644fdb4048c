// What settle does with each element of a pain.001 payment block (PmtInf) and transaction
// (CdtTrfTxInf): carries it to the bank, checks it, deliberately ignores it, or refuses it.
// An element that changes what is paid and that settle cannot carry (a cheque instead of a
// transfer, an amount in another currency, charges borne by one side, an intermediary bank)
// is an error: silently dropping it would pay something other than what the ERP asked for.
// docs/formats/pain001.md lists the same table for people.
import type { PaymentField } from '../../domain/validation/raw-line.js';

export type ElementRule =
  /** Read into the payment (or a control value): the path tree below maps it. */
  | { kind: 'read' }
  /** Information that does not change the payment; read past. */
  | { kind: 'ignored' }
  /** Accepted only with one of these values (checked when the element closes). */
  | {
      kind: 'values';
      allowed: readonly string[];
      code: 'PAYMENT_METHOD_UNSUPPORTED' | 'ELEMENT_UNSUPPORTED';
      why: string;
    }
  /** Refused wherever it appears: settle cannot carry it to the bank. */
  | { kind: 'unsupported'; why: string };

const read: ElementRule = { kind: 'read' };
const ignored: ElementRule = { kind: 'ignored' };
const unsupported = (why: string): ElementRule => ({ kind: 'unsupported', why });

/** Charges: SLEV and SHAR are what the bank applies when nothing is said; DEBT/CRED shift every fee to one side. */
const CHARGE_BEARER: ElementRule = {
  kind: 'values',
  allowed: ['SLEV', 'SHAR'],
  code: 'ELEMENT_UNSUPPORTED',
  why: 'settle cannot tell the bank who bears the charges; only SLEV and SHAR (each side pays its own bank, the bank’s default) are accepted',
};

/** Direct children of PmtInf. */
export const PMTINF_ELEMENTS: Readonly<Record<string, ElementRule>> = {
  PmtInfId: read,
  PmtMtd: {
    kind: 'values',
    allowed: ['TRF'],
    code: 'PAYMENT_METHOD_UNSUPPORTED',
    why: 'settle sends credit transfers only (TRF); a cheque (CHK) or transfer advice (TRA) cannot be sent as a credit transfer',
  },
  BtchBookg: read,
  NbOfTxs: read,
  CtrlSum: read,
  PmtTpInf: read,
  ReqdExctnDt: read,
  PoolgAdjstmntDt: ignored,
  Dbtr: read,
  DbtrAcct: read,
  DbtrAgt: ignored,
  DbtrAgtAcct: ignored,
  InstrForDbtrAgt: unsupported('instructions to the debtor’s bank cannot be carried to the bank'),
  UltmtDbtr: ignored,
  ChrgBr: CHARGE_BEARER,
  ChrgsAcct: unsupported('a separate account for charges cannot be carried to the bank'),
  ChrgsAcctAgt: unsupported('a separate account for charges cannot be carried to the bank'),
  CdtTrfTxInf: read,
};

/** Direct children of CdtTrfTxInf. */
export const TX_ELEMENTS: Readonly<Record<string, ElementRule>> = {
  PmtId: read,
  PmtTpInf: read,
  Amt: read,
  XchgRateInf: unsupported('an agreed exchange rate cannot be carried to the bank'),
  ChrgBr: CHARGE_BEARER,
  ChqInstr: unsupported('cheque instructions: settle sends credit transfers only'),
  UltmtDbtr: ignored,
  IntrmyAgt1: unsupported('an intermediary bank cannot be carried to the bank'),
  IntrmyAgt1Acct: unsupported('an intermediary bank cannot be carried to the bank'),
  IntrmyAgt2: unsupported('an intermediary bank cannot be carried to the bank'),
  IntrmyAgt2Acct: unsupported('an intermediary bank cannot be carried to the bank'),
  IntrmyAgt3: unsupported('an intermediary bank cannot be carried to the bank'),
  IntrmyAgt3Acct: unsupported('an intermediary bank cannot be carried to the bank'),
  CdtrAgt: read,
  CdtrAgtAcct: unsupported('an account at the creditor’s bank other than the creditor account cannot be carried'),
  Cdtr: read,
  CdtrAcct: read,
  UltmtCdtr: ignored,
  InstrForCdtrAgt: unsupported('instructions to the creditor’s bank cannot be carried to the bank'),
  InstrForDbtrAgt: unsupported('instructions to the debtor’s bank cannot be carried to the bank'),
  Purp: ignored,
  RgltryRptg: unsupported('regulatory reporting cannot be carried to the bank; report such payments another way'),
  Tax: ignored,
  RltdRmtInf: ignored,
  RmtInf: read,
  SplmtryData: ignored,
};

/** Children of CdtTrfTxInf/Amt. */
export const AMT_ELEMENTS: Readonly<Record<string, ElementRule>> = {
  InstdAmt: read,
  EqvtAmt: unsupported(
    'an amount given in the debtor account’s currency (EqvtAmt) cannot be carried; give the amount to pay as InstdAmt',
  ),
};

/** Transaction-level element paths (relative to CdtTrfTxInf) → payment field. */
export const TX_FIELDS: Readonly<Record<string, PaymentField>> = {
  'PmtId/EndToEndId': 'endToEndId',
  'Amt/InstdAmt': 'amount',
  // Refused (ELEMENT_UNSUPPORTED), but read so that the control sums and the totals stay right.
  'Amt/EqvtAmt/Amt': 'amount',
  'CdtrAgt/FinInstnId/BIC': 'creditorBic',
  'CdtrAgt/FinInstnId/BICFI': 'creditorBic',
  'Cdtr/Nm': 'creditorName',
  'CdtrAcct/Id/IBAN': 'creditorIban',
  // settle pays IBANs only; an account given as Othr/Id still goes through the IBAN check.
  'CdtrAcct/Id/Othr/Id': 'creditorIban',
  'RmtInf/Ustrd': 'remittanceInformation',
  'RmtInf/Strd/CdtrRefInf/Ref': 'creditorReference',
  'PmtTpInf/InstrPrty': 'instructionPriority',
  'PmtTpInf/CtgyPurp/Cd': 'categoryPurpose',
};

/** PmtInf-level element paths (relative to PmtInf) → payment field, inherited by its transactions. */
export const PMTINF_FIELDS: Readonly<Record<string, PaymentField>> = {
  ReqdExctnDt: 'requestedExecutionDate',
  'ReqdExctnDt/Dt': 'requestedExecutionDate',
  'ReqdExctnDt/DtTm': 'requestedExecutionDate',
  'Dbtr/Nm': 'debtorName',
  'DbtrAcct/Id/IBAN': 'debtorIban',
  'DbtrAcct/Id/Othr/Id': 'debtorIban',
  'PmtTpInf/InstrPrty': 'instructionPriority',
  'PmtTpInf/CtgyPurp/Cd': 'categoryPurpose',
};

/** Where a required block field belongs when a block lacks it: its issue is located there, once per block. */
export const INHERITED_REQUIRED: readonly (readonly [PaymentField, string])[] = [
  ['requestedExecutionDate', 'ReqdExctnDt'],
  ['debtorName', 'Dbtr/Nm'],
  ['debtorIban', 'DbtrAcct/Id/IBAN'],
];

/**
 * The mapped paths as a tree walked element by element: each open element knows its node, so
 * closing one needs no string building and its key is a constant string. The first level also
 * holds every element of the policy tables, so an element missing from the tree is unknown.
 */
export interface PathNode {
  children: Map<string, PathNode>;
  /** The path relative to the block, when it is mapped to a field or a control value. */
  key?: string;
  /** The policy of a block's direct child (and of Amt's children). */
  rule?: ElementRule;
  /** Whether this element holds an amount whose currency is its Ccy attribute. */
  amount?: boolean;
}

function pathTree(keys: readonly string[], rules: Readonly<Record<string, ElementRule>>): PathNode {
  const root: PathNode = { children: new Map() };
  const nodeAt = (steps: readonly string[]): PathNode => {
    let node = root;
    for (const step of steps) {
      let next = node.children.get(step);
      if (!next) node.children.set(step, (next = { children: new Map() }));
      node = next;
    }
    return node;
  };
  for (const [name, rule] of Object.entries(rules)) nodeAt([name]).rule = rule;
  for (const key of keys) {
    const node = nodeAt(key.split('/'));
    node.key = key;
    if (key === 'Amt/InstdAmt' || key === 'Amt/EqvtAmt/Amt') node.amount = true;
  }
  return root;
}

export const TX_TREE = pathTree(Object.keys(TX_FIELDS), TX_ELEMENTS);
for (const [name, rule] of Object.entries(AMT_ELEMENTS)) {
  const amt = TX_TREE.children.get('Amt');
  let node = amt?.children.get(name);
  if (amt && !node) amt.children.set(name, (node = { children: new Map() }));
  if (node) node.rule = rule;
}

export const PMTINF_TREE = pathTree(
  [...Object.keys(PMTINF_FIELDS), 'PmtInfId', 'NbOfTxs', 'CtrlSum', 'BtchBookg'],
  PMTINF_ELEMENTS,
);
