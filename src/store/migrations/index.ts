// The forward-only migration list, in order. A migration is never edited or removed once
// released; a schema change is a new entry at the end. The list lives in code (not a folder
// scan) so it runs the same from tsx and from compiled dist/.
import type { Knex } from 'knex';
import { up as paymentsUp } from './0001-payments.js';
import { up as statementsUp } from './0001-statements.js';
import { up as messageIdUp } from './0002-message-id.js';
import { up as paymentInformationIdUp } from './0003-payment-information-id.js';
import { up as transitionSourceUp } from './0010-transition-source.js';
import { up as accountServicerUp } from './0030-account-servicer.js';
import { up as consentsUp } from './0040-consents.js';
import { up as auditTrailUp } from './0060-audit-trail.js';
import { up as findingsUp } from './0061-findings.js';
import { up as heldPaymentsUp } from './0020-held-payments.js';
import { up as jobSuccessesUp } from './0110-job-successes.js';
import { up as categoryPurposeUp } from './0111-category-purpose.js';
import { up as statementDetailsUp } from './0120-statement-details.js';
import { up as creditorReferenceUp } from './0130-creditor-reference.js';
import { up as receivablesUp } from './0140-receivables.js';
import { up as retentionUp } from './0160-retention.js';
import { up as cancellationsUp } from './0220-cancellations.js';
import { up as accountStatusUp } from './0210-account-status.js';
import { up as bankAccountsUp } from './0200-bank-accounts.js';
import { up as receivableClosedUp } from './0250-receivable-closed.js';
import { up as likelyDuplicateIndexUp } from './0270-likely-duplicate-index.js';
import { up as historyIndexesUp } from './0271-history-indexes.js';
import { up as consoleIndexesUp } from './0240-console-indexes.js';
import { up as redroppedRejectedFilesUp } from './0400-redropped-rejected-files.js';
import { up as operatorIndexesUp } from './0410-operator-indexes.js';
import { up as todayIndexesUp } from './0420-today-indexes.js';
import { up as paymentsStateIndexUp } from './0460-payments-state-index.js';
import { up as leaseTokenUp } from './0430-lease-token.js';
import { up as reportsUp } from './0421-reports.js';
import { up as camt029FinalAnswersUp } from './0401-camt029-final-answers.js';
import { up as bulkBankConsentUp } from './0402-bulk-bank-consent.js';
import { up as auditCheckpointsUp } from './0422-audit-checkpoints.js';
import { up as signInFailuresUp } from './0423-sign-in-failures.js';
import { up as signInGuardsUp } from './0620-sign-in-guards.js';
import { up as cancellationPersonUp } from './0621-cancellation-person.js';
import { up as consoleSessionsUp } from './0622-console-sessions.js';
import { up as electronicSequenceNumbersUp } from './0490-electronic-sequence-numbers.js';
import { up as sequenceNumberContentUp } from './0510-sequence-number-content.js';
import { up as exportFloorsUp } from './0520-export-floors.js';
import { up as historyBoundedReadsUp } from './0530-history-bounded-reads.js';
import { up as receivablesClosedIndexUp } from './0540-receivables-closed-index.js';
import { up as stateCountsUp } from './0550-state-counts.js';
import { up as heldAwaitingBulkUp } from './0560-held-awaiting-bulk.js';
import { up as cancellationsOwedIndexUp } from './0570-cancellations-owed-index.js';
import { up as bureauScanIndexesUp } from './0580-bureau-scan-indexes.js';
import { up as cancellationsBulkIndexUp } from './0590-cancellations-bulk-index.js';
import { up as foreignKeyIndexesUp } from './0600-foreign-key-indexes.js';
import { up as paymentLinePartiesUp } from './0610-payment-line-parties.js';
import { up as shortIdentifiersUp } from './0630-short-identifiers.js';
import { up as jobRunsOutcomeIndexUp } from './0640-job-runs-outcome-index.js';
import { up as holdRulesUp } from './0650-hold-rules.js';
import { up as holdFirstReleaseUp } from './0660-hold-first-release.js';
import { up as creditorIdsUp } from './0670-creditor-ids.js';
import { up as boardIndexesUp } from './0680-board-indexes.js';
import { up as auditCompanyUp } from './0690-audit-company.js';
import { up as auditRefusalsUp } from './0691-audit-refusals.js';
import { up as instructionIdUp } from './0700-instruction-id.js';
import { up as proprietaryCodeUp } from './0701-proprietary-bank-transaction-code.js';
import { up as findingsWorkUp } from './0710-findings-work.js';
import { up as fileDroppedByUp } from './0750-file-dropped-by.js';
import { up as findingTextUp } from './0760-finding-text.js';
import { up as creditorNameFoldedUp } from './0761-creditor-name-folded.js';
import { up as heldEvidenceTextUp } from './0762-held-evidence-text.js';
import { up as auditReasonTextUp } from './0763-audit-reason-text.js';
import { up as transitionCauseTextUp } from './0764-transition-cause-text.js';
import { up as reportPartsUp } from './0765-report-parts.js';
import { up as reportPartsReferenceUp } from './0766-report-parts-reference.js';
import { up as reportSizeUp } from './0767-report-size.js';
import { up as stateIndexAtRestUp } from './0768-state-index-at-rest.js';
import { up as bulkIndexOfJoinedLinesUp } from './0769-bulk-index-of-joined-lines.js';

