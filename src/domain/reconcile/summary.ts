// Counts and totals per finding type, in report order: the first thing finance reads.
import type { Money } from '../money.js';
import { FINDING_TYPES, FINDING_TYPE_ORDER, type Finding, type FindingSeverity, type FindingType } from './findings.js';

export interface FindingTypeSummary {
  type: FindingType;
  title: string;
  severity: FindingSeverity;
  /** How many findings of the type need a person (for unexpected debits this follows the configuration). */
  needingPerson: number;
  count: number;
  /** Sum of the findings' `amount` per currency, currencies in alphabetical order. */
  totals: Money[];
}

export interface ReconcileSummary {
  /** Every type, in report order, including those with no findings. */
  byType: FindingTypeSummary[];
  findings: number;
  needingPerson: number;
  /** Findings a person acknowledged (with unchanged facts): listed in their own section, not in their type's counts. */
  acknowledged: number;
}

export function summarise(findings: readonly Finding[]): ReconcileSummary {
  const counts = new Map<FindingType, { count: number; needingPerson: number; totals: Map<string, bigint> }>();
  for (const type of FINDING_TYPE_ORDER) counts.set(type, { count: 0, needingPerson: 0, totals: new Map() });
  let needingPerson = 0;
  let acknowledged = 0;
  for (const finding of findings) {
    if (finding.acknowledged) {
      acknowledged++;
      continue;
    }
    const entry = counts.get(finding.type)!;
    entry.count++;
    if (finding.needsPerson) {
      entry.needingPerson++;
      needingPerson++;
    }
    if (finding.amount)
      entry.totals.set(
        finding.amount.currency,
        (entry.totals.get(finding.amount.currency) ?? 0n) + finding.amount.minor,
      );
  }
  const byType = FINDING_TYPE_ORDER.map((type): FindingTypeSummary => {
    const entry = counts.get(type)!;
    const totals = [...entry.totals]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([currency, minor]) => ({ currency, minor }));
    const info = FINDING_TYPES[type];
    return {
      type,
      title: info.title,
      severity: info.severity,
      needingPerson: entry.needingPerson,
      count: entry.count,
      totals,
    };
  });
  return { byType, findings: findings.length, needingPerson, acknowledged };
}
