// The kinds of reconciliation finding (src/domain/reconcile/findings.ts) as people read them: the
// heading of each type and what finance does about it, and the severity words. The console's
// Reconciliation page, the reconciliation report and the signed period's export share them.
import { area } from './area.js';

export const findingType = area({
  en: {
    'findingType.not_booked.title': 'Sent but not booked',
    'findingType.not_booked.action':
      'Ask the bank why the payment was not executed; do not send it again until the bank confirms it will not be.',
    'findingType.amount_difference.title': 'Booked with a different amount',
    'findingType.amount_difference.action':
      'Compare with the bank statement (fees, FX conversion) and correct the ledger or claim the difference.',
    'findingType.booked_despite_rejection.title': 'Booked although rejected or cancelled',
    'findingType.booked_despite_rejection.action':
      'The money left the account: make sure the payment is not sent again and cancel any re-send.',
    'findingType.unknown_outcome.title': 'Outcome unknown',
    'findingType.unknown_outcome.action':
      'Check in the bank portal whether the payment exists; settle never re-sends it on its own.',
    'findingType.rejected.title': 'Rejected and not sent again',
    'findingType.rejected.action':
      'Fix the cause (often the creditor account) in the ERP and send a corrected payment.',
    'findingType.unexpected_debit.title': 'Debits that did not come from settle',
    'findingType.unexpected_debit.action':
      'Identify the debit (fee, direct debit, manual payment in the bank portal) and book it.',
    'findingType.match_proposed.title': 'Proposed matches to confirm or reject',
    'findingType.match_proposed.action':
      'Compare the evidence; confirm the match (settle findings confirm ID --reason …) or reject it (settle findings reject ID --reason …).',
    'findingType.credit_over.title': 'Incoming payments larger than the receivable',
    'findingType.credit_over.action':
      'Refund the customer or keep the amount as a credit on their account, and book it.',
    'findingType.unmatched_credit.title': 'Incoming payments matching no open receivable',
    'findingType.unmatched_credit.action':
      'Find the invoice (reference, payer, amount) and book the payment against it, or refund it.',
    'findingType.statement_gap.title': 'Statement continuity gaps',
    'findingType.statement_gap.action':
      'Fetch the missing statements again; if the balances still do not chain, ask the bank.',
    'findingType.approval_link_expired.title': 'Approval links expired',
    'findingType.approval_link_expired.action':
      'Have a new approval link issued (settle run approve) and approve the payments.',
    'findingType.approval_waiting.title': 'Approvals waiting',
    'findingType.approval_waiting.action':
      'Approvers must open the link before it expires; the payments are not executed until then.',
    'findingType.consent_expired.title': 'Bank consents expired',
    'findingType.consent_expired.action':
      'Renew the consent with the bank (settle consents); settle cannot send or fetch until then.',
    'findingType.consent_expiring.title': 'Bank consents about to expire',
    'findingType.consent_expiring.action': 'Renew the consent before the date shown.',
    'findingType.date_difference.title': 'Booked outside the date window',
    'findingType.date_difference.action':
      'No action unless the delay matters for the creditor; the payment is matched.',
    'findingType.credit_partial.title': 'Receivables partly paid',
    'findingType.credit_partial.action':
      'None yet: the rest stays open; remind the customer if it is not paid by the due date.',
    'findingType.awaiting_booking.title': 'Sent, booking not yet due',
    'findingType.awaiting_booking.action':
      'None yet; it becomes "not booked" if still missing after the deadline shown.',
    'findingType.rejected_resent.title': 'Rejected and sent again',
    'findingType.rejected_resent.action': 'None; follow the re-sent payment shown in the reference column.',
    'findingType.matched.title': 'Matched',
    'findingType.matched.action': 'None.',
    'findingType.credit_matched.title': 'Incoming payments matched to receivables',
    'findingType.credit_matched.action': 'None; book the payment against the invoice shown.',
    'findingType.severity.error': 'error',
    'findingType.severity.warning': 'warning',
    'findingType.severity.info': 'info',
  },
  nb: {
    'findingType.not_booked.title': 'Sendt, men ikke bokført',
    'findingType.not_booked.action':
      'Spør banken hvorfor betalingen ikke ble utført; ikke send den på nytt før banken bekrefter at den ikke blir utført.',
    'findingType.amount_difference.title': 'Bokført med et annet beløp',
    'findingType.amount_difference.action':
      'Sammenlign med kontoutskriften (gebyrer, valutaveksling) og korriger regnskapet eller krev differansen.',
    'findingType.booked_despite_rejection.title': 'Bokført selv om den ble avvist eller kansellert',
    'findingType.booked_despite_rejection.action':
      'Pengene har gått fra kontoen: pass på at betalingen ikke sendes på nytt, og stopp en eventuell ny sending.',
    'findingType.unknown_outcome.title': 'Ukjent utfall',
    'findingType.unknown_outcome.action':
      'Sjekk i nettbanken om betalingen finnes; settle sender den aldri på nytt av seg selv.',
    'findingType.rejected.title': 'Avvist og ikke sendt på nytt',
    'findingType.rejected.action': 'Rett årsaken (ofte kreditors konto) i ERP-systemet og send en korrigert betaling.',
    'findingType.unexpected_debit.title': 'Belastninger som ikke kom fra settle',
    'findingType.unexpected_debit.action':
      'Finn ut hva belastningen er (gebyr, AvtaleGiro, manuell betaling i nettbanken) og bokfør den.',
    'findingType.match_proposed.title': 'Foreslåtte treff til bekreftelse eller avvisning',
    'findingType.match_proposed.action':
      'Sammenlign grunnlaget; bekreft treffet (settle findings confirm ID --reason …) eller avvis det (settle findings reject ID --reason …).',
    'findingType.credit_over.title': 'Innbetalinger større enn kundefordringen',
    'findingType.credit_over.action':
      'Betal tilbake til kunden eller behold beløpet som tilgode på kundens konto, og bokfør det.',
    'findingType.unmatched_credit.title': 'Innbetalinger uten åpen kundefordring',
    'findingType.unmatched_credit.action':
      'Finn fakturaen (KID, betaler, beløp) og bokfør innbetalingen mot den, eller betal tilbake.',
    'findingType.statement_gap.title': 'Hull i kontoutskriftene',
    'findingType.statement_gap.action':
      'Hent de manglende kontoutskriftene på nytt; henger saldoene fortsatt ikke sammen, spør banken.',
    'findingType.approval_link_expired.title': 'Godkjenningslenker utløpt',
    'findingType.approval_link_expired.action':
      'Få laget en ny godkjenningslenke (settle run approve) og godkjenn betalingene.',
    'findingType.approval_waiting.title': 'Godkjenninger som venter',
    'findingType.approval_waiting.action':
      'Godkjennerne må åpne lenken før den utløper; betalingene utføres ikke før det.',
    'findingType.consent_expired.title': 'Samtykker hos banken utløpt',
    'findingType.consent_expired.action':
      'Forny samtykket hos banken (settle consents); settle kan ikke sende eller hente før det er gjort.',
    'findingType.consent_expiring.title': 'Samtykker hos banken som snart utløper',
    'findingType.consent_expiring.action': 'Forny samtykket før datoen som er vist.',
    'findingType.date_difference.title': 'Bokført utenfor datovinduet',
    'findingType.date_difference.action':
      'Ingen handling med mindre forsinkelsen betyr noe for kreditor; betalingen er avstemt.',
    'findingType.credit_partial.title': 'Kundefordringer delvis betalt',
    'findingType.credit_partial.action':
      'Ingenting ennå: resten står åpent; send kunden en påminnelse hvis den ikke er betalt innen forfallsdato.',
    'findingType.awaiting_booking.title': 'Sendt, bokføring ikke forfalt ennå',
    'findingType.awaiting_booking.action':
      'Ingenting ennå; den blir «ikke bokført» hvis den fortsatt mangler etter fristen som er vist.',
    'findingType.rejected_resent.title': 'Avvist og sendt på nytt',
    'findingType.rejected_resent.action': 'Ingenting; følg den nye betalingen som står i referansekolonnen.',
    'findingType.matched.title': 'Avstemt',
    'findingType.matched.action': 'Ingenting.',
    'findingType.credit_matched.title': 'Innbetalinger avstemt mot kundefordringer',
    'findingType.credit_matched.action': 'Ingenting; bokfør innbetalingen mot fakturaen som er vist.',
    'findingType.severity.error': 'feil',
    'findingType.severity.warning': 'advarsel',
    'findingType.severity.info': 'info',
  },
});
