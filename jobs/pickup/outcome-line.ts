// The first line of a file's report: what happened to the file, in the accountant's words, and
// what to do — before the list of problems, which says what is wrong with each line. Whether to
// drop the whole file again or only the corrected lines follows from what was accepted: lines
// already accepted would be refused as duplicates if the whole file came again.
export interface PickupOutcome {
  kind: 'accepted' | 'partially-accepted' | 'rejected';
  /** Payment lines in the file. */
  payments: number;
  /** Lines accepted (sent on the next submit unless held). */
  accepted: number;
  /** Accepted lines held for a person. */
  held: number;
}

export function outcomeLine(o: PickupOutcome): string {
  const heldNote =
    o.held > 0
      ? ` ${o.held} of them ${o.held === 1 ? 'is' : 'are'} held for a person (listed below) and not sent until released.`
      : '';
  switch (o.kind) {
    case 'rejected':
      return 'NOTHING FROM THIS FILE WAS SENT: no payment of it goes to the bank. Correct the problems below in the ERP, then drop the whole corrected file again.';
    case 'partially-accepted':
      return `PART OF THIS FILE WAS ACCEPTED: ${o.accepted} of ${o.payments} payment(s) will be sent;${heldNote} the ${o.payments - o.accepted} line(s) with errors below were not. Correct those lines in the ERP and send only them, in a new file: the whole file again would repeat the accepted ones.`;
    case 'accepted':
      return `THIS FILE WAS ACCEPTED: ${o.accepted} of ${o.payments} payment(s).${heldNote}`;
  }
}
