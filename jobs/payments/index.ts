// What the payment use cases share (submit, approve, status, cancel): their dependencies, the
// send-failure explanations, a payment's whole story, and resolving an unknown bulk by hand.
export { DEFAULT_CLAIM_LEASE_MS, type ApprovalMailer, type PaymentJobDeps } from './deps.js';
export {
  explainSendFailure,
  maskIban,
  problemOf,
  type BulkContext,
  type Explained,
  type SendVerdict,
} from './explain.js';
export { type CutOffSettings } from './deps.js';
export { paymentStoryJson, sentUnder } from './payment-story.js';
export { paymentStoryText } from './payment-story-text.js';
export { resolveBulkByHand, type HandResolution } from './resolve-by-hand.js';
