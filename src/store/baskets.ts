// Signing baskets: the approval of sent bulks by the company's approvers. The approval link is
// single use and expires within days, and issuing links may be invoiced, so the link and its
// expiry are stored and a new one is issued only after the old one has expired.
import type { Clock } from '../domain/clock.js';
import type { BasketState } from '../domain/states.js';
import type { Database } from './database.js';
import { basketIdempotencyKey, newId } from './ids.js';
import { chunks, instant, toDate, toJson, toOptDate, toOptStr, toStr, type Row } from './rows.js';
import { recordCreation, transition, type TransitionSource } from './transitions.js';
import { cause as causes, type CauseInput } from '../domain/transition-cause.js';

export interface StoredBasket {
  id: string;
  company: string;
  idempotencyKey: string;
  state: BasketState;
  bankBasketId?: string;
  approvalLink?: string;
  approvalLinkExpiresAt?: Date;
  lastProblem?: unknown;
  createdAt: Date;
}

export class BasketRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Creates the basket for these bulks, or returns the one that already exists for exactly them. */
  async create(
    company: string,
    bulkIds: readonly string[],
    cause: CauseInput = causes.approve(),
  ): Promise<StoredBasket> {
    const key = basketIdempotencyKey(bulkIds);
    const now = this.clock.now();
    await this.db.transaction(async (trx) => {
      if (await trx<Row>('baskets').where({ idempotency_key: key }).first()) return;
      const id = newId(this.clock);
      await trx('baskets').insert({
        id,
        company,
        idempotency_key: key,
        state: 'pending',
        created_at: instant(now),
        updated_at: instant(now),
      });
      for (const part of chunks(bulkIds, 100))
        await trx('basket_items').insert(part.map((bulkId) => ({ basket_id: id, bulk_id: bulkId })));
      await recordCreation(trx, {
        kind: 'basket',
        ids: [id],
        company,
        to: 'pending',
        cause,
        source: 'approve',
        at: now,
      });
    });
    return toBasket((await this.db.knex<Row>('baskets').where({ idempotency_key: key }).first())!);
  }

  async get(id: string): Promise<StoredBasket | undefined> {
    const row = await this.db.knex<Row>('baskets').where({ id }).first();
    return row ? toBasket(row) : undefined;
  }

  async listByState(state: BasketState): Promise<StoredBasket[]> {
    return (await this.db.knex<Row>('baskets').where({ state }).orderBy('id')).map(toBasket);
  }

  /**
   * A company's baskets in any of `states`, in the order of `states`, oldest first within each:
   * one read through baskets_console_ix instead of one per state over every company's baskets.
   */
  async listInStates(company: string, states: readonly BasketState[]): Promise<StoredBasket[]> {
    const rows = await this.db
      .knex<Row>('baskets')
      .where({ company })
      .whereIn('state', [...states])
      .orderBy('id');
    const rank = (row: Row) => states.indexOf(toStr(row.state) as BasketState);
    // Array sort is stable: within a state the rows keep the database's order by id.
    return rows.sort((a, b) => rank(a) - rank(b)).map(toBasket);
  }

  /** The baskets that hold any of these bulks, sorted. */
  async idsHolding(bulkIds: readonly string[]): Promise<string[]> {
    const ids = new Set<string>();
    for (const part of chunks(bulkIds)) {
      for (const r of await this.db.knex<Row>('basket_items').select('basket_id').whereIn('bulk_id', part))
        ids.add(toStr(r.basket_id));
    }
    return [...ids].sort();
  }

  /**
   * Of these bulks, the ones already in a basket that is not failed or cancelled (they need no
   * second basket). Asked by bulk (basket_items_bulk_ix): the bulks waiting now, not every
   * basket the company has signed over the years.
   */
  async bulksInLiveBaskets(bulkIds: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of chunks(bulkIds)) {
      const rows = (await this.db
        .knex<Row>('basket_items')
        .join('baskets', 'baskets.id', 'basket_items.basket_id')
        .select('basket_items.bulk_id')
        .whereIn('basket_items.bulk_id', part)
        .whereNotIn('baskets.state', ['failed', 'cancelled'])) as Row[];
      for (const r of rows) out.add(toStr(r.bulk_id));
    }
    return out;
  }

  /** How many approval links a basket has had (numbers the idempotency key of the next one). */
  async linksIssued(basketId: string): Promise<number> {
    const row = await this.db
      .knex<Row>('transitions')
      .count({ n: '*' })
      .where({ entity_type: 'basket', entity_id: basketId, to_state: 'link_issued' })
      .first();
    return Number(row?.n ?? 0);
  }

  async bulkIds(basketId: string): Promise<string[]> {
    return (
      await this.db.knex<Row>('basket_items').select('bulk_id').where({ basket_id: basketId }).orderBy('bulk_id')
    ).map((r) => toStr(r.bulk_id));
  }

  /** The bank created the basket. */
  async markCreated(id: string, bankBasketId: string, cause: CauseInput = causes.basketCreated()): Promise<void> {
    await this.move(id, 'created', cause, { bank_basket_id: bankBasketId });
  }

  /** A new approval link for the approvers (from created, or after the previous link expired). */
  async issueLink(
    id: string,
    approvalLink: string,
    expiresAt: Date,
    cause: CauseInput = causes.linkIssued(),
  ): Promise<void> {
    await this.move(id, 'link_issued', cause, { sca_link: approvalLink, sca_link_expires_at: instant(expiresAt) });
  }

  async markAuthorised(id: string, cause: CauseInput = causes.authorised()): Promise<void> {
    await this.move(id, 'authorised', cause);
  }

  async markFailed(id: string, problem: unknown, cause: CauseInput = causes.basketFailed()): Promise<void> {
    await this.move(id, 'failed', cause, { last_problem: JSON.stringify(problem) });
  }

  /** Marks every issued link whose expiry has passed as expired; returns the basket ids. */
  async expireLinks(cause: CauseInput = causes.linkExpired()): Promise<string[]> {
    const now = this.clock.now();
    const due = await this.db
      .knex<Row>('baskets')
      .select('id')
      .where({ state: 'link_issued' })
      .andWhere('sca_link_expires_at', '<=', instant(now));
    const ids = due.map((r) => toStr(r.id));
    if (ids.length > 0) await this.move(ids, 'expired', cause);
    return ids;
  }

  /** A link that was opened without completing the approval is spent like an expired one. */
  async markLinkSpent(id: string, cause: CauseInput): Promise<void> {
    await this.move(id, 'expired', cause);
  }

  private async move(ids: string | readonly string[], to: BasketState, cause: CauseInput, set?: Row): Promise<void> {
    const at = this.clock.now();
    const source: TransitionSource = 'approve';
    await this.db.transaction((trx) =>
      transition(trx, {
        kind: 'basket',
        ids: typeof ids === 'string' ? [ids] : ids,
        to,
        cause,
        source,
        at,
        ...(set ? { set } : {}),
      }),
    );
  }
}

function toBasket(r: Row): StoredBasket {
  const bankBasketId = toOptStr(r.bank_basket_id);
  const approvalLink = toOptStr(r.sca_link);
  const approvalLinkExpiresAt = toOptDate(r.sca_link_expires_at);
  const lastProblem = toJson(r.last_problem);
  return {
    id: toStr(r.id),
    company: toStr(r.company),
    idempotencyKey: toStr(r.idempotency_key),
    state: toStr(r.state) as BasketState,
    ...(bankBasketId === undefined ? {} : { bankBasketId }),
    ...(approvalLink === undefined ? {} : { approvalLink }),
    ...(approvalLinkExpiresAt === undefined ? {} : { approvalLinkExpiresAt }),
    ...(lastProblem === undefined ? {} : { lastProblem }),
    createdAt: toDate(r.created_at),
  };
}
