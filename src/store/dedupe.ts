// "Have we seen this before?" tables: webhook events (CloudEvents are delivered at least
// once) and alerts already sent (one mail per alert subject, not one per night).
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, isUniqueViolation, type Row } from './rows.js';

export interface IncomingEvent {
  id: string;
  type: string;
  source?: string;
  /** The event as received; stored for diagnosis. */
  payload?: unknown;
}

export class DedupeRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Records a webhook event. False when its id was seen and processed before (a redelivery:
   * do nothing); true when it is new, or was recorded but its processing never finished.
   */
  async recordWebhookEvent(event: IncomingEvent): Promise<boolean> {
    const fresh = await this.insertOnce('webhook_events', {
      event_id: event.id,
      type: event.type,
      source: event.source ?? null,
      received_at: instant(this.clock.now()),
      payload: event.payload === undefined ? null : JSON.stringify(event.payload),
    });
    if (fresh) return true;
    const row = await this.db.knex<Row>('webhook_events').select('processed_at').where({ event_id: event.id }).first();
    return row !== undefined && (row.processed_at === null || row.processed_at === undefined);
  }

  async markWebhookProcessed(eventId: string): Promise<void> {
    await this.db
      .knex('webhook_events')
      .where({ event_id: eventId })
      .update({ processed_at: instant(this.clock.now()) });
  }

  /** True when an alert for `alertKey` was recorded as sent. */
  async alertSent(alertKey: string): Promise<boolean> {
    return (
      (await this.db.knex('alerts_sent').select('finding_key').where({ finding_key: alertKey }).first()) !== undefined
    );
  }

  /** Records that an alert for `alertKey` went out; false when it had already been sent. */
  async recordAlertSent(alertKey: string, channel: string, detail?: string): Promise<boolean> {
    return this.insertOnce('alerts_sent', {
      finding_key: alertKey,
      channel,
      sent_at: instant(this.clock.now()),
      detail: detail ?? null,
    });
  }

  private async insertOnce(table: string, row: Record<string, unknown>): Promise<boolean> {
    try {
      await this.db.knex(table).insert(row);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}
