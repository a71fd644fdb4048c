// The approve use case: what the rest of settle may use of it. Its other files are its own.
export { approvers } from './approval-audience.js';
export { noticeTotals, type NoticeTotal } from './approval-notice.js';
export { runApprove, type ApproveSummary } from './approve.js';
export { basketPayments } from './basket-payments.js';
export { approvalNoticeText, type ApprovalNotice } from './approval-notice.js';
export { approvalAudience } from './approval-audience.js';
