// The sandbox itself, independent of HTTP: options, clock, state, faults, idempotency and
// events. Time moves only through scheduler.ts advanceClock(). The HTTP layer (server.ts) and
// the in-process API (start.ts) both drive this object.
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../domain/clock.js';
import { EventBus } from './events.js';
import { Faults } from './faults.js';
import { IdempotencyStore } from './idempotency.js';
import type { Logger } from '../log/index.js';
import type { Account, Consent } from './model.js';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.js';
import { seedBureau } from './bureau.js';
import { RateLimit } from './rate-limit.js';
import { SEED, seedState } from './seed.js';
import type { SandboxState } from './state.js';

export interface Link {
  href: string;
  verb: 'get' | 'post' | 'put' | 'delete';
}

export class Sandbox {
  readonly options: ResolvedOptions;
  readonly clock: ManualClock;
  readonly faults: Faults;
  readonly idempotency: IdempotencyStore;
  events: EventBus;
  state: SandboxState;
  /** Scheme, host and port the sandbox is reached at; set once it listens. */
  origin = 'http://localhost';
  readonly logger: Logger | undefined;
  /** The subscription's rate limit, when one was asked for. */
  readonly rateLimit: RateLimit | undefined;

  constructor(options: SandboxOptions = {}) {
    this.options = resolveOptions(options);
    this.logger = options.logger;
    this.clock = new ManualClock(this.options.start);
    this.faults = new Faults(this.options.randomSeed, this.options.latencyMs);
    this.idempotency = new IdempotencyStore(() => this.options.idempotencyRetentionMs);
    this.events = this.newEventBus();
    this.state = this.seed();
    this.rateLimit = this.options.rateLimitPerSecond ? new RateLimit(this.options.rateLimitPerSecond) : undefined;
  }

  private seed(): SandboxState {
    const state = seedState(this.clock.now());
    if (this.options.bureau) seedBureau(state, this.clock.now(), this.options.bureau);
    return state;
  }

  /** Back to the seed: state, clock, faults, idempotency, tokens and webhook subscriptions. */
  reset(start?: Date | string): void {
    this.clock.set(start ?? (this.options.followRealTime ? new Date() : this.options.start));
    this.faults.clear();
    this.faults.reseed(this.options.randomSeed);
    this.faults.latencyMs = this.options.latencyMs;
    this.idempotency.clear();
    this.events.close();
    this.events = this.newEventBus();
    this.state = this.seed();
  }

  get baseUrl(): string {
    return `${this.origin}/api`;
  }

  link(path: string, verb: Link['verb'] = 'get'): Link {
    return { href: `${this.baseUrl}${path}`, verb };
  }

  newUuid(): string {
    return randomUUID();
  }

  /** Queues an event; `at` is when the change happened (defaults to now). */
  emit(type: string, account: Account, data: Record<string, unknown>, at?: number): void {
    this.events.emit({
      time: new Date(at ?? this.clock.now().getTime()).toISOString(),
      type,
      subscriptionId: account.subscriptionId,
      resourceGroupName: account.resourceGroupName,
      resource: `aritma.openbanking/accounts/${account.id}`,
      tenant: SEED.tenant,
      data,
    });
  }

  emitConsent(consent: Consent, at?: number): void {
    this.events.emit({
      time: new Date(at ?? this.clock.now().getTime()).toISOString(),
      type: 'banking.consent.status.updated',
      subscriptionId: consent.subscriptionId,
      resourceGroupName: consent.resourceGroupName,
      resource: `aritma.banking/consents/${consent.consentId}`,
      tenant: SEED.tenant,
      data: { consentId: consent.consentId, status: consent.status },
    });
  }

  private newEventBus(): EventBus {
    return new EventBus(() => this.origin, this.faults, this.options.webhookRetryBaseMs);
  }
}
