// The one basket move BasketRepository does not offer: a link that was opened without
// completing the approval is spent just like an expired one (link_issued → expired), so the next
// step issues exactly one new link. Goes through the basket state machine and the transition log.
import type { Clock } from '../../src/domain/clock.js';
import { basketMachine } from '../../src/domain/states.js';
import type { Database } from '../../src/store/index.js';
import { changeState } from '../../src/store/state-log.js';

export async function markLinkSpent(db: Database, clock: Clock, basketId: string, cause: string): Promise<void> {
  const at = clock.now();
  await db.transaction((trx) =>
    changeState(trx, { entityType: 'basket', id: basketId, machine: basketMachine, to: 'expired', cause, at }),
  );
}
