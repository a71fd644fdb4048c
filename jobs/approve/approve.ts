// The approve job: bulks on accounts that need approval (the bank's account
// parameters say preApproval, or payments.approvalRequiredAccounts lists the account) stay RCVD
// until a person authorises a signing basket. Per company, bank and run, the waiting bulks go into
// ONE basket (a basket never mixes banks), created with an Idempotency-Key derived from its
// bulks; authorisation is started, and the approval link is stored with its expiry and handed to the approvers (their e-mail, or an
// approvers-only folder); the reports folder gets the notice without the link.
// Links are single use and may be invoiced: a new one is issued only when the previous one
// expired or was used without completing the approval.
import { v5 as uuidv5 } from 'uuid';
import { type SigningBasket, isBankError } from '../../src/bank/index.js';
import { soleBankId, type CompanyConfig } from '../../src/config/index.js';
import { normalizeIban } from '../../src/domain/account-id.js';
import { isSettleError, SettleError } from '../../src/domain/errors.js';
import { dateInZone } from '../../src/domain/local-date.js';
import { LIVE_BASKETS } from '../../src/domain/states.js';
import type { AccountDirectory, StoredBasket } from '../../src/store/index.js';
import { directoryWith, isUnreachable } from '../accounts/index.js';
import { approvalAudience } from './approval-audience.js';
import { FALLBACK_LOCALE } from '../../src/i18n/index.js';
import { approvalNoticeSubject, approvalNoticeText, type ApprovalNotice } from './approval-notice.js';
import { basketPayments } from './basket-payments.js';
import { removeStaleParts } from '../inbox/index.js';
import type { PaymentJobDeps } from '../payments/index.js';
import { cause } from '../../src/domain/transition-cause.js';
import { addTo } from '../../src/domain/group.js';

/** The bank's approval links live at most 7 days (spec §3.4); a shorter expiry the bank states wins. */
export const APPROVAL_LINK_LIFETIME_MS = 7 * 24 * 3600_000;
const LINK_KEY_NAMESPACE = 'c1f0a7e2-2b7d-4f55-8d8e-6a0b3c9e5d21';

export interface ApprovedBasket {
  company: string;
  basketId: string;
  bankBasketId?: string;
  state: StoredBasket['state'];
  bulks: number;
  /** True when this run issued a new approval link (and notified the approvers). */
  linkIssued: boolean;
  report?: string;
  problem?: string;
}

export interface ApproveSummary {
  baskets: ApprovedBasket[];
}

export async function runApprove(deps: PaymentJobDeps, companies: readonly CompanyConfig[]): Promise<ApproveSummary> {
  const summary: ApproveSummary = { baskets: [] };
  await deps.store.baskets.expireLinks();
  for (const company of companies) {
    // A notice write cut short leaves NAME.<tag>.part in the approvers' folder, and the notice is
    // written again at once, while that leftover is still too young to be judged stale: so every
    // run looks, not only one that writes a notice.
    const approvalsFolder = company.folders.approvals;
    if (approvalsFolder)
      await removeStaleParts(await deps.fileStore(company), approvalsFolder, deps.clock, deps.logger);
    try {
      await gatherBasket(deps, company);
    } catch (error) {
      // The account parameters could not be read: the bulks wait for the next run.
      if (!isBankError(error)) throw error;
      deps.logger.warn('cannot tell which accounts need approval; tried again next run', {
        company: company.id,
        code: error.code,
      });
    }
    const live = await deps.store.baskets.listInStates(company.id, LIVE_BASKETS);
    for (const basket of live) summary.baskets.push(await advance(deps, company, basket));
  }
  return summary;
}

