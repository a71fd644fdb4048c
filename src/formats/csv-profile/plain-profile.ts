// A valid payment profile read without the schema library: loading zod costs more CPU than a
// whole small file's validation (docs/performance.md, start-up), and nearly every profile
// settle reads is valid. This accepts only what csvProfileSchema (profile.ts) accepts and
// builds the same profile; anything else — an unknown key, a wrong type, a broken rule —
// returns undefined and the caller parses with the schema, which names every problem.
// test/formats/intake/plain-profile.test.ts holds the two to the same result. A shipped profile's
// value comes from the build (built-profiles.ts); only another text loads the yaml library.
import { basename } from 'node:path';
import type { parseDocument as ParseDocument } from 'yaml';
import { PAYMENT_FIELDS, REQUIRED_FIELDS, type PaymentField } from '../../domain/validation/raw-line.js';
import { CONTROLS, namedHeaders, RULE_CODES, type ColumnRule } from './column-policy.js';
import { builtProfileValue } from './built-profiles.js';
import type { CsvProfile } from './profile.js';
import { DATE_FORMAT, PROFILE_ENCODINGS, THOUSANDS_SEPARATORS } from './profile-values.js';

type Plain = Record<string, unknown>;

const TOP_KEYS = new Set([
  'name',
  'description',
  'encoding',
  'delimiter',
  'quote',
  'decimalSeparator',
  'thousandsSeparator',
  'dateFormat',
  'charset',
  'columns',
  'defaults',
  'rules',
  'ignored',
]);
const FIELDS = new Set<string>(PAYMENT_FIELDS);
const THOUSANDS = new Set<string>(THOUSANDS_SEPARATORS);

/** The value of a profile's YAML text as plainProfile reads it; undefined when it has errors. */
export function yamlValue(parseDocument: typeof ParseDocument, text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return undefined;
  return doc.toJS() ?? {};
}

/**
 * The profile in `text` when it is valid as the schema would read it, else undefined. `builtDir`:
 * where the build stored the shipped profiles' values (the tests give their own).
 */
export async function plainProfile(text: string, file: string, builtDir?: URL): Promise<CsvProfile | undefined> {
  const raw = builtProfileValue(text, builtDir) ?? yamlValue((await import('yaml')).parseDocument, text);
  if (raw === undefined) return undefined;
  if (!isPlain(raw) || !Object.keys(raw).every((k) => TOP_KEYS.has(k))) return undefined;

  const name = optionalString(raw.name);
  const description = optionalString(raw.description);
  const encoding = oneOf(raw.encoding, PROFILE_ENCODINGS, 'utf-8');
  const delimiter = oneChar(raw.delimiter, ',');
  const quote = oneChar(raw.quote, '"');
  const decimalSeparator = oneOf(raw.decimalSeparator, ['.', ','] as const, '.');
  const thousandsSeparator = raw.thousandsSeparator === undefined ? '' : raw.thousandsSeparator;
  const dateFormat = raw.dateFormat === undefined ? 'YYYY-MM-DD' : raw.dateFormat;
  const charset = charsetOf(raw.charset);
  const columns = fieldRecord(raw.columns, (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined));
  const defaults = fieldRecord(raw.defaults === undefined ? {} : raw.defaults, (v) =>
    typeof v === 'string' ? v : undefined,
  );
  const rules = headerRecord(raw.rules, columnRule);
  const ignored = headerRecord(raw.ignored, (v) => (typeof v === 'string' && v !== '' ? v : undefined));
  if (
    name === INVALID ||
    (name !== undefined && name.length < 1) ||
    description === INVALID ||
    encoding === undefined ||
    delimiter === undefined ||
    delimiter === '\n' ||
    delimiter === '\r' ||
    delimiter === '"' ||
    quote === undefined ||
    decimalSeparator === undefined ||
    typeof thousandsSeparator !== 'string' ||
    !THOUSANDS.has(thousandsSeparator) ||
    typeof dateFormat !== 'string' ||
    !DATE_FORMAT.test(dateFormat) ||
    charset === undefined ||
    columns === undefined ||
    defaults === undefined ||
    rules === undefined ||
    ignored === undefined
  )
    return undefined;
  // The schema's cross-field rules (its superRefine): any of them broken is the schema's to report.
  if (decimalSeparator === thousandsSeparator) return undefined;
  if (delimiter === decimalSeparator && quote === delimiter) return undefined;
  if (REQUIRED_FIELDS.some((f) => columns[f] === undefined && defaults[f] === undefined)) return undefined;
  const headers = namedHeaders({ columns, rules, ignored });
  if (new Set(headers).size !== headers.length) return undefined;

  return Object.freeze({
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    encoding,
    delimiter,
    quote,
    decimalSeparator,
    thousandsSeparator: thousandsSeparator as CsvProfile['thousandsSeparator'],
    dateFormat,
    charset,
    columns,
    defaults,
    rules,
    ignored,
    name: name ?? basename(file).replace(/\.ya?ml$/, ''),
  });
}

