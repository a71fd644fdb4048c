// Per-request facts the hooks share with handlers, kept off the request object for type safety.
import type { FastifyRequest } from 'fastify';
import type { Client } from './model.js';
import { unauthorized } from './problems.js';

export interface RequestInfo {
  client?: Client;
  idempotencyKey?: string;
  replayed?: boolean;
  loseResponse?: boolean;
  /** Top-level fields to write over the JSON answer (a `misfit` fault). */
  misfit?: Record<string, unknown>;
}

const infos = new WeakMap<FastifyRequest, RequestInfo>();

export function info(req: FastifyRequest): RequestInfo {
  let i = infos.get(req);
  if (!i) {
    i = {};
    infos.set(req, i);
  }
  return i;
}

/** The authenticated client (set by the auth hook on every authenticated route). */
export function caller(req: FastifyRequest): Client {
  const client = info(req).client;
  if (!client) throw unauthorized();
  return client;
}