/** Puts the company's waiting bulks that need approval and are in no live basket into one new basket. */
async function gatherBasket(deps: PaymentJobDeps, company: CompanyConfig): Promise<void> {
  const unsigned = (await deps.store.bulks.listByState('sent', [company.id])).filter(
    (b) => b.bankPaymentId !== undefined && (b.bankStatus === undefined || b.bankStatus === 'RCVD'),
  );
  const inBasket = await deps.store.baskets.bulksInLiveBaskets(unsigned.map((b) => b.id));
  const waiting = unsigned.filter((b) => !inBasket.has(b.id));
  if (waiting.length === 0) return;
  const directory = await directoryWith(deps, company, [...new Set(waiting.map((b) => b.debtorIban))]);
  if (isUnreachable(directory)) return;
  const needs = approvalNeed(company, directory);
  // A signing basket holds the payments of one bank only: one basket per bank.
  const byBank = new Map<string, string[]>();
  for (const bulk of waiting) {
    const need = needs.get(normalizeIban(bulk.debtorIban));
    if (need === undefined) continue;
    addTo(byBank, need.bankId, bulk.id);
  }
  for (const [bankId, bulkIds] of byBank) {
    const basket = await deps.store.baskets.create(company.id, bulkIds, cause.approveRun(deps.runId));
    deps.logger.info('signing basket prepared', {
      company: company.id,
      basketId: basket.id,
      bulks: bulkIds.length,
      ...(bankId === '' ? {} : { bankId }),
    });
  }
}

/**
 * The accounts (normalised IBAN) whose payments must be approved in a signing basket, with their
 * bank: the bank's account parameters say preApproval, or payments.approvalRequiredAccounts
 * names the account (an override).
 */
function approvalNeed(company: CompanyConfig, directory: AccountDirectory): Map<string, { bankId: string }> {
  const configured = new Set(company.payments.approvalRequiredAccounts.map(normalizeIban));
  const sole = soleBankId(company) ?? '';
  const out = new Map<string, { bankId: string }>();
  for (const iban of configured) out.set(iban, { bankId: sole });
  for (const account of directory.accounts) {
    if (account.iban === undefined) continue;
    const bankId = account.bankId ?? sole;
    if (account.preApproval === true || configured.has(account.iban)) out.set(account.iban, { bankId });
  }
  return out;
}

