// Targeted, deterministic faults (POST /__sandbox/faults). A rule names a route pattern
// ("POST /api/bulk-payments/*"; * is one path segment, ** any rest), a kind, and how often:
// `count` (the next N matching requests) and/or `rate` (a probability drawn from a seeded PRNG).
// A `misfit` does the work, then answers with the top-level fields of `set` overwritten (a
// number for an id): the answer the bank stores for the key is the misfit one too.
import { badRequest } from './problems.js';
import { seededRandom } from '../domain/random.js';

export type FaultKind = 'error' | 'rateLimit' | 'latency' | 'lostResponse' | 'misfit';

export interface FaultRule {
  id: number;
  method: string; // '*' = any
  pattern: RegExp;
  route: string;
  kind: FaultKind;
  status: number;
  latencyMs: number;
  retryAfterSeconds: number;
  rate: number;
  remaining: number | null; // null = unlimited
  hits: number;
  /** For `misfit`: the top-level fields written over the answer. */
  set: Record<string, unknown>;
}

export interface WebhookFaults {
  duplicateRate: number;
  reorder: boolean;
}

export class Faults {
  private rules: FaultRule[] = [];
  private nextId = 1;
  private random: () => number;
  latencyMs: number;
  webhooks: WebhookFaults = { duplicateRate: 0, reorder: false };

  constructor(seed: number, latencyMs: number) {
    this.random = seededRandom(seed);
    this.latencyMs = latencyMs;
  }

  reseed(seed: number): void {
    this.random = seededRandom(seed);
  }

  chance(rate: number): boolean {
    return rate >= 1 || (rate > 0 && this.random() < rate);
  }

  add(input: unknown): FaultRule {
    if (input === null || typeof input !== 'object') throw badRequest('a fault must be an object');
    const o = input as Record<string, unknown>;
    const route = typeof o.route === 'string' ? o.route.trim() : '';
    const m = /^(?:([A-Z]+|\*)\s+)?(\/\S*)$/.exec(route);
    if (!m?.[2]) throw badRequest('fault.route must look like "POST /api/bulk-payments/*"');
    const kind = o.kind ?? 'error';
    if (
      kind !== 'error' &&
      kind !== 'rateLimit' &&
      kind !== 'latency' &&
      kind !== 'lostResponse' &&
      kind !== 'misfit'
    ) {
      throw badRequest('fault.kind must be error, rateLimit, latency, lostResponse or misfit');
    }
    const set = o.set ?? {};
    if (set === null || typeof set !== 'object' || Array.isArray(set)) throw badRequest('fault.set must be an object');
    const num = (v: unknown, dflt: number, name: string): number => {
      if (v === undefined) return dflt;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        throw badRequest(`fault.${name} must be a non-negative number`);
      return v;
    };
    const rule: FaultRule = {
      id: this.nextId++,
      method: m[1] ?? '*',
      pattern: globToRegExp(m[2]),
      route,
      kind,
      status: num(o.status, kind === 'rateLimit' ? 429 : 503, 'status'),
      latencyMs: num(o.latencyMs, 0, 'latencyMs'),
      retryAfterSeconds: num(o.retryAfterSeconds, 1, 'retryAfterSeconds'),
      rate: num(o.rate, 1, 'rate'),
      remaining: o.count === undefined ? null : num(o.count, 1, 'count'),
      hits: 0,
      set: set as Record<string, unknown>,
    };
    this.rules.push(rule);
    return rule;
  }

  /** The rules that fire for this request (each firing uses up one of its count). */
  take(method: string, path: string): FaultRule[] {
    const fired: FaultRule[] = [];
    for (const rule of this.rules) {
      if (rule.remaining === 0) continue;
      if (rule.method !== '*' && rule.method !== method) continue;
      if (!rule.pattern.test(path)) continue;
      if (!this.chance(rule.rate)) continue;
      if (rule.remaining !== null) rule.remaining--;
      rule.hits++;
      fired.push(rule);
    }
    return fired;
  }

  list(): object[] {
    return this.rules.map((r) => ({
      id: r.id,
      route: r.route,
      kind: r.kind,
      status: r.status,
      latencyMs: r.latencyMs,
      retryAfterSeconds: r.retryAfterSeconds,
      rate: r.rate,
      remaining: r.remaining,
      hits: r.hits,
      ...(r.kind === 'misfit' ? { set: r.set } : {}),
    }));
  }

  clear(): void {
    this.rules = [];
    this.webhooks = { duplicateRate: 0, reorder: false };
  }
}

function globToRegExp(glob: string): RegExp {
  const path = glob.split('?')[0] ?? glob;
  const body = path
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}/?$`);
}
