// What the payment controls saw beside a hold (the held row's `evidence_text`, migration 0762):
// the rules' evidence, each rule's code with its sentence (`lineText.evidence`), joined with "; ".
import { area } from './area.js';

export const heldEvidence = area({
  en: {
    'heldEvidence.seen': '{evidence}',
  },
  nb: {
    'heldEvidence.seen': '{evidence}',
  },
});
