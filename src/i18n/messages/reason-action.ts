// What a person does about a bank's reason code (src/domain/line-message.ts, ACTIONS), for the
// console's payment page and the report of the lines not paid. The English is the domain's
// sentence, which English readers keep byte for byte (test/i18n/reason-action.test.ts); a code
// without a sentence of its own reads NARR's.
import { area } from './area.js';

export const reasonAction = area({
  en: {
    'reasonAction.DT01':
      'Correct the execution date in the ERP (a future business day) and send the payment in a new file.',
    'reasonAction.AC01':
      "Check the account number with the creditor, correct it in the ERP's supplier record and send the payment in a new file.",
    'reasonAction.AC02':
      'Ask the operator to check that the debtor account is onboarded and enabled for this company at the bank; then send the payment in a new file.',
    'reasonAction.AC03':
      "Check the creditor's account number with the creditor, correct it in the ERP's supplier record and send the payment in a new file.",
    'reasonAction.AC04':
      'The account is closed: ask the creditor for their new account number and send the payment in a new file.',
    'reasonAction.AC06': 'The account is blocked: contact the creditor before paying again.',
    'reasonAction.AG01':
      'The bank does not allow this payment from this account: ask the bank or the operator, then send it again in a new file.',
    'reasonAction.AM03':
      "Pay from an account in the payment's currency, or correct the currency in the ERP, and send it in a new file.",
    'reasonAction.AM04':
      'Make sure the debtor account has funds to cover the payment, then send it again in a new file.',
    'reasonAction.AM05': 'The payment was sent before: check the ledger before paying it again.',
    'reasonAction.AM12': 'Correct the amount in the ERP and send the payment in a new file.',
    'reasonAction.AM18': 'Split the payments into smaller files, then send them again.',
    'reasonAction.RR01': "Correct the debtor's name in the ERP's company settings and send the payment in a new file.",
    'reasonAction.RR03': "Fill in the creditor's name in the ERP's supplier record and send the payment in a new file.",
    'reasonAction.RR07': 'Correct the payment message (remittance) in the ERP and send the payment in a new file.',
    'reasonAction.RC11':
      'Give the payment a unique reference in the ERP (its end-to-end id) and send it in a new file.',
    'reasonAction.CH16':
      'The bank refused the payment as invalid: correct it as the bank says and send it in a new file.',
    'reasonAction.FF01':
      'The bank refused the payment as invalid: correct it as the bank says and send it in a new file.',
    'reasonAction.DS02':
      'Cancelled at the company’s request (settle payments cancel or a camt.055): nothing was paid; send it again in a new file only if it is still owed.',
    'reasonAction.MS03': 'The bank gave no reason: ask the bank, then decide whether to send the payment again.',
    'reasonAction.NARR': 'Read the bank’s reason, correct the payment in the ERP and send it in a new file.',
  },
  nb: {
    'reasonAction.DT01': 'Rett utførelsesdatoen i ERP-systemet (en fremtidig virkedag) og send betalingen i en ny fil.',
    'reasonAction.AC01':
      'Sjekk kontonummeret med kreditor, rett det i leverandørregisteret i ERP-systemet og send betalingen i en ny fil.',
    'reasonAction.AC02':
      'Be operatøren sjekke at belastningskontoen er satt opp og aktivert for dette selskapet i banken; send deretter betalingen i en ny fil.',
    'reasonAction.AC03':
      'Sjekk kreditors kontonummer med kreditor, rett det i leverandørregisteret i ERP-systemet og send betalingen i en ny fil.',
    'reasonAction.AC04': 'Kontoen er avsluttet: be kreditor om nytt kontonummer og send betalingen i en ny fil.',
    'reasonAction.AC06': 'Kontoen er sperret: kontakt kreditor før du betaler på nytt.',
    'reasonAction.AG01':
      'Banken tillater ikke denne betalingen fra denne kontoen: spør banken eller operatøren, og send den deretter på nytt i en ny fil.',
    'reasonAction.AM03':
      'Betal fra en konto i betalingens valuta, eller rett valutaen i ERP-systemet, og send den i en ny fil.',
    'reasonAction.AM04':
      'Sørg for at belastningskontoen har dekning for betalingen, og send den deretter på nytt i en ny fil.',
    'reasonAction.AM05': 'Betalingen er sendt før: sjekk reskontroen før du betaler den på nytt.',
    'reasonAction.AM12': 'Rett beløpet i ERP-systemet og send betalingen i en ny fil.',
    'reasonAction.AM18': 'Del betalingene opp i mindre filer, og send dem deretter på nytt.',
    'reasonAction.RR01': 'Rett betalerens navn i selskapsinnstillingene i ERP-systemet og send betalingen i en ny fil.',
    'reasonAction.RR03':
      'Fyll inn kreditors navn i leverandørregisteret i ERP-systemet og send betalingen i en ny fil.',
    'reasonAction.RR07': 'Rett betalingsmeldingen i ERP-systemet og send betalingen i en ny fil.',
    'reasonAction.RC11':
      'Gi betalingen en unik referanse i ERP-systemet (ende-til-ende-ID-en) og send den i en ny fil.',
    'reasonAction.CH16': 'Banken avviste betalingen som ugyldig: rett den slik banken sier, og send den i en ny fil.',
    'reasonAction.FF01': 'Banken avviste betalingen som ugyldig: rett den slik banken sier, og send den i en ny fil.',
    'reasonAction.DS02':
      'Kansellert etter selskapets ønske (settle payments cancel eller en camt.055): ingenting ble betalt; send den på nytt i en ny fil bare hvis beløpet fortsatt skyldes.',
    'reasonAction.MS03': 'Banken oppga ingen årsak: spør banken, og avgjør deretter om betalingen skal sendes på nytt.',
    'reasonAction.NARR': 'Les bankens begrunnelse, rett betalingen i ERP-systemet og send den i en ny fil.',
  },
});