async function advance(deps: PaymentJobDeps, company: CompanyConfig, basket: StoredBasket): Promise<ApprovedBasket> {
  const bulkIds = await deps.store.baskets.bulkIds(basket.id);
  const result = (b: StoredBasket, linkIssued: boolean, extra: Partial<ApprovedBasket> = {}): ApprovedBasket => ({
    company: company.id,
    basketId: b.id,
    ...(b.bankBasketId !== undefined ? { bankBasketId: b.bankBasketId } : {}),
    state: b.state,
    bulks: bulkIds.length,
    linkIssued,
    ...extra,
  });
  try {
    let current = basket;
    if (current.state === 'pending') {
      const bulks = await Promise.all(bulkIds.map((id) => deps.store.bulks.get(id)));
      const paymentIds = bulks.map((b) => b?.bankPaymentId).filter((id): id is string => id !== undefined);
      const created = await deps.bank.createSigningBasket(company.organisationNumber, paymentIds, {
        idempotencyKey: current.idempotencyKey,
      });
      await deps.store.baskets.markCreated(
        current.id,
        created.basketId,
        created.replayed ? cause.basketCreatedReplay() : cause.basketCreated(),
      );
      current = (await deps.store.baskets.get(current.id))!;
    }
    const bankBasketId = current.bankBasketId!;
    const atBank = await deps.bank.getSigningBasket(bankBasketId);
    if (authorised(atBank)) {
      await deps.store.baskets.markAuthorised(current.id, cause.basketAuthorised());
      return result((await deps.store.baskets.get(current.id))!, false);
    }
    if (current.state === 'link_issued') {
      const latest = latestAuthorization(atBank);
      // A link opened and failed, or a finished SCA while more approvers are needed: the link is spent.
      const spent =
        latest?.scaStatus === 'failed' ||
        (latest?.scaStatus === 'finalised' && (atBank.remainingAuthorizations ?? 0) > 0);
      if (!spent) {
        const report = await ensureNotified(deps, company, {
          basket: current,
          bulkIds,
          approversNeeded: atBank.remainingAuthorizations,
        });
        return result(current, false, report ? { report } : {});
      }
      await deps.store.baskets.markLinkSpent(
        current.id,
        latest?.scaStatus === 'failed' ? cause.linkUsedIncomplete() : cause.linkUsedMoreNeeded(),
      );
      current = (await deps.store.baskets.get(current.id))!;
    }
    // created or expired: one new link.
    const n = await deps.store.baskets.linksIssued(current.id);
    const auth = await deps.bank.startSigningBasketAuthorization(bankBasketId, {
      idempotencyKey: uuidv5(`sca:${current.idempotencyKey}:${n}`, LINK_KEY_NAMESPACE),
    });
    if (auth.scaRedirect === undefined) {
      throw new SettleError(
        'ERR_PAYMENT_SCA_LINK_MISSING',
        `The bank started an authorisation of signing basket ${bankBasketId} but sent no approval link.`,
        {
          details: { basketId: current.id, bankBasketId },
        },
      );
    }
    const expiresAt = new Date(deps.clock.now().getTime() + APPROVAL_LINK_LIFETIME_MS);
    await deps.store.baskets.issueLink(
      current.id,
      auth.scaRedirect,
      expiresAt,
      n === 0 ? cause.linkIssued() : cause.linkReissued(),
    );
    current = (await deps.store.baskets.get(current.id))!;
    const report = await ensureNotified(deps, company, {
      basket: current,
      bulkIds,
      approversNeeded: atBank.remainingAuthorizations,
      newLink: true,
    });
    deps.logger.info('approval requested', {
      company: company.id,
      basketId: current.id,
      bankBasketId,
      bulks: bulkIds.length,
      linkNumber: n + 1,
    });
    return result(current, true, report ? { report } : {});
  } catch (error) {
    if (!isBankError(error) && !isSettleError(error, 'ERR_PAYMENT_SCA_LINK_MISSING')) throw error;
    deps.logger.warn('signing basket step failed; tried again next run', {
      company: company.id,
      basketId: basket.id,
      code: error.code,
      ...(isBankError(error) ? { status: error.status } : {}),
    });
    return result((await deps.store.baskets.get(basket.id)) ?? basket, false, { problem: error.message });
  }
}

function authorised(b: SigningBasket): boolean {
  return b.transactionStatus === 'ACTC' || b.remainingAuthorizations === 0;
}

function latestAuthorization(b: SigningBasket): { authorizationId?: string; scaStatus?: string } | undefined {
  const list = b.raw.authorizations;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const last = list[list.length - 1] as Record<string, unknown>;
  const scaStatus = typeof last.scaStatus === 'string' ? last.scaStatus.toLowerCase() : undefined;
  return scaStatus === undefined ? {} : { scaStatus };
}

/**
 * Writes the notice to reports/approval-<date>-<basket>.txt without the link (and with it to the
 * approvers-only folder, when configured) when it is missing or the link is new, and e-mails the
 * approvers once per link — so a crash after storing a link, or a mail server that was down,
 * still notifies on the next run.
 */
interface BasketToNotify {
  basket: StoredBasket;
  bulkIds: readonly string[];
  approversNeeded: number | undefined;
  /** The bank just issued the link: the notice is written again even if one exists. */
  newLink?: boolean;
}

