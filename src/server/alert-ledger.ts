// The alerts-sent record in the database, for "once for each thing". One row per alert subject
// and channel (key `<subject>#<channel>`), so a channel that failed is retried later without
// re-sending on the channels that worked. Shared by every instance on the database.
import { createHash } from 'node:crypto';
import type { AlertLedger } from '../alerts/index.js';
import type { DedupeRepository } from '../store/index.js';

export class StoreAlertLedger implements AlertLedger {
  constructor(private readonly dedupe: DedupeRepository) {}

  wasSent(key: string, channel: string): Promise<boolean> {
    return this.dedupe.alertSent(ledgerKey(key, channel));
  }

  recordSent(key: string, channel: string, detail?: string): Promise<boolean> {
    return this.dedupe.recordAlertSent(ledgerKey(key, channel), channel, detail);
  }
}

/** finding_key is 255 characters: long alert keys keep their start and a hash of the whole. */
function ledgerKey(key: string, channel: string): string {
  const full = `${key}#${channel}`;
  if (full.length <= 255) return full;
  return `${full.slice(0, 160)}~${createHash('sha256').update(full).digest('hex').slice(0, 32)}#${channel}`;
}
