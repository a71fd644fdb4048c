// Resolving a bulk whose outcome is unknown (architecture §2.3) by looking, never by sending
// again: the bank's payment reads need the paymentId we never received, so settle looks for the
// bulk's lines in the debtor account's transactions (pending entries are lines the bank is
// settling, booked debits carry their endToEndIdentification). A line found there proves the
// bank has the bulk; its payment read names the bulk's paymentId, and the bulk becomes `sent`.
// When nothing is found well after the execution date, the bulk is confirmed absent and handed
// to a person (`attention`): re-sending is a decision about money, and the ERP may already have
// paid by other means, so settle never makes it on its own.
import type { BankClient, Transaction } from '../../src/bank/index.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { addDays, dateInZone, type LocalDate } from '../../src/domain/local-date.js';
import type { Logger } from '../../src/log/index.js';
import type { Store, StoredBulk } from '../../src/store/index.js';
import { maskIban } from '../payments/index.js';
import { recordSent } from './record-sent.js';
import { cause } from '../../src/domain/transition-cause.js';

/** Days after the execution date with nothing at the bank before a person is asked. */
export const CONFIRM_ABSENT_AFTER_DAYS = 3;

export type Resolution = 'found' | 'absent' | 'open';

export interface ResolveDeps {
  store: Store;
  bank: BankClient;
  logger: Logger;
  timeZone: string;
  now: Date;
}

export async function resolveUnknownBulk(
  deps: ResolveDeps,
  company: CompanyConfig,
  bulk: StoredBulk,
): Promise<Resolution> {
  const today = dateInZone(deps.now, deps.timeZone);
  const from: LocalDate = addDays(dateInZone(bulk.firstSentAt ?? deps.now, deps.timeZone), -1);
  const bulkPaymentId = await findBulkAtBank(deps, company, bulk, from);
  if (bulkPaymentId !== undefined) {
    await recordSent(deps.store, bulk, {
      bankPaymentId: bulkPaymentId,
      cause: cause.foundByEndToEndId(),
      source: 'lookup',
    });
    deps.logger.info('unknown bulk found at the bank', { bulkId: bulk.id, bankPaymentId: bulkPaymentId });
    return 'found';
  }
  if (today > addDays(bulk.executionDate, CONFIRM_ABSENT_AFTER_DAYS)) {
    await deps.store.bulks.setState(bulk.id, 'attention', cause.notFoundAfter(CONFIRM_ABSENT_AFTER_DAYS), 'lookup');
    deps.logger.warn('unknown bulk not found at the bank: needs a person', {
      bulkId: bulk.id,
      company: company.id,
      debtor: maskIban(bulk.debtorIban),
    });
    return 'absent';
  }
  return 'open';
}

/**
 * The bank's paymentId of the bulk, when one of its lines is among the debtor account's debits
 * (pending or booked) since `from`; undefined when none is there (yet).
 */
export async function findBulkAtBank(
  deps: Pick<ResolveDeps, 'store' | 'bank'>,
  company: CompanyConfig,
  bulk: StoredBulk,
  from: LocalDate,
): Promise<string | undefined> {
  const context = { resourceGroupName: company.organisationNumber };
  const lines = await deps.store.payments.listByBulk(bulk.id);
  const wanted = new Set(lines.map((l) => l.endToEndId));
  let accountId: string | undefined;
  for await (const account of deps.bank.listAccounts(context, { iban: bulk.debtorIban })) {
    accountId = account.id;
    break;
  }
  if (accountId === undefined) return undefined;
  let found: Transaction | undefined;
  for await (const tx of deps.bank.listTransactions(context, accountId, {
    dateFrom: from,
    bookingStatus: 'both',
    transactionType: 'debit',
  })) {
    if (tx.endToEndIds.some((e) => wanted.has(e)) && (tx.paymentId ?? tx.transactionId)) {
      found = tx;
      break;
    }
  }
  if (found === undefined) return undefined;
  const read = await deps.bank.getPayment(company.organisationNumber, found.paymentId ?? found.transactionId);
  return bulkIdFrom(read.links.bulkPayment?.href) ?? stringField(read.raw, 'bulkPaymentId');
}

function bulkIdFrom(href: string | undefined): string | undefined {
  if (href === undefined) return undefined;
  const last = new URL(href, 'http://x').pathname.split('/').filter(Boolean).at(-1);
  return last === undefined || last === '' ? undefined : decodeURIComponent(last);
}

function stringField(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}
