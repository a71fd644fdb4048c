// The payments of a signing basket as approvers see them (approval notice, `settle
// approvals list`): payroll when the debtor account is one of payments.payrollAccounts or
// the line's category purpose is SALA (salaries). A line a person released from a hold says so:
// which rules held it and who released it (docs/controls.md).
import type { CompanyConfig } from '../../src/config/index.js';
import { normalizeIban } from '../../src/domain/account-id.js';
import type { ReleasedHold, Store } from '../../src/store/index.js';
import type { NoticePayment } from './approval-notice.js';

export async function basketPayments(
  store: Store,
  company: CompanyConfig | undefined,
  bulkIds: readonly string[],
): Promise<NoticePayment[]> {
  const payroll = new Set((company?.payments.payrollAccounts ?? []).map(normalizeIban));
  const lines = (await Promise.all(bulkIds.map((id) => store.payments.listByBulk(id)))).flat();
  const released =
    company === undefined
      ? new Map<string, ReleasedHold>()
      : await store.held.releasedAmong(
          company.id,
          lines.map((p) => p.id),
        );
  return lines.map((p) => ({
    debtorIban: p.debtorIban,
    creditorName: p.creditorName,
    creditorIban: p.creditorIban,
    minor: p.amount.minor,
    currency: p.amount.currency,
    executionDate: p.requestedExecutionDate,
    endToEndId: p.endToEndId,
    payroll: p.categoryPurpose === 'SALA' || payroll.has(normalizeIban(p.debtorIban)),
    ...(released.has(p.id) ? { releasedFromHold: released.get(p.id)! } : {}),
  }));
}
