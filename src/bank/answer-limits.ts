// How much of an answer settle reads from the bank before it stops. A hostile or broken answer
// (an endless body, a multi-gigabyte page) must end in a clear error, not in memory exhaustion:
// the body is read as a stream and cut off at the limit of its kind, whatever Content-Length says.
import { BankError, BANK_ERROR_CODES } from './bank-error.js';

/** token: the identity provider's answer; page: one page of a list; resource: one resource (a bulk, a status, a basket). */
export type AnswerKind = 'token' | 'page' | 'resource';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * A token answer is a few hundred bytes. A page holds at most a few hundred records of a few KiB
 * (spec §2.6); a single resource is largest as a bulk with its payment lines (a few thousand
 * lines of well under 1 KiB). The limits leave generous room above that, and stay far below
 * what would threaten the process.
 */
export const DEFAULT_ANSWER_LIMITS: Readonly<Record<AnswerKind, number>> = {
  token: 64 * KiB,
  page: 16 * MiB,
  resource: 16 * MiB,
};

export interface AnswerContext {
  kind: AnswerKind;
  limit: number;
  method: string;
  path: string;
  /** The request may have changed something at the bank (a POST): the outcome is then unknown. */
  changesState: boolean;
}

/** Reads the body up to the limit; past it, stops reading (the connection is dropped) and throws. */
export async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown },
  declaredLength: string | undefined,
  context: AnswerContext,
): Promise<string> {
  const declared = declaredLength === undefined ? Number.NaN : Number(declaredLength);
  if (Number.isFinite(declared) && declared > context.limit) {
    body.destroy();
    throw tooLarge(context, `it announced ${declared} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > context.limit) {
      body.destroy();
      throw tooLarge(context, 'it went on past that');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function tooLarge(context: AnswerContext, how: string): BankError {
  const { kind, limit, method, path, changesState } = context;
  return new BankError(
    BANK_ERROR_CODES.answerTooLarge,
    `the bank's answer to ${method} ${path} is larger than the ${limit} bytes allowed for a ${kind} answer (${how}); settle stopped reading it`,
    { method, path, outcomeUnknown: changesState, retryable: false },
  );
}
