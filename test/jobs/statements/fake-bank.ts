// A BankClient for unit tests of the statement jobs: serves one company's accounts,
// transactions and balances from arrays the test changes at will (e.g. inconsistent balances
// the sandbox never produces). Every other operation fails loudly.
import type { Account, Balance, BankClient, Transaction } from '../../../src/bank/index.js';

export interface FakeBankData {
  accounts: Account[];
  transactions: Map<string, Transaction[]>;
  balances: Map<string, Balance[]>;
  calls: string[];
}

export function fakeAccount(id: string, iban: string, status = 'enabled'): Account {
  return { id, iban, currency: 'NOK', name: `Account ${id}`, status, balances: [], raw: {} };
}

export function fakeTx(
  id: string,
  status: 'booked' | 'pending',
  amount: string,
  bookingDate?: string,
  extra: Partial<Transaction> = {},
): Transaction {
  return {
    transactionId: id,
    bookingStatus: status,
    endToEndIds: [],
    transactionAmount: { amount, currency: 'NOK' },
    ...(bookingDate === undefined ? {} : { bookingDate, valueDate: bookingDate }),
    entryReference: `REF-${id}`,
    raw: {},
    ...extra,
  };
}

export function closing(day: string, amount: string): Balance {
  return { balanceType: 'closingBooked', referenceDate: day, balanceAmount: { amount, currency: 'NOK' }, raw: {} };
}

export function fakeBank(): { bank: BankClient; data: FakeBankData } {
  const data: FakeBankData = { accounts: [], transactions: new Map(), balances: new Map(), calls: [] };
  async function* iterate<T>(items: readonly T[]): AsyncGenerator<T> {
    await Promise.resolve();
    yield* items;
  }
  const unsupported = (): never => {
    throw new Error('not supported by the fake bank');
  };
  const partial: Partial<BankClient> = {
    listAccounts: () => iterate(data.accounts),
    listTransactions: (_context, accountId, query) => {
      data.calls.push(`transactions ${accountId} from ${query.dateFrom} ${query.bookingStatus}`);
      return iterate(
        (data.transactions.get(accountId) ?? []).filter(
          (t) => t.bookingStatus === 'pending' || (t.bookingDate ?? '') >= query.dateFrom,
        ),
      );
    },
    listBalances: (_context, accountId, query) => {
      data.calls.push(`balances ${accountId} from ${query?.dateFrom ?? '-'}`);
      return iterate(
        (data.balances.get(accountId) ?? []).filter((b) => (b.referenceDate ?? '') >= (query?.dateFrom ?? '')),
      );
    },
    close: () => Promise.resolve(),
  };
  const bank = new Proxy(partial, {
    get: (target, key: string) => (key in target ? target[key as keyof BankClient] : unsupported),
  }) as BankClient;
  return { bank, data };
}
