// Each bank's daily cut-off at submit (config `cutOff`): a bulk dated the bank's today that is
// first sent after the cut-off can no longer be executed today. By `cutOff.policy` it is either
// sent for the bank's next business day — the lines keep the date the ERP asked for, the bulk
// is sent with the new one, and the accountant gets a report in the reports folder naming every
// line moved — or refused: its lines are rejected with the reason, and the status files and
// the refused-lines report say so line by line. Only a bulk never sent is touched: a request
// already sent with an Idempotency-Key keeps the body it went with.
import { soleBankId, type CompanyConfig } from '../../src/config/index.js';
import { cutOffVerdict } from '../../src/domain/cut-off.js';
import { formatAmount } from '../../src/domain/money.js';
import { dateFigure, instantFigure, recorded } from '../../src/domain/recorded-text.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { formatInZone } from '../../src/domain/zoned-time.js';
import { textTable } from '../../src/formats/report/index.js';
import type { StoredBulk } from '../../src/store/index.js';
import { type CutOffSettings, type PaymentJobDeps, maskIban } from '../payments/index.js';
import { cause } from '../../src/domain/transition-cause.js';

export type { CutOffSettings };

export type CutOffOutcome =
  | { kind: 'open' }
  | { kind: 'rolled'; to: LocalDate; explanation: string; report: string }
  | { kind: 'refused'; explanation: string };

/**
 * The bank a bulk goes to: the debtor account's bank as submit found it for the bulk's consent
 * (jobs/submit/bulk-consent.ts), else the company's only bank.
 */
function bankOfBulk(company: CompanyConfig, accountBank: string | undefined): string | undefined {
  return accountBank ?? soleBankId(company);
}

/** Applies the cut-off of the bulk's bank before its first send; `open` when it does not apply. */
export async function applyCutOff(
  deps: PaymentJobDeps,
  company: CompanyConfig,
  bulk: StoredBulk,
  accountBank?: string,
): Promise<CutOffOutcome> {
  const bankId = bankOfBulk(company, accountBank);
  const cutOff = bankId === undefined ? undefined : deps.cutOff?.banks[bankId];
  if (cutOff === undefined || bankId === undefined || bulk.state !== 'pending' || bulk.firstSentAt !== undefined)
    return { kind: 'open' };
  const now = deps.clock.now();
  const verdict = cutOffVerdict(cutOff, bulk.executionDate, now);
  if (!verdict.passed) return { kind: 'open' };
  const at = formatInZone(now, cutOff.timeZone);
  const why = `execution date ${verdict.today} is today, and ${bankId}'s cut-off ${cutOff.time} had passed when settle sent the payments (${at})`;
  if (deps.cutOff?.policy === 'refuse') {
    const explanation = `The bank cannot execute these payments today: ${why}. Send them again with execution date ${verdict.nextBusinessDay} or later (cutOff.policy is refuse).`;
    await deps.store.bulks.markRejected(
      bulk.id,
      {
        title: 'Cut-off passed',
        detail: why,
        errors: [
          {
            field: 'requestedExecutionDate',
            message: `${why}; the earliest date is ${verdict.nextBusinessDay}`,
            // The same words for the company's language: the status files and the report of lines not paid.
            ...recorded('alerts.cutOffPassed', {
              today: dateFigure(verdict.today),
              bank: bankId,
              time: cutOff.time,
              at: instantFigure(now, cutOff.timeZone),
              earliest: dateFigure(verdict.nextBusinessDay),
            }),
          },
        ],
        explanation,
      },
      cause.cutOffPassed(cutOff.time),
    );
    deps.logger.warn('bulk refused: the bank cut-off has passed', { company: company.id, bulkId: bulk.id, bankId });
    return { kind: 'refused', explanation };
  }
  if (!(await deps.store.bulks.moveExecutionDate(bulk.id, verdict.nextBusinessDay))) return { kind: 'open' };
  const explanation = `Sent for ${verdict.nextBusinessDay}, the bank's next business day: ${why}.`;
  const report = await writeRollReport(deps, company, { bulk, to: verdict.nextBusinessDay, why });
  deps.logger.info('bulk moved to the next business day by the bank cut-off', {
    company: company.id,
    bulkId: bulk.id,
    bankId,
    from: verdict.today,
    to: verdict.nextBusinessDay,
    report,
  });
  return { kind: 'rolled', to: verdict.nextBusinessDay, explanation, report };
}

/** The accountant's notice of the lines moved, one per bulk: written again identically after a crash. */
async function writeRollReport(
  deps: PaymentJobDeps,
  company: CompanyConfig,
  moved: { bulk: StoredBulk; to: LocalDate; why: string },
): Promise<string> {
  const { bulk, to, why } = moved;
  const file = await deps.store.files.getFile(bulk.fileId);
  const lines = await deps.store.payments.listByBulk(bulk.id);
  const path = `${company.folders.reports}/cut-off-${bulk.executionDate}-${bulk.id}.txt`;
  const text = [
    `Payments moved to the next business day — ${company.name}`,
    '',
    `File:     ${file?.fileName ?? bulk.fileId}`,
    `Account:  ${maskIban(bulk.debtorIban)}`,
    `Why:      ${why}.`,
    `Now:      sent to the bank for execution on ${to}, the bank's next business day (cutOff.policy: roll).`,
    '',
    ...textTable(
      ['LINE', 'END-TO-END ID', 'CREDITOR', 'AMOUNT', 'ASKED FOR', 'SENT FOR'],
      lines.map((l) => [
        String(l.lineNumber),
        l.endToEndId,
        l.creditorName,
        `${formatAmount(l.amount)} ${l.amount.currency}`,
        l.requestedExecutionDate,
        to,
      ]),
      new Set([3]),
    ),
    '',
    'Nothing to do if a day later is acceptable. If not, ask the bank about an urgent payment.',
    '',
  ].join('\n');
  const store = await deps.fileStore(company);
  await store.ensureDir(company.folders.reports);
  await store.writeAtomic(path, text);
  return path;
}
