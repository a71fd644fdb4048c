// The evidence of a match in the reconciliation report's "Rule and evidence (score)" column: what
// agreed and what differed, read back from the line the run recorded (src/domain/reconcile/
// evidence.ts, src/i18n/evidence.ts). English readers keep that line as it was recorded; these
// sentences write it in another language.
import { area } from './area.js';

export const evidence = area({
  en: {
    'evidence.line': 'agreed: {agreed}{differed, select, none {} other {; differed: {differed}}} (score {score})',
    'evidence.nothing': 'nothing',
    'evidence.part':
      '{part, select, endToEndId {end-to-end id} creditorReference {creditor reference} counterpartyAccount {counterparty account} debtorAccount {debtor account} creditorAccount {creditor account} amount {amount} date {date} other {currency}}',
    'evidence.name': 'name ({percent} % alike)',
    'evidence.sumOfLines': 'sum of {lines} lines',
    'evidence.amountBy':
      'amount by {amount}{why, select, fee { (a bank fee within the fee tolerance)} within { (within the tolerance of {allowed})} other {}}',
    'evidence.date':
      'date, {days, plural, =0 {same day} one {# day {direction, select, after {after} other {before}}} other {# days {direction, select, after {after} other {before}}}}{outside, select, yes {, outside the window} other {}}',
  },
  nb: {
    'evidence.line': 'stemmer: {agreed}{differed, select, none {} other {; avviker: {differed}}} ({score} poeng)',
    'evidence.nothing': 'ingenting',
    'evidence.part':
      '{part, select, endToEndId {ende-til-ende-ID} creditorReference {KID / RF-referanse} counterpartyAccount {motpartens konto} debtorAccount {belastningskonto} creditorAccount {mottakers konto} amount {beløp} date {dato} other {valuta}}',
    'evidence.name': 'navn ({percent} % likt)',
    'evidence.sumOfLines': 'summen av {lines} linjer',
    'evidence.amountBy':
      'beløpet med {amount}{why, select, fee { (et bankgebyr innenfor gebyrtoleransen)} within { (innenfor toleransen på {allowed})} other {}}',
    'evidence.date':
      'datoen, {days, plural, =0 {samme dag} one {# dag {direction, select, after {etter} other {før}}} other {# dager {direction, select, after {etter} other {før}}}}{outside, select, yes {, utenfor datovinduet} other {}}',
  },
});