async function ensureNotified(
  deps: PaymentJobDeps,
  company: CompanyConfig,
  toNotify: BasketToNotify,
): Promise<string | undefined> {
  const { basket, bulkIds, approversNeeded, newLink = false } = toNotify;
  if (basket.approvalLink === undefined || basket.approvalLinkExpiresAt === undefined) return undefined;
  const store = await deps.fileStore(company);
  const issuedDay = dateInZone(
    new Date(basket.approvalLinkExpiresAt.getTime() - APPROVAL_LINK_LIFETIME_MS),
    deps.timeZone,
  );
  const name = `approval-${issuedDay}-${basket.id}.txt`;
  const path = `${company.folders.reports}/${name}`;
  const approvalsFolder = company.folders.approvals;
  const audience = approvalAudience(company);
  const mail =
    deps.approvalMail && audience.withPayroll.length + audience.withoutPayroll.length > 0
      ? deps.approvalMail
      : undefined;
  const mailKey = `approval-mail:${basket.id}:${basket.approvalLinkExpiresAt.toISOString()}`;
  const approvalsPath = approvalsFolder ? `${approvalsFolder}/${name}` : undefined;
  // Both files, not just the report: a run killed between the two left the approvers' copy
  // as NAME.part only, and checking the report alone never wrote it again.
  const writeReport =
    newLink || !(await store.exists(path)) || (approvalsPath !== undefined && !(await store.exists(approvalsPath)));
  const sendMail = mail !== undefined && !(await deps.store.dedupe.alertSent(mailKey));
  if (!writeReport && !sendMail) return path;
  const notice: ApprovalNotice = {
    companyName: company.name,
    basketId: basket.id,
    expiresAt: basket.approvalLinkExpiresAt,
    timeZone: company.timeZone ?? deps.timeZone,
    ...(approversNeeded === undefined ? {} : { approversNeeded }),
    payments: await basketPayments(deps.store, company, bulkIds),
  };
  // The company's language, else the configuration's: every copy and the e-mail are in it.
  const locale = company.locale ?? deps.locale ?? FALLBACK_LOCALE;
  const linkGoesTo = { email: mail !== undefined, ...(approvalsFolder ? { folder: approvalsFolder } : {}) };
  if (writeReport) {
    await store.ensureDir(company.folders.reports);
    await store.writeAtomic(path, approvalNoticeText(notice, { payrollVisible: false, linkGoesTo }, locale));
    if (approvalsFolder && approvalsPath) {
      await store.ensureDir(approvalsFolder);
      await store.writeAtomic(
        approvalsPath,
        approvalNoticeText(
          notice,
          { link: basket.approvalLink, payrollVisible: audience.withoutPayroll.length === 0 },
          locale,
        ),
      );
    }
    if (!linkGoesTo.email && linkGoesTo.folder === undefined)
      deps.logger.warn('no approver can receive the approval link: configure approvers or folders.approvals', {
        company: company.id,
        basketId: basket.id,
      });
  }
  if (mail && sendMail) {
    // Sent, then recorded: a crash in between mails the same link again next run, which is
    // better than approvers who never hear of it. A failed send is tried again next run.
    try {
      for (const [to, payrollVisible] of [
        [audience.withPayroll, true],
        [audience.withoutPayroll, false],
      ] as const) {
        if (to.length === 0) continue;
        await mail.send(
          to,
          approvalNoticeSubject(company.name, locale),
          approvalNoticeText(notice, { link: basket.approvalLink, payrollVisible }, locale),
        );
      }
    } catch (error) {
      deps.logger.error('approvers could not be e-mailed; tried again next run', {
        company: company.id,
        basketId: basket.id,
        report: path,
        code: isSettleError(error) ? error.code : 'ERR_INTERNAL',
        reason: error instanceof Error ? error.message : String(error),
      });
      return path;
    }
    await deps.store.dedupe.recordAlertSent(mailKey, 'approval-email');
    deps.logger.info('approvers e-mailed', {
      company: company.id,
      basketId: basket.id,
      recipients: audience.withPayroll.length + audience.withoutPayroll.length,
    });
  } else if (writeReport) {
    deps.logger.info('approval notice written', { company: company.id, basketId: basket.id, report: path });
  }
  return path;
}
