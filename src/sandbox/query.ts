// Query-string rules shared by the routes: strict booleans and dates, single values only.
import { isLocalDate, type LocalDate } from '../domain/local-date.js';
import { badRequest } from './problems.js';
import { bankToday } from './time.js';

export type Query = Record<string, string | string[] | undefined>;

export function one(q: Query, name: string): string | undefined {
  const v = q[name];
  if (Array.isArray(v)) throw badRequest(`Query parameter ${name} must be given once.`);
  return v;
}

export function bool(q: Query, name: string): boolean | undefined {
  const v = one(q, name);
  if (v === undefined) return undefined;
  if (/^true$/i.test(v)) return true;
  if (/^false$/i.test(v)) return false;
  throw badRequest(`Query parameter ${name} must be true or false.`);
}

/** A date or a date-time (taken as the bank's calendar day of that instant). */
export function date(q: Query, name: string): LocalDate | undefined {
  const v = one(q, name);
  if (v === undefined) return undefined;
  if (isLocalDate(v)) return v;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)))
    return bankToday(new Date(v));
  throw badRequest(`Query parameter ${name} must be a date (YYYY-MM-DD) or an RFC 3339 date-time.`);
}

/** Array parameters come repeated (?a=x&a=y) or comma-separated (?a=x,y). */
export function list(q: Query, name: string): string[] | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}