const INVALID = Symbol('invalid');

function isPlain(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function optionalString(v: unknown): string | undefined | typeof INVALID {
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : INVALID;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], fallback: T): T | undefined {
  if (v === undefined) return fallback;
  return allowed.includes(v as T) ? (v as T) : undefined;
}

function oneChar(v: unknown, fallback: string): string | undefined {
  if (v === undefined) return fallback;
  return typeof v === 'string' && v.length === 1 ? v : undefined;
}

function charsetOf(v: unknown): CsvProfile['charset'] | undefined {
  if (v === undefined) return { base: 'epc', extra: '' };
  if (!isPlain(v) || !Object.keys(v).every((k) => k === 'base' || k === 'extra')) return undefined;
  const base = oneOf(v.base, ['epc', 'any'] as const, 'epc');
  const extra = v.extra === undefined ? '' : v.extra;
  return base === undefined || typeof extra !== 'string' ? undefined : { base, extra };
}

/** A record keyed by payment fields, each value read by `read` (undefined: not valid). */
function fieldRecord(
  v: unknown,
  read: (value: unknown) => string | undefined,
): Partial<Record<PaymentField, string>> | undefined {
  if (!isPlain(v)) return undefined;
  const out: Partial<Record<PaymentField, string>> = {};
  for (const [key, value] of Object.entries(v)) {
    const text = read(value);
    if (!FIELDS.has(key) || text === undefined) return undefined;
    out[key as PaymentField] = text;
  }
  return out;
}

/** A record keyed by header names (trimmed, not blank), each value read by `read` (undefined: not valid). */
function headerRecord<T>(v: unknown, read: (value: unknown) => T | undefined): Record<string, T> | undefined {
  if (v === undefined) return {};
  if (!isPlain(v)) return undefined;
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(v)) {
    const header = key.trim();
    const item = read(value);
    if (header === '' || item === undefined) return undefined;
    out[header] = item;
  }
  return out;
}

function columnRule(v: unknown): ColumnRule | undefined {
  if (!isPlain(v)) return undefined;
  const keys = Object.keys(v).sort().join(',');
  const why = typeof v.why === 'string' && v.why !== '' ? v.why : undefined;
  if (keys === 'control')
    return CONTROLS.includes(v.control as never) ? { control: v.control as 'nbOfTxs' } : undefined;
  if (keys === 'sameAs,why')
    return FIELDS.has(v.sameAs as string) && why ? { sameAs: v.sameAs as PaymentField, why } : undefined;
  if (keys !== 'allowed,why' && keys !== 'allowed,code,why') return undefined;
  const allowed = v.allowed;
  if (!why || !Array.isArray(allowed) || allowed.length === 0 || !allowed.every((a) => typeof a === 'string'))
    return undefined;
  if (v.code === undefined) return { allowed: allowed, why };
  return RULE_CODES.includes(v.code as never)
    ? { allowed: allowed, code: v.code as 'ELEMENT_UNSUPPORTED', why }
    : undefined;
}