export interface Migration {
  readonly name: string;
  up(knex: Knex): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    name: '0001_initial_schema',
    async up(knex) {
      await paymentsUp(knex);
      await statementsUp(knex);
    },
  },
  { name: '0002_payment_file_message_id', up: messageIdUp },
  { name: '0003_payment_information_id', up: paymentInformationIdUp },
  { name: '0010_transition_source', up: transitionSourceUp },
  { name: '0030_account_servicer', up: accountServicerUp },
  { name: '0040_consents', up: consentsUp },
  { name: '0060_audit_trail', up: auditTrailUp },
  { name: '0061_findings', up: findingsUp },
  { name: '0020_held_payments', up: heldPaymentsUp },
  { name: '0110_job_successes', up: jobSuccessesUp },
  { name: '0111_category_purpose', up: categoryPurposeUp },
  { name: '0120_statement_details', up: statementDetailsUp },
  { name: '0130_transaction_creditor_reference', up: creditorReferenceUp },
  { name: '0140_receivables', up: receivablesUp },
  { name: '0160_retention', up: retentionUp },
  { name: '0220_cancellations', up: cancellationsUp },
  { name: '0210_account_status', up: accountStatusUp },
  { name: '0200_bank_accounts', up: bankAccountsUp },
  { name: '0250_receivable_closed', up: receivableClosedUp },
  { name: '0270_likely_duplicate_index', up: likelyDuplicateIndexUp },
  { name: '0271_history_indexes', up: historyIndexesUp },
  { name: '0240_console_indexes', up: consoleIndexesUp },
  { name: '0400_redropped_rejected_files', up: redroppedRejectedFilesUp },
  { name: '0410_operator_indexes', up: operatorIndexesUp },
  { name: '0420_today_indexes', up: todayIndexesUp },
  { name: '0430_lease_token', up: leaseTokenUp },
  { name: '0421_reports', up: reportsUp },
  { name: '0401_camt029_final_answers', up: camt029FinalAnswersUp },
  { name: '0402_bulk_bank_consent', up: bulkBankConsentUp },
  { name: '0422_audit_checkpoints', up: auditCheckpointsUp },
  { name: '0423_sign_in_failures', up: signInFailuresUp },
  { name: '0460_payments_state_index', up: paymentsStateIndexUp },
  { name: '0490_electronic_sequence_numbers', up: electronicSequenceNumbersUp },
  { name: '0510_sequence_number_content', up: sequenceNumberContentUp },
  { name: '0520_export_floors', up: exportFloorsUp },
  { name: '0530_history_bounded_reads', up: historyBoundedReadsUp },
  { name: '0540_receivables_closed_index', up: receivablesClosedIndexUp },
  { name: '0550_state_counts', up: stateCountsUp },
  { name: '0560_held_awaiting_bulk', up: heldAwaitingBulkUp },
  { name: '0570_cancellations_owed_index', up: cancellationsOwedIndexUp },
  { name: '0580_bureau_scan_indexes', up: bureauScanIndexesUp },
  { name: '0590_cancellations_bulk_index', up: cancellationsBulkIndexUp },
  { name: '0600_foreign_key_indexes', up: foreignKeyIndexesUp },
  { name: '0610_payment_line_parties', up: paymentLinePartiesUp },
  { name: '0620_sign_in_guards', up: signInGuardsUp },
  { name: '0621_cancellation_person', up: cancellationPersonUp },
  { name: '0622_console_sessions', up: consoleSessionsUp },
  { name: '0630_short_identifiers', up: shortIdentifiersUp },
  { name: '0640_job_runs_outcome_index', up: jobRunsOutcomeIndexUp },
  { name: '0650_hold_rules', up: holdRulesUp },
  { name: '0660_hold_first_release', up: holdFirstReleaseUp },
  { name: '0670_creditor_ids', up: creditorIdsUp },
  { name: '0680_board_indexes', up: boardIndexesUp },
  { name: '0690_audit_company', up: auditCompanyUp },
  { name: '0691_audit_refusals', up: auditRefusalsUp },
  { name: '0700_instruction_id', up: instructionIdUp },
  { name: '0701_proprietary_bank_transaction_code', up: proprietaryCodeUp },
  { name: '0710_findings_work', up: findingsWorkUp },
  { name: '0750_file_dropped_by', up: fileDroppedByUp },
  { name: '0760_finding_text', up: findingTextUp },
  { name: '0761_creditor_name_folded', up: creditorNameFoldedUp },
  { name: '0762_held_evidence_text', up: heldEvidenceTextUp },
  { name: '0763_audit_reason_text', up: auditReasonTextUp },
  { name: '0764_transition_cause_text', up: transitionCauseTextUp },
  { name: '0765_report_parts', up: reportPartsUp },
  { name: '0766_report_parts_reference', up: reportPartsReferenceUp },
  { name: '0767_report_size', up: reportSizeUp },
  { name: '0768_state_index_at_rest', up: stateIndexAtRestUp },
  { name: '0769_bulk_index_of_joined_lines', up: bulkIndexOfJoinedLinesUp },
];
