// Which lines of a file pickup holds for a person, and why: likely duplicates
// (duplicate-holds.ts) and the payment controls (rules.ts), decided here as the file's batches
// come. The pickup job makes the rule from the company's settings and hands it to the file
// ledger, which reads the facts it asks for inside the file's transaction and stores each line
// as decided, held or accepted, in that transaction (docs/decisions/0014): the store decides
// nothing (docs/architecture.md, "Plans").
import type {
  DecidedHold,
  FileHoldRule,
  HoldInput,
  PaidCreditor,
  DayTotal,
  PickupFacts,
  PickupHoldRule,
} from '../hold.js';
import type { LocalDate } from '../local-date.js';
import type { PaymentInstruction } from '../payment.js';
import { recorded } from '../recorded-text.js';
import { FileDuplicates } from './duplicate-holds.js';
import { PayeeHistory, type KnownAccount } from './history.js';
import { heldReasonCodes, holdMessages } from './reason-codes.js';
import { dayKey, FileControls, type ControlHit } from './rules.js';
import { DUPLICATE_RULE, releasesNeeded, type ControlSettings } from './settings.js';

/** What a file is checked with: the company's settings, the known-accounts file, its day and zone. */
export interface ControlSetup {
  settings: ControlSettings;
  known: readonly KnownAccount[];
  timeZone: string;
  today: LocalDate;
}

/** What the controls compare a file with: what the company paid, and what its debtor accounts send a day. */
export interface ControlHistory {
  history: PayeeHistory;
  dayTotals: Map<string, bigint>;
}

/** The controls' history from the store's facts, with the known-accounts file's accounts as paid before. */
export function controlHistoryOf(
  facts: { paid: readonly PaidCreditor[]; days: readonly DayTotal[] },
  known: readonly KnownAccount[] = [],
): ControlHistory {
  const history = new PayeeHistory();
  for (const k of known) history.add(k.account, { name: k.name, orgId: k.orgId, creditorId: k.creditorId }, 0);
  for (const r of facts.paid)
    history.add(r.account, { name: r.name, orgId: r.orgId, creditorId: r.creditorId }, r.count, r.first);
  const dayTotals = new Map<string, bigint>();
  for (const d of facts.days) dayTotals.set(dayKey(d.debtorIban, d.currency, d.day), d.total);
  return { history, dayTotals };
}

/** How a company's files are checked at pickup: the likely-duplicate window's start, and the controls. */
export interface PickupHoldOptions {
  duplicatesSince?: Date | undefined;
  controls?: ControlSetup | undefined;
}

/** The hold rule of a company's pickup; `forFile` gives each attempt at storing a file its own state. */
export class PickupHolds implements PickupHoldRule {
  constructor(private readonly options: PickupHoldOptions) {}

  forFile(receivedAt: Date): FileHoldRule {
    return new FileHolds(this.options, receivedAt);
  }
}

/**
 * One file's holds as its batches come. The controls' history is read on the first batch (inside
 * the file's transaction), then every line is checked in file order. A line held as a duplicate
 * is checked too: its hold gains the rules and their evidence.
 */
class FileHolds implements FileHoldRule {
  private readonly duplicates: FileDuplicates | undefined;
  private controls: FileControls | undefined;

  constructor(
    private readonly options: PickupHoldOptions,
    private readonly receivedAt: Date,
  ) {
    const since = options.duplicatesSince;
    this.duplicates = since ? new FileDuplicates(since) : undefined;
  }

  async holds(
    batch: readonly PaymentInstruction[],
    ids: readonly string[],
    facts: PickupFacts,
  ): Promise<DecidedHold[]> {
    const duplicates = this.duplicates ? await this.duplicates.holds(batch, ids, facts) : [];
    const holds = this.options.controls
      ? await this.withControlHolds(this.options.controls, batch, ids, duplicates, facts)
      : duplicates;
    // Shown to the ERP with the line in its status file while it waits for a person.
    return holds.map((h) => ({
      ...h,
      messages: holdMessages(heldReasonCodes(h.rules ?? [DUPLICATE_RULE]), h.reason, h.reasonText),
    }));
  }

  /** `duplicates` (of this batch) with the control holds added, in the batch's order. */
  private async withControlHolds(
    setup: ControlSetup,
    batch: readonly PaymentInstruction[],
    ids: readonly string[],
    duplicates: readonly HoldInput[],
    facts: PickupFacts,
  ): Promise<HoldInput[]> {
    const { settings, known, timeZone, today } = setup;
    this.controls ??= new FileControls({
      ...controlHistoryOf(await facts.controlHistory(today), known),
      settings,
      receivedAt: this.receivedAt,
      timeZone,
      today,
    });
    const byLine = new Map(duplicates.map((h) => [h.endToEndId, h]));
    const holds: HoldInput[] = [];
    batch.forEach((p, i) => {
      const duplicate = byLine.get(p.endToEndId);
      const hit = this.controls!.check(p, duplicate !== undefined);
      if (duplicate) holds.push(hit ? withControls(duplicate, hit) : duplicate);
      else if (hit)
        holds.push({
          endToEndId: p.endToEndId,
          matchedPaymentId: ids[i]!,
          reason: `held by payment controls: ${hit.evidence}`,
          reasonText: recorded('lineText.heldByControls', { evidence: hit.evidenceText }),
          rules: hit.rules,
          evidence: hit.evidence,
          evidenceText: evidenceTextOf(hit),
          releases: hit.releases,
        });
    });
    return holds;
  }
}

function withControls(duplicate: HoldInput, hit: ControlHit): HoldInput {
  const rules = [DUPLICATE_RULE, ...hit.rules];
  return {
    ...duplicate,
    rules,
    evidence: hit.evidence,
    evidenceText: evidenceTextOf(hit),
    releases: releasesNeeded(rules),
  };
}

/** What the controls saw, as recorded text: each rule's evidence, joined with "; " as `evidence` is. */
const evidenceTextOf = (hit: ControlHit) => recorded('heldEvidence.seen', { evidence: hit.evidenceText });
