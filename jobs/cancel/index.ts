// The cancel use case: what the rest of settle may use of it. Its other files are its own.
export { type Camt055Answer, answerCamt055 } from './camt055-intake.js';
export {
  completeCancelledAtBank,
  refuseLeftAtBank,
  cancelPayment,
  type CancelResult,
  confirmCancellation,
} from './cancel.js';
export { previewCancellation, declineCancellation } from './review.js';
