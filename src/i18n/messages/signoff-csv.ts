// The words inside a signed period's CSV as a person opens it from the console (the cells the
// machine CSV writes as codes: which part of the export a row is, and the period's state). The
// heads are `reportSignoff.csv.*`; a finding type reads its `findingType.*.title`.
import { area } from './area.js';

export const signoffCsv = area({
  en: {
    'signoffCsv.section.period': 'period',
    'signoffCsv.section.balance': 'balance',
    'signoffCsv.section.finding_type': 'finding type',
    'signoffCsv.state.signed': 'signed off',
    'signoffCsv.state.reopened': 'reopened',
  },
  nb: {
    'signoffCsv.section.period': 'periode',
    'signoffCsv.section.balance': 'saldo',
    'signoffCsv.section.finding_type': 'avvikstype',
    'signoffCsv.state.signed': 'avsluttet',
    'signoffCsv.state.reopened': 'åpnet igjen',
  },
});
