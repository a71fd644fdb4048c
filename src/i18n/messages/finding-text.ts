// The sentence a reconcile run records with each finding (src/domain/reconcile: "About" and "Why"
// on the console, `settle findings list`, the reconciliation report), as recorded text: the run
// stores the English beside the key and values (findings.summary_text), and a reader gets it in
// their language. The English here must render exactly the English the run stores
// (test/i18n/finding-text.test.ts). Amounts and dates are figures
// (src/domain/recorded-text.ts), written as the reader's language writes them.
import { area } from './area.js';

export const findingText = area({
  en: {
    'findingText.rejectedResent': 'Rejected by the bank{reason}; sent again as {resentAs}.',
    'findingText.rejected': 'Rejected by the bank{reason} and not sent again.',
    'findingText.unknownOutcome':
      'The bank never answered the send and no booking with this end-to-end id was found; settle does not re-send it blind.',
    'findingText.notBooked':
      'Sent for execution on {date} but not booked {days, plural, one {# business day} other {# business days}} later ({due}).',
    'findingText.awaitingBooking': 'Sent for execution on {date}; not booked yet, expected by {due}.',
    'findingText.unmatchedDebit': 'A debit of {amount} {currency} booked on {date} matches no payment settle sent.',
    'findingText.rule.end-to-end': 'same end-to-end id',
    'findingText.rule.amount-account-date': 'same amount, creditor account and a booking date within the window',
    'findingText.rule.batch-lump-sum': 'one lump-sum debit equal to the sum of every payment of the batch-booked bulk',
    'findingText.lines': ' ({lines} lines)',
    'findingText.matchedBy': 'Matched by {rule}{lines}',
    'findingText.bookedDespite':
      '{how}, although settle has the payment as {outcome, select, rejected {rejected} cancelled {cancelled} other {{outcome}}}: the money left the account.',
    'findingText.unknownNote': ' The send had no answer; this booking shows it was executed.',
    'findingText.currencyDifference': '{how}, but booked in {booked} while sent in {sent}.{note}',
    'findingText.amountDifference':
      '{how}, but booked {booked} where {sent} {currency} was sent (difference {difference}).{note}',
    'findingText.dateDifference':
      '{how}, but booked on {date}, {days} days from the execution date {executionDate}.{note}',
    'findingText.nearFee': ' (difference {difference} as a bank fee)',
    'findingText.nearTolerance': ' (difference {difference} within the tolerance)',
    'findingText.proposed':
      'Proposed match by {rule}{lines}{near}, but the evidence is weak (score {score} < {threshold}): confirm or reject.{note}',
    'findingText.matched': '{how}{near}.{note}',
    'findingText.byReference': 'its reference',
    'findingText.byAmountNameDate': "amount, the customer's name and the date",
    'findingText.creditAlreadyPaid':
      'Paid {paid} {currency} to invoice {invoice}, which was already paid: the whole amount is an over-payment.',
    'findingText.creditProposed':
      'Proposed for invoice {invoice} of {customer} by {how}, but the evidence is weak (score {score} < {threshold}): confirm or reject.',
    'findingText.creditMatched':
      'Paid invoice {invoice} of {customer} ({owed} {currency} open), matched by {how}{difference}.',
    'findingText.creditFee': ', difference {difference} as a bank fee',
    'findingText.creditTolerance': ', difference {difference} within the tolerance',
    'findingText.creditPartial':
      'Part payment of {paid} of {owed} {currency} open on invoice {invoice}; {open} stays open (provisional: more payments may come).',
    'findingText.creditOver': 'Paid {paid} where {owed} {currency} was open on invoice {invoice}: over-paid by {over}.',
    'findingText.unmatchedCredit':
      'A credit of {amount} {currency} booked on {date}{reference} matches no open receivable.',
    'findingText.withReference': ' with {reference}',
    'findingText.noAmount': 'no amount',
    'findingText.atUtc': '{at} UTC',
    'findingText.subject.payment': 'payment {id}',
    'findingText.subject.booking': 'booking {id}',
    'findingText.subject.basket': 'basket {id}',
    'findingText.subject.consent': 'consent {id}',
    'findingText.subject.statementMissing': 'statement {account} missing {from}..{to}',
    'findingText.subject.statementOverlap': 'statement {account} overlap {from}..{to}',
    'findingText.subject.balanceBreak': 'statement {account} balance break at {date}',
    'findingText.approvalNoLink':
      'Signing basket {basket} ({totals}) waits for approval; no approval link was issued yet.',
    'findingText.approvalExpired':
      'The approval link of signing basket {basket} ({totals}) expired at {at}; the payments were not approved.',
    'findingText.approvalWaiting':
      'Signing basket {basket} ({totals}) waits for approval; its link expires at {at} (in {hours} h).',
    'findingText.consentExpired': 'The consent at {bank} expired on {date}.',
    'findingText.consentExpiring':
      'The consent at {bank} ends on {date}, in {days, plural, one {# day} other {# days}}.',
    'findingText.statementGap':
      'No statement covers {from} to {to} ({days, plural, one {# day} other {# days}}){moved}; bookings of those days may be missing.',
    'findingText.balanceMoved': '; the balance moved by {amount} {currency} over them',
    'findingText.statementOverlap':
      'Statements overlap from {from} to {to}; bookings of those days may be counted twice.',
    'findingText.balanceBreak':
      'Opening balance {opening} {openingCurrency} on {from} does not equal the closing balance {closing} {closingCurrency} of {to}.',
    'findingText.factsChanged':
      '{message} {decision, select, acknowledged {Acknowledged} confirmed {Confirmed} rejected {Rejected} other {Reopened}} by {by} on {day}, but its facts changed since; it needs a person again.',
  },
  nb: {
    'findingText.rejectedResent': 'Avvist av banken{reason}; sendt på nytt som {resentAs}.',
    'findingText.rejected': 'Avvist av banken{reason} og ikke sendt på nytt.',
    'findingText.unknownOutcome':
      'Banken svarte aldri på sendingen, og ingen bokføring med denne ende-til-ende-ID-en ble funnet; settle sender den ikke på nytt i blinde.',
    'findingText.notBooked':
      'Sendt til utførelse {date}, men ikke bokført {days, plural, one {# virkedag} other {# virkedager}} senere ({due}).',
    'findingText.awaitingBooking': 'Sendt til utførelse {date}; ikke bokført ennå, ventes senest {due}.',
    'findingText.unmatchedDebit':
      'En belastning på {amount} {currency} bokført {date} samsvarer ikke med noen betaling settle har sendt.',
    'findingText.rule.end-to-end': 'samme ende-til-ende-ID',
    'findingText.rule.amount-account-date': 'samme beløp, samme kreditorkonto og en bokføringsdato innenfor vinduet',
    'findingText.rule.batch-lump-sum': 'én samlebelastning lik summen av alle betalingene i den samlebokførte bunten',
    'findingText.lines': ' ({lines} linjer)',
    'findingText.matchedBy': 'Koblet på {rule}{lines}',
    'findingText.bookedDespite':
      '{how}, selv om settle har betalingen som {outcome, select, rejected {avvist} cancelled {kansellert} other {{outcome}}}: pengene har gått ut av kontoen.',
    'findingText.unknownNote': ' Sendingen fikk ikke svar; denne bokføringen viser at den ble utført.',
    'findingText.currencyDifference': '{how}, men bokført i {booked} mens den ble sendt i {sent}.{note}',
    'findingText.amountDifference':
      '{how}, men bokført {booked} der {sent} {currency} ble sendt (differanse {difference}).{note}',
    'findingText.dateDifference': '{how}, men bokført {date}, {days} dager fra utførelsesdatoen {executionDate}.{note}',
    'findingText.nearFee': ' (differanse {difference} som bankgebyr)',
    'findingText.nearTolerance': ' (differanse {difference} innenfor toleransen)',
    'findingText.proposed':
      'Foreslått kobling på {rule}{lines}{near}, men grunnlaget er svakt (poeng {score} < {threshold}): bekreft eller avvis.{note}',
    'findingText.matched': '{how}{near}.{note}',
    'findingText.byReference': 'referansen',
    'findingText.byAmountNameDate': 'beløp, kundens navn og datoen',
    'findingText.creditAlreadyPaid':
      'Betalt {paid} {currency} til faktura {invoice}, som allerede var betalt: hele beløpet er en overbetaling.',
    'findingText.creditProposed':
      'Foreslått for faktura {invoice} til {customer} etter {how}, men grunnlaget er svakt (poeng {score} < {threshold}): bekreft eller avvis.',
    'findingText.creditMatched':
      'Betalt faktura {invoice} til {customer} ({owed} {currency} åpent), koblet etter {how}{difference}.',
    'findingText.creditFee': ', differanse {difference} som bankgebyr',
    'findingText.creditTolerance': ', differanse {difference} innenfor toleransen',
    'findingText.creditPartial':
      'Delbetaling på {paid} av {owed} {currency} åpent på faktura {invoice}; {open} står fortsatt åpent (foreløpig: flere innbetalinger kan komme).',
    'findingText.creditOver':
      'Betalt {paid} der {owed} {currency} var åpent på faktura {invoice}: overbetalt med {over}.',
    'findingText.unmatchedCredit':
      'En innbetaling på {amount} {currency} bokført {date}{reference} samsvarer ikke med noen åpen kundefordring.',
    'findingText.withReference': ' med {reference}',
    'findingText.noAmount': 'uten beløp',
    'findingText.atUtc': '{at} UTC',
    'findingText.subject.payment': 'betaling {id}',
    'findingText.subject.booking': 'bokføring {id}',
    'findingText.subject.basket': 'signeringskurv {id}',
    'findingText.subject.consent': 'samtykke {id}',
    'findingText.subject.statementMissing': 'kontoutskrift {account} mangler {from}–{to}',
    'findingText.subject.statementOverlap': 'kontoutskrift {account} overlapper {from}–{to}',
    'findingText.subject.balanceBreak': 'kontoutskrift {account} saldobrudd {date}',
    'findingText.approvalNoLink':
      'Signeringskurv {basket} ({totals}) venter på godkjenning; ingen godkjenningslenke er sendt ennå.',
    'findingText.approvalExpired':
      'Godkjenningslenken til signeringskurv {basket} ({totals}) utløp {at}; betalingene ble ikke godkjent.',
    'findingText.approvalWaiting':
      'Signeringskurv {basket} ({totals}) venter på godkjenning; lenken utløper {at} (om {hours} t).',
    'findingText.consentExpired': 'Samtykket hos {bank} utløp {date}.',
    'findingText.consentExpiring':
      'Samtykket hos {bank} utløper {date}, om {days, plural, one {# dag} other {# dager}}.',
    'findingText.statementGap':
      'Ingen kontoutskrift dekker {from} til {to} ({days, plural, one {# dag} other {# dager}}){moved}; bokføringer fra de dagene kan mangle.',
    'findingText.balanceMoved': '; saldoen endret seg med {amount} {currency} over de dagene',
    'findingText.statementOverlap':
      'Kontoutskriftene overlapper fra {from} til {to}; bokføringer fra de dagene kan være telt to ganger.',
    'findingText.balanceBreak':
      'Inngående saldo {opening} {openingCurrency} {from} er ikke lik utgående saldo {closing} {closingCurrency} {to}.',
    'findingText.factsChanged':
      '{message} {decision, select, acknowledged {Kvittert} confirmed {Bekreftet} rejected {Avvist} other {Gjenåpnet}} av {by} {day}, men fakta har endret seg siden; den trenger oppfølging igjen.',
  },
});
