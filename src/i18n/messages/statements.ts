// The console's Statements page (src/server/console/pages/statements.tsx): per account, the
// checked days with their continuity, balances and the statement files written for them.
import { area } from './area.js';

export const statements = area({
  en: {
    'statements.title': 'Statements',
    'statements.noAccount': 'No account has been fetched from the bank yet.',
    'statements.noSuchAccount': 'No such account',
    'statements.noAccountWithId': 'The company has no account with this id.',
    'statements.accounts': 'accounts',
    'statements.moreAccounts': 'More accounts',
    'statements.heading': '{account}{name, select, none {} other { — {name}}}',
    'statements.payrollAccount': 'A payroll account: its balances and daily sums are shown to the payroll role only.',
    'statements.caption': 'Days of {account}, newest first',
    'statements.head.day': 'Day',
    'statements.head.continuity': 'Continuity',
    'statements.head.opening': 'Opening',
    'statements.head.booked': 'Booked',
    'statements.head.closing': 'Closing',
    'statements.head.entries': 'Entries',
    'statements.head.exported': 'Exported',
    'statements.none': 'none',
    'statements.continuity':
      '{continuity, select, ok {ok} gap {gap} mismatch {mismatch} unchecked {unchecked} other {{continuity}}}',
    'statements.export': '{format} ({file})',
    'statements.notExported': 'not exported',
  },
  nb: {
    'statements.title': 'Kontoutskrifter',
    'statements.noAccount': 'Ingen konto er hentet fra banken ennå.',
    'statements.noSuchAccount': 'Kontoen finnes ikke',
    'statements.noAccountWithId': 'Selskapet har ingen konto med denne id-en.',
    'statements.accounts': 'kontoer',
    'statements.moreAccounts': 'Flere kontoer',
    'statements.heading': '{account}{name, select, none {} other { — {name}}}',
    'statements.payrollAccount': 'En lønnskonto: saldoene og dagssummene vises bare for lønnsrollen.',
    'statements.caption': 'Dager for {account}, nyeste først',
    'statements.head.day': 'Dag',
    'statements.head.continuity': 'Sammenheng',
    'statements.head.opening': 'Inngående saldo',
    'statements.head.booked': 'Bokført',
    'statements.head.closing': 'Utgående saldo',
    'statements.head.entries': 'Posteringer',
    'statements.head.exported': 'Eksportert',
    'statements.none': 'ingen',
    'statements.continuity':
      '{continuity, select, ok {ok} gap {hull} mismatch {stemmer ikke} unchecked {ikke kontrollert} other {{continuity}}}',
    'statements.export': '{format} ({file})',
    'statements.notExported': 'ikke eksportert',
  },
});
