// POST /__sandbox/credits (control API): books an incoming payment on a sandbox account, with a
// structured creditor reference (KID, RF) or none, as a customer's bank would deliver it. The
// reference is booked as sent, check digits unchecked, so a test can book a mistyped one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkIban } from '../domain/account-id.js';
import { isLocalDate } from '../domain/local-date.js';
import { parseAmount } from '../domain/money.js';
import type { Account, Transaction } from './model.js';
import { badRequest, notFound } from './problems.js';
import type { Sandbox } from './sandbox.js';
import { bankToday } from './time.js';
import { transactionView } from './views.js';

const REFERENCE_TYPES = ['KID', 'RF', 'none'] as const;

function text(b: Record<string, unknown>, key: string): string | undefined {
  const value = b[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${key} must be a string.`);
  return value.trim();
}

/** A sandbox account by id or IBAN (spaces and case ignored). */
export function accountOf(sb: Sandbox, wanted: string): Account {
  const compact = wanted.replace(/\s+/g, '').toUpperCase();
  for (const account of sb.state.accounts.values())
    if (account.id === wanted || account.iban === compact) return account;
  throw notFound('Account not found', `No sandbox account ${wanted} (give its id or IBAN).`);
}

export function registerCredits(app: FastifyInstance, sb: Sandbox): void {
  app.post('/__sandbox/credits', (req: FastifyRequest, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('The body must be a JSON object.');
    const account = accountOf(sb, text(b, 'account') ?? '');
    const currency = text(b, 'currency') ?? account.currency;
    if (currency !== account.currency) throw badRequest(`currency must be the account's, ${account.currency}.`);
    const parsed = parseAmount(text(b, 'amount') ?? '', currency);
    if (!parsed.ok || parsed.money.minor <= 0n)
      throw badRequest('amount must be a positive decimal such as "1500.00".');
    const debtorIban = text(b, 'debtorIban');
    const iban = debtorIban === undefined ? undefined : checkIban(debtorIban);
    if (iban !== undefined && !iban.ok) throw badRequest('debtorIban must be a valid IBAN.');
    const type = text(b, 'referenceType') ?? (text(b, 'reference') === undefined ? 'none' : undefined);
    const referenceType = REFERENCE_TYPES.find((t) => t === type);
    if (referenceType === undefined) throw badRequest('referenceType must be KID, RF or none.');
    const reference = text(b, 'reference');
    if (referenceType !== 'none' && !reference)
      throw badRequest(`reference is required with referenceType ${referenceType}.`);
    const bookingDate = text(b, 'bookingDate') ?? bankToday(sb.clock.now());
    if (!isLocalDate(bookingDate)) throw badRequest('bookingDate must be a date such as 2026-01-05.');
    const seq = sb.state.nextSeq();
    const tx: Transaction = {
      transactionId: sb.newUuid(),
      accountId: account.id,
      entryReference: `SBX${seq.toString().padStart(9, '0')}`,
      endToEndId: text(b, 'endToEndId') || null,
      bookingDate,
      valueDate: bookingDate,
      minor: parsed.money.minor,
      currency,
      counterpartyName: text(b, 'debtorName') ?? 'Sandbox payer',
      counterpartyIban: iban?.ok === true ? iban.iban : null,
      remittance: text(b, 'remittance') ?? '',
      transactionType: 'credit',
      paymentId: null,
      bookedAt: sb.clock.now().toISOString(),
      ...(referenceType === 'none' || !reference ? {} : { creditorReference: { reference, type: referenceType } }),
    };
    sb.state.addTransaction(tx);
    const view = transactionView(sb, tx);
    sb.emit('banking.account.transaction.received', account, view);
    return reply.code(201).send(view);
  });
}
