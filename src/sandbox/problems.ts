// Problem details (RFC 7807) as the bank writes them: a type URI ending in a fragment, a title,
// the status, a detail and a W3C trace-context traceId. Every error the sandbox answers goes
// through here so no route can answer an error in another shape.
import { randomBytes } from 'node:crypto';

/** The bank's error page; the fragment names the error (spec §7, facts §2.5). */
export const PROBLEM_TYPE_BASE = 'https://developer.aritma.com/apis/banking/development/errors';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  traceId: string;
  instance?: string;
  errors?: readonly FieldError[];
}

export interface FieldError {
  field: string;
  message: string;
}

/** Thrown by handlers; the server's error handler turns it into a problem response. */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly fragment: string,
    readonly title: string,
    readonly detail = '',
    readonly extra: { errors?: readonly FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(`${status} ${title}${detail ? `: ${detail}` : ''}`);
    this.name = 'Problem';
  }
}

export const unauthorized = (detail = 'The bearer token is missing, invalid or expired.'): Problem =>
  new Problem(401, 'access-unauthorized', 'Access unauthorized', detail);
export const forbidden = (detail = 'The caller has no access to this resource.'): Problem =>
  new Problem(403, 'access-forbidden', 'Access was forbidden', detail);
export const notFound = (title: string, detail = ''): Problem => new Problem(404, 'not-found', title, detail);
export const badRequest = (detail: string, errors?: readonly FieldError[]): Problem =>
  new Problem(400, 'bad-request', 'Bad request', detail, errors ? { errors } : {});
export const conflict = (detail: string): Problem => new Problem(409, 'conflict', 'Conflict', detail);

/**
 * A W3C traceparent value (version 00, 16-byte trace id, 8-byte span id, sampled). When the
 * caller sent a valid traceparent, its trace id is kept so the error can be correlated.
 */
export function newTraceId(incoming?: string): string {
  const m = incoming ? /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/.exec(incoming.trim()) : null;
  const trace = m?.[1] && !/^0+$/.test(m[1]) ? m[1] : randomBytes(16).toString('hex');
  return `00-${trace}-${randomBytes(8).toString('hex')}-01`;
}

export function problemBody(p: Problem, instance?: string, traceparent?: string): ProblemBody {
  const body: ProblemBody = {
    type: `${PROBLEM_TYPE_BASE}#${p.fragment}`,
    title: p.title,
    status: p.status,
    detail: p.detail,
    traceId: newTraceId(traceparent),
  };
  if (instance !== undefined) body.instance = instance;
  if (p.extra.errors) body.errors = p.extra.errors;
  return body;
}

/** Fragment and title for statuses raised by the framework itself (bad JSON, wrong media type …). */
export function problemForStatus(status: number, detail: string): Problem {
  const known: Record<number, [string, string]> = {
    400: ['bad-request', 'Bad request'],
    404: ['not-found', 'Not found'],
    405: ['method-not-allowed', 'Method not allowed'],
    406: ['not-acceptable', 'Not acceptable'],
    413: ['payload-too-large', 'Payload too large'],
    415: ['unsupported-media-type', 'Unsupported media type'],
    429: ['too-many-requests', 'Too many requests'],
    500: ['internal-server-error', 'Internal server error'],
    501: ['not-implemented', 'Not implemented'],
    502: ['bad-gateway', 'Bad gateway'],
    503: ['service-unavailable', 'Service unavailable'],
    504: ['gateway-timeout', 'Gateway timeout'],
  };
  const [fragment, title] =
    known[status] ??
    (status >= 500 ? ['internal-server-error', 'Internal server error'] : ['bad-request', 'Bad request']);
  return new Problem(status, fragment, title, detail);
}
