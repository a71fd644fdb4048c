// Idempotency-Key on POST (spec §4.1): the first response for a key — success or failure — is
// kept for the retention window and replayed with Idempotent-Replayed: true (201 becomes 200).
// Stricter choices where the spec is silent: the key must be a UUID (else 400); keys are per
// client; the same key with a different method, path or body is refused with 422 and never
// makes a second resource; a replay while the first request is still running gets 409.
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

export interface StoredResponse {
  status: number;
  body: string;
  contentType: string;
  location: string | undefined;
}

interface Entry {
  fingerprint: string;
  storedAt: number;
  response: StoredResponse | null; // null while the first request is in flight
}

export type Lookup =
  { kind: 'new' } | { kind: 'replay'; response: StoredResponse } | { kind: 'mismatch' } | { kind: 'in-flight' };

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly retentionMs: () => number) {}

  /** Looks the key up and, when new, reserves it for this request. */
  begin(clientId: string, key: string, fingerprint: string, now: number): Lookup {
    const id = `${clientId}\u0000${key.toLowerCase()}`;
    const entry = this.entries.get(id);
    if (entry && (entry.response === null || now - entry.storedAt < this.retentionMs())) {
      if (entry.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (entry.response === null) return { kind: 'in-flight' };
      return { kind: 'replay', response: entry.response };
    }
    this.entries.set(id, { fingerprint, storedAt: now, response: null });
    return { kind: 'new' };
  }

  complete(clientId: string, key: string, response: StoredResponse, now: number): void {
    const entry = this.entries.get(`${clientId}\u0000${key.toLowerCase()}`);
    if (entry) {
      entry.response = response;
      entry.storedAt = now;
    }
  }

  /** Drops a reservation whose request never produced a response (the socket died first). */
  abandon(clientId: string, key: string): void {
    const id = `${clientId}\u0000${key.toLowerCase()}`;
    if (this.entries.get(id)?.response === null) this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Method, path and a canonical form of the JSON body: key order does not matter, values do. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/**
 * JSON with every object's keys in order, so a retry whose body only orders its keys differently
 * is the same request. JSON.stringify does the walk (a 1,000-line bulk is a few hundred
 * kilobytes, and a hand-written walk cost the sandbox about 10 ms a bulk); objects whose keys are
 * already in order, as most clients send them, are passed through as they are.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isPlainObject(v) ? withSortedKeys(v) : v)) ?? 'null';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function withSortedKeys(v: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(v);
  if (keys.every((k, i) => i === 0 || keys[i - 1]! < k)) return v;
  const sorted: Record<string, unknown> = {};
  for (const k of keys.sort()) sorted[k] = v[k];
  return sorted;
}
