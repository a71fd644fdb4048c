// A rule's short name in words (src/i18n/rule-words.ts): the reconciliation rules that matched a
// payment or a credit, and the payment controls that held a payment. The code stays beside the
// name, because finance and support talk in codes too.
import { area } from './area.js';

export const rules = area({
  en: {
    'rules.withCode': '{name} ({code})',
    'rules.match.end-to-end': 'Same end-to-end id',
    'rules.match.batch-lump-sum': 'One lump sum for the bulk',
    'rules.match.amount-account-date': 'Amount, account and date',
    'rules.credit.creditor-reference': 'Creditor reference (KID)',
    'rules.credit.amount-customer-date': 'Amount, customer and date',
    'rules.control.changed-account': 'Changed creditor account',
    'rules.control.new-account': 'New creditor account',
    'rules.control.limit-line': 'Payment over the limit',
    'rules.control.limit-file': 'File total over the limit',
    'rules.control.limit-debtor-day': "Account's day total over the limit",
    'rules.control.unusual-time': 'File at an unusual time',
    'rules.control.duplicate': 'Likely duplicate',
  },
  nb: {
    'rules.withCode': '{name} ({code})',
    'rules.match.end-to-end': 'Samme ende-til-ende-ID',
    'rules.match.batch-lump-sum': 'Ett samlebeløp for bunten',
    'rules.match.amount-account-date': 'Beløp, konto og dato',
    'rules.credit.creditor-reference': 'KID',
    'rules.credit.amount-customer-date': 'Beløp, kunde og dato',
    'rules.control.changed-account': 'Endret kreditorkonto',
    'rules.control.new-account': 'Ny kreditorkonto',
    'rules.control.limit-line': 'Betaling over grensen',
    'rules.control.limit-file': 'Filsum over grensen',
    'rules.control.limit-debtor-day': 'Kontoens dagssum over grensen',
    'rules.control.unusual-time': 'Fil mottatt til uvanlig tid',
    'rules.control.duplicate': 'Mulig dublett',
  },
});
