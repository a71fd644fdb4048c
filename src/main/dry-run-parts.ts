// The parts a dry run swaps in: a bank client whose writes are recorded instead of sent (reads
// go to the real bank), and folders whose changes are recorded instead of made (reads see the
// real files). Every recorded action is one line a person can read.
import { Readable } from 'node:stream';
import type {
  BankClient,
  BulkPaymentCreated,
  BulkPaymentRequest,
  PaymentInformation,
  PaymentStatusReport,
  PostOptions,
  ScaAuthorization,
  SigningBasket,
} from '../bank/index.js';
import type { CompanyConfig } from '../config/index.js';
import type { ByteChunks, FileStore, MoveOutcome, WriteData } from '../transport/index.js';
import type { FileStoreProvider } from './file-stores.js';

export interface DryRunAction {
  kind: 'bank' | 'file';
  company?: string;
  what: string;
}

const FAKE = 'dry-run-';

/** A bank client that records every write and answers it as the bank would, without sending it. */
export function recordingBank(real: BankClient, actions: DryRunAction[]): BankClient {
  let n = 0;
  const fakeId = (kind: string) => `${FAKE}${kind}-${++n}`;
  const record = (what: string) => void actions.push({ kind: 'bank', what });
  const fakeStatus = (paymentId: string): PaymentStatusReport => ({
    paymentId,
    transactionStatus: 'RCVD',
    tppMessages: [],
    raw: {},
  });
  const writes: Partial<BankClient> = {
    createBulkPayment(
      resourceGroupName: string,
      request: BulkPaymentRequest,
      options: PostOptions,
    ): Promise<BulkPaymentCreated> {
      const sum = request.paymentLines
        .map((l) => `${l.instructedAmount.amount} ${l.instructedAmount.currency}`)
        .join(' + ');
      record(
        `would send a bulk of ${request.paymentLines.length} payment(s) for ${resourceGroupName} from account ${mask(request.debtorAccount.iban)}, execution ${request.requestedExecutionDate}: ${sum} (Idempotency-Key ${options.idempotencyKey ?? 'none'})`,
      );
      return Promise.resolve({
        paymentId: fakeId('payment'),
        transactionStatus: 'RCVD',
        replayed: false,
        httpStatus: 201,
        tppMessages: [],
        raw: {},
      });
    },
    createSigningBasket(resourceGroupName: string, paymentIds: readonly string[]): Promise<SigningBasket> {
      record(`would create a signing basket for ${resourceGroupName} with ${paymentIds.length} bulk payment(s)`);
      return Promise.resolve({ basketId: fakeId('basket'), paymentIds: [...paymentIds], replayed: false, raw: {} });
    },
    startSigningBasketAuthorization(basketId: string): Promise<ScaAuthorization> {
      record(`would ask the bank for an approval link for basket ${basketId}`);
      return Promise.resolve({
        authorizationId: fakeId('authorization'),
        scaStatus: 'started',
        scaRedirect: `https://dry-run.invalid/sca/${basketId}`,
        replayed: false,
        raw: {},
      });
    },
    createConsent: () => Promise.reject(new Error('a dry run does not create consents')),
    refreshConsent: () => Promise.reject(new Error('a dry run does not refresh consents')),
    deleteConsent: () => Promise.reject(new Error('a dry run does not delete consents')),
    deleteAccount: () => Promise.reject(new Error('a dry run does not delete accounts')),
    // What the dry run pretended to create exists only here: answer for it as the bank would.
    getBulkPaymentStatus: (rg, id, options) =>
      id.startsWith(FAKE) ? Promise.resolve(fakeStatus(id)) : real.getBulkPaymentStatus(rg, id, options),
    getPaymentStatus: (rg, id, options) =>
      id.startsWith(FAKE) ? Promise.resolve(fakeStatus(id)) : real.getPaymentStatus(rg, id, options),
    getBulkPayment: (rg, id, options) =>
      id.startsWith(FAKE) ? Promise.resolve(fakeInformation(id)) : real.getBulkPayment(rg, id, options),
    getPayment: (rg, id, options) =>
      id.startsWith(FAKE) ? Promise.resolve(fakeInformation(id)) : real.getPayment(rg, id, options),
    getSigningBasket: (id, options) =>
      id.startsWith(FAKE)
        ? Promise.resolve({ basketId: id, transactionStatus: 'RCVD', paymentIds: [], replayed: false, raw: {} })
        : real.getSigningBasket(id, options),
    close: () => Promise.resolve(),
  };
  return new Proxy(real, {
    get(target, property, receiver) {
      const own = (writes as Record<PropertyKey, unknown>)[property];
      if (own !== undefined) return own;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function fakeInformation(paymentId: string): PaymentInformation {
  return { paymentId, transactionStatus: 'RCVD', tppMessages: [], paymentLines: [], links: {}, raw: {} };
}

/** Folders whose reads are real and whose writes, moves and removals are only recorded. */
export function recordingFileStores(real: FileStoreProvider, actions: DryRunAction[]): FileStoreProvider {
  return {
    async fileStore(company: CompanyConfig): Promise<FileStore> {
      return recordingStore(await real.fileStore(company), company.id, actions);
    },
    close: () => real.close(),
  };
}

function recordingStore(real: FileStore, company: string, actions: DryRunAction[]): FileStore {
  const record = (what: string) => void actions.push({ kind: 'file', company, what });
  return {
    description: real.description,
    list: (dir, options) => real.list(dir, options).catch(() => []),
    scan: (dir) => real.scan(dir).catch(() => ({ files: [], others: [] })),
    stat: (path) => real.stat(path),
    read: (path) => real.read(path),
    readBuffer: (path) => real.readBuffer(path),
    exists: (path) => real.exists(path),
    async writeAtomic(path: string, data: WriteData): Promise<void> {
      const size =
        typeof data === 'string'
          ? Buffer.byteLength(data)
          : Buffer.isBuffer(data)
            ? data.length
            : typeof data === 'function'
              ? chunksLength(data)
              : undefined;
      if (data instanceof Readable) data.resume();
      record(`would write ${path}${size === undefined ? '' : ` (${size} bytes)`}`);
      return Promise.resolve();
    },
    move(from: string, to: string): Promise<MoveOutcome> {
      record(`would move ${from} → ${to}`);
      return Promise.resolve('moved');
    },
    // A dry run finishes nothing; the real run finishes an interrupted move.
    finishMoves: () => Promise.resolve([]),
    ensureDir: () => Promise.resolve(),
    remove(path: string): Promise<void> {
      record(`would remove ${path}`);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

function mask(iban: string): string {
  return iban.length > 8 ? `${iban.slice(0, 4)}…${iban.slice(-4)}` : iban;
}

/** The bytes a dry run would write, counted chunk by chunk (none kept). */
function chunksLength(chunks: ByteChunks): number {
  let length = 0;
  for (const chunk of chunks()) length += chunk.length;
  return length;
}
