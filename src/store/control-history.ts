// What the payment controls (src/domain/controls) compare a file with, read once per file, never
// per line: the company's payments grouped by creditor account, name, organisation number and ERP
// creditor id (how often, since when),
// and what each debtor account already sends per currency on the days from today on. Held,
// rejected and cancelled lines are no history: they were not paid (a held line to a new account
// stays new until a person releases it).
import type { Knex } from 'knex';
import {
  dayKey,
  DUPLICATE_RULE,
  FileControls,
  PayeeHistory,
  releasesNeeded,
  type ControlHit,
  type ControlSettings,
  type KnownAccount,
} from '../domain/controls/index.js';
import type { LocalDate } from '../domain/local-date.js';
import type { PaymentInstruction } from '../domain/payment.js';
import { recorded } from '../domain/recorded-text.js';
import type { HoldInput } from './held-payments.js';
import { toBigInt, toInt, toOptStr, toStr, type Row } from './rows.js';

export interface ControlHistory {
  history: PayeeHistory;
  dayTotals: Map<string, bigint>;
}

const NOT_PAID = ['RJCT', 'CANC', 'held'];

export async function loadControlHistory(
  knex: Knex | Knex.Transaction,
  company: string,
  today: LocalDate,
  known: readonly KnownAccount[] = [],
): Promise<ControlHistory> {
  const history = new PayeeHistory();
  for (const k of known) history.add(k.account, { name: k.name, orgId: k.orgId, creditorId: k.creditorId }, 0);
  const paid: Row[] = await knex('payments')
    .select('creditor_iban', 'creditor_name', 'creditor_org_id', 'creditor_id')
    .count({ n: '*' })
    .min({ first: 'created_at' })
    .where({ company })
    .whereNotIn('state', NOT_PAID)
    .groupBy('creditor_iban', 'creditor_name', 'creditor_org_id', 'creditor_id');
  for (const r of paid)
    history.add(
      toStr(r.creditor_iban),
      { name: toStr(r.creditor_name), orgId: toOptStr(r.creditor_org_id), creditorId: toOptStr(r.creditor_id) },
      toInt(Number(r.n)),
      toStr(r.first).slice(0, 10),
    );
  const days: Row[] = await knex('payments')
    .select('debtor_iban', 'currency', 'execution_date')
    .sum({ total: 'amount_minor' })
    .where({ company })
    .where('execution_date', '>=', today)
    .whereNotIn('state', NOT_PAID)
    .groupBy('debtor_iban', 'currency', 'execution_date');
  const dayTotals = new Map<string, bigint>();
  for (const r of days)
    dayTotals.set(
      dayKey(toStr(r.debtor_iban), toStr(r.currency), toStr(r.execution_date).slice(0, 10)),
      toBigInt(r.total),
    );
  return { history, dayTotals };
}

/** What a file is checked with: the company's settings, the known-accounts file, its day and zone. */
export interface ControlSetup {
  settings: ControlSettings;
  known: readonly KnownAccount[];
  timeZone: string;
  today: LocalDate;
}

/**
 * The control holds of one file as its batches come: the history is read on the first batch
 * (inside the file's transaction), then every line is checked in file order. A line held as a
 * duplicate is checked too: its hold gains the rules and their evidence.
 */
export class FileControlHolds {
  private controls: FileControls | undefined;

  constructor(
    private readonly company: string,
    private readonly receivedAt: Date,
    private readonly setup: ControlSetup,
  ) {}

  /** `duplicates` (of this batch) with the control holds added, in the batch's order. */
  async holds(
    knex: Knex | Knex.Transaction,
    payments: readonly PaymentInstruction[],
    ids: readonly string[],
    duplicates: HoldInput[],
  ): Promise<HoldInput[]> {
    const { settings, known, timeZone, today } = this.setup;
    this.controls ??= new FileControls({
      ...(await loadControlHistory(knex, this.company, today, known)),
      settings,
      receivedAt: this.receivedAt,
      timeZone,
      today,
    });
    const byLine = new Map(duplicates.map((h) => [h.endToEndId, h]));
    const holds: HoldInput[] = [];
    payments.forEach((p, i) => {
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
          releases: hit.releases,
        });
    });
    return holds;
  }
}

function withControls(duplicate: HoldInput, hit: ControlHit): HoldInput {
  const rules = [DUPLICATE_RULE, ...hit.rules];
  return { ...duplicate, rules, evidence: hit.evidence, releases: releasesNeeded(rules) };
}
