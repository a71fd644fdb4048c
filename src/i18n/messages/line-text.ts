// Settle's own words about a payment that the ERP's status files carry (pain.002 AddtlInf,
// the status CSV's reason) and its users read: why a line is held (the payment controls'
// evidence), who dropped or cancelled it, and what settle says for the bank where the bank gave
// no words. Written in the company's language when the file is written (jobs/status/report.ts);
// a hold, a drop and a cancellation record the key and values with the line (recorded-text.ts),
// and the English sentence beside them, which is what an English company's file keeps byte for
// byte. The English here must stay the sentence the store records (test/i18n/line-text.test.ts).
import { area } from './area.js';

export const lineText = area({
  en: {
    'lineText.heldByControls': 'held by payment controls: {evidence}',
    'lineText.evidence': '{rule}: {why}',
    'lineText.changedAccount': '{creditor} was paid to {before}; this line pays {iban}',
    'lineText.changedAccountMore': '{creditor} was paid to {before} (and {more} more accounts); this line pays {iban}',
    'lineText.knownAs.orgId': 'creditor org. no. {key} ("{name}")',
    'lineText.knownAs.creditorId': 'ERP creditor id {key} ("{name}")',
    'lineText.knownAs.name': '"{name}"',
    'lineText.paidTo1': '{a1}',
    'lineText.paidTo2': '{a1} and {a2}',
    'lineText.paidTo3': '{a1} and {a2} and {a3}',
    'lineText.paidAccount': '{account} {uses}',
    'lineText.uses.listed': '(listed in the known-accounts file)',
    'lineText.uses.paid': '{count, plural, one {# time} other {# times}} since {since}',
    'lineText.newAccount':
      '{iban} ("{name}") was never paid by this company, nor is it in the known-accounts file (go-live {goLive})',
    'lineText.limitLine': '{amount} is above the limit of {limit} a line',
    'lineText.limitFile':
      "the file's lines before it come to {soFar}; with this {amount} they pass the limit of {limit} a file",
    'lineText.limitDebtorDay':
      '{iban} already sends {soFar} on {day}; with this {amount} it passes the limit of {limit} a day',
    // The day is settle's three-letter name (as in the expected hours); a language may spell it out.
    'lineText.unusualTime':
      'the file arrived {day, select, other {{day}}} {at} {zone}, outside the expected hours ({expected})',
    // The expected hours: the days as a figure (English keeps "mon,tue", another language spells them out).
    'lineText.expectedHours': '{days} {from}–{to}',
    'lineText.droppedDuplicate': 'dropped as a duplicate by {by}: {reason}',
    'lineText.droppedAfterHold': 'dropped after a hold by {rules} by {by}: {reason}',
    'lineText.cancelled': 'cancelled by {requestedBy}: {reason}',
    'lineText.cancelledConfirmed': 'cancelled by {requestedBy}, confirmed by {confirmedBy}: {reason}',
    'lineText.returned': 'Returned by the creditor’s bank',
    'lineText.notFound': 'Not found at the bank',
    'lineText.noAnswer': 'No answer from the bank yet; the outcome is open',
    'lineText.refusedWithBulk': 'Refused with its bulk because of line {lines} (nothing named on this line)',
    // The first lines the bank named, and how many more: a list of thousands on every other line
    // made gigabytes of text for one refused bulk.
    'lineText.refusedWithBulkMany':
      'Refused with its bulk because of line {lines} and {more, plural, one {# other line} other {# other lines}} (nothing named on this line)',
    'lineText.bankNamedNoLine': '{said} (the bank named no line)',
    'lineText.wholeBulk': 'The bank refused the whole bulk',
    'lineText.reasonCode': 'reason {code}',
  },
  nb: {
    'lineText.heldByControls': 'holdt tilbake av betalingskontrollene: {evidence}',
    'lineText.evidence': '{rule}: {why}',
    'lineText.changedAccount': '{creditor} er betalt til {before}; denne linjen betaler til {iban}',
    'lineText.changedAccountMore':
      '{creditor} er betalt til {before} (og {more} kontoer til); denne linjen betaler til {iban}',
    'lineText.knownAs.orgId': 'kreditor med org.nr. {key} («{name}»)',
    'lineText.knownAs.creditorId': 'ERP-kreditor-ID {key} («{name}»)',
    'lineText.knownAs.name': '«{name}»',
    'lineText.paidTo1': '{a1}',
    'lineText.paidTo2': '{a1} og {a2}',
    'lineText.paidTo3': '{a1}, {a2} og {a3}',
    'lineText.paidAccount': '{account} {uses}',
    'lineText.uses.listed': '(står i filen over kjente kontoer)',
    'lineText.uses.paid': '{count, plural, one {# gang} other {# ganger}} siden {since}',
    'lineText.newAccount':
      '{iban} («{name}») er aldri betalt av selskapet og står ikke i filen over kjente kontoer (i bruk fra {goLive})',
    'lineText.limitLine': '{amount} er over grensen på {limit} per linje',
    'lineText.limitFile':
      'linjene før den i filen utgjør {soFar}; med denne på {amount} går de over grensen på {limit} per fil',
    'lineText.limitDebtorDay':
      '{iban} sender allerede {soFar} for {day}; med denne på {amount} går kontoen over grensen på {limit} per dag',
    'lineText.unusualTime':
      'filen kom {day, select, sun {søndag} mon {mandag} tue {tirsdag} wed {onsdag} thu {torsdag} fri {fredag} sat {lørdag} other {{day}}} kl. {at} {zone}, utenfor forventet tid ({expected})',
    'lineText.expectedHours': '{days} kl. {from}–{to}',
    'lineText.droppedDuplicate': 'avvist som dublett av {by}: {reason}',
    'lineText.droppedAfterHold': 'avvist etter tilbakehold ({rules}) av {by}: {reason}',
    'lineText.cancelled': 'kansellert av {requestedBy}: {reason}',
    'lineText.cancelledConfirmed': 'kansellert av {requestedBy}, bekreftet av {confirmedBy}: {reason}',
    'lineText.returned': 'Returnert av mottakerens bank',
    'lineText.notFound': 'Ikke funnet i banken',
    'lineText.noAnswer': 'Ikke noe svar fra banken ennå; utfallet er åpent',
    'lineText.refusedWithBulk': 'Avvist med bunten sin på grunn av linje {lines} (ingenting nevnt på denne linjen)',
    'lineText.refusedWithBulkMany':
      'Avvist med bunten sin på grunn av linje {lines} og {more, plural, one {# annen linje} other {# andre linjer}} (ingenting nevnt på denne linjen)',
    'lineText.bankNamedNoLine': '{said} (banken nevnte ingen linje)',
    'lineText.wholeBulk': 'Banken avviste hele bunten',
    'lineText.reasonCode': 'årsak {code}',
  },
});
