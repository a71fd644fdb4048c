// The console's pages and actions; the shell (src/server/console/) mounts each with its role.
import type { ConsoleAction, ConsolePage } from '../page.js';
import { approvalsPage, basketPage, showLinkAction } from './approvals.js';
import { banksPage } from './banks.js';
import { filePage, filesPage } from './files.js';
import { paymentPage } from './payment.js';
import { paymentsPage } from './payments.js';
import { findingActions, reconciliationPage } from './reconciliation.js';
import { statementsPage } from './statements.js';

export const CONSOLE_PAGES: ConsolePage[] = [
  filesPage,
  filePage,
  paymentsPage,
  paymentPage,
  approvalsPage,
  basketPage,
  reconciliationPage,
  statementsPage,
  banksPage,
];

export const CONSOLE_ACTIONS: ConsoleAction[] = [...findingActions, showLinkAction];
