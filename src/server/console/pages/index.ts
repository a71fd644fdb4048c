// Every console page and action; the shell's router registers each with its role.
import type { ConsoleAction, ConsolePage } from '../page.js';
import { approvalsPage, basketPage, showLinkAction } from './approvals.js';
import { auditCheckpointAction, auditPage, auditVerifyAction } from './audit.js';
import { banksPage } from './banks.js';
import { boardPage } from './board.js';
import { bulksPage, resolveBulkAction } from './bulks.js';
import { cancelPaymentAction, cancelPreviewPage } from './cancel-payment.js';
import { cancellationsPage, confirmCancellationAction, declineCancellationAction } from './cancellations.js';
import { filePage, filesPage } from './files.js';
import { heldPage, holdActions } from './held.js';
import { paymentPage } from './payment.js';
import { paymentsPage } from './payments.js';
import { assignAction, bulkDecisionAction } from './finding-work.js';
import { periodExportPage, signoffAction } from './periods.js';
import { findingActions, reconciliationPage } from './reconciliation.js';
import { reportPage } from './reports.js';
import { statementsPage } from './statements.js';
import { todayPage } from './today.js';

export const CONSOLE_PAGES: ConsolePage[] = [
  todayPage,
  boardPage,
  filesPage,
  filePage,
  paymentsPage,
  paymentPage,
  approvalsPage,
  basketPage,
  reconciliationPage,
  statementsPage,
  banksPage,
  auditPage,
  bulksPage,
  heldPage,
  cancellationsPage,
  cancelPreviewPage,
  reportPage,
  periodExportPage,
];

export const CONSOLE_ACTIONS: ConsoleAction[] = [
  bulkDecisionAction,
  ...findingActions,
  assignAction,
  signoffAction,
  showLinkAction,
  auditCheckpointAction,
  resolveBulkAction,
  ...holdActions,
  cancelPaymentAction,
  confirmCancellationAction,
  declineCancellationAction,
  auditVerifyAction,
];
