// A CSV profile says how one ERP writes its payment files: encoding, delimiter, quoting,
// which header names hold which payment field, and how amounts and dates are written.
// Profiles live in config/profiles/<name>.yaml (docs/formats/csv-profiles.md).
import { z } from 'zod';
import { PAYMENT_FIELDS, REQUIRED_FIELDS, type PaymentField } from '../../domain/validation/raw-line.js';
import { CONTROLS, namedHeaders, RULE_CODES } from './column-policy.js';
import { DATE_FORMAT, PROFILE_ENCODINGS, THOUSANDS_SEPARATORS } from './profile-values.js';

export { PROFILE_ENCODINGS, type ProfileEncoding } from './profile-values.js';

const field = z.enum(PAYMENT_FIELDS);
const oneChar = z.string().length(1, 'must be exactly one character');

/** How a CSV file is written, shared by every kind of profile (payments, receivables). */
export const csvFormatFields = {
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  /** Used when the file has no byte order mark; a UTF-8 or UTF-16 BOM always wins. */
  encoding: z.enum(PROFILE_ENCODINGS).default('utf-8'),
  delimiter: oneChar
    .refine((c) => c !== '\n' && c !== '\r' && c !== '"', 'cannot be a line break or a double quote')
    .default(','),
  quote: oneChar.default('"'),
  decimalSeparator: z.enum(['.', ',']).default('.'),
  thousandsSeparator: z.enum(THOUSANDS_SEPARATORS).default(''),
  dateFormat: z
    .string()
    .regex(DATE_FORMAT, 'must use YYYY, MM and DD with at most one of . / - or space between them, e.g. DD.MM.YYYY')
    .default('YYYY-MM-DD'),
};

export const csvProfileSchema = z
  .strictObject({
    ...csvFormatFields,
    charset: z
      .strictObject({
        /** "epc": the EPC SEPA Latin set; "any": no character rule. */
        base: z.enum(['epc', 'any']).default('epc'),
        /** Extra characters allowed beyond the base set, e.g. "æøåÆØÅ". */
        extra: z.string().default(''),
      })
      .default({ base: 'epc', extra: '' }),
    /** Payment field → header name in the file (matched ignoring case and surrounding spaces). */
    columns: z.partialRecord(field, z.string().trim().min(1)),
    /** Constant values for fields the file does not carry (e.g. currency: NOK). */
    defaults: z.partialRecord(field, z.string()).default({}),
    /** Header name → a rule for a column settle reads besides the payment fields (column-policy.ts). */
    rules: z
      .record(
        z.string().trim().min(1),
        z.union([
          z.strictObject({
            allowed: z.array(z.string()).min(1),
            code: z.enum(RULE_CODES).optional(),
            why: z.string().min(1),
          }),
          z.strictObject({ sameAs: field, why: z.string().min(1) }),
          z.strictObject({ control: z.enum(CONTROLS) }),
        ]),
      )
      .default({}),
    /** Header name → why the column does not change what is paid. */
    ignored: z.record(z.string().trim().min(1), z.string().min(1)).default({}),
  })
  .superRefine((p, ctx) => {
    if (p.decimalSeparator === p.thousandsSeparator)
      ctx.addIssue({ code: 'custom', path: ['thousandsSeparator'], message: 'cannot be the decimal separator' });
    if (p.delimiter === p.decimalSeparator && p.quote === p.delimiter)
      ctx.addIssue({ code: 'custom', path: ['quote'], message: 'cannot be the delimiter' });
    const missing = REQUIRED_FIELDS.filter((f) => p.columns[f] === undefined && p.defaults[f] === undefined);
    if (missing.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['columns'],
        message: `no column or default for the required field(s) ${missing.join(', ')}`,
      });
    const seen = new Map<string, PaymentField>();
    for (const [f, header] of Object.entries(p.columns) as [PaymentField, string][]) {
      const key = header.trim().toLowerCase();
      const other = seen.get(key);
      if (other)
        ctx.addIssue({
          code: 'custom',
          path: ['columns', f],
          message: `header "${header}" is already mapped to ${other}`,
        });
      seen.set(key, f);
    }
    const headers = namedHeaders(p);
    const twice = headers.filter((h, i) => headers.indexOf(h) !== i && !seen.has(h));
    for (const h of new Set(twice))
      ctx.addIssue({
        code: 'custom',
        path: ['rules'],
        message: `header "${h}" is named twice (columns, rules, ignored)`,
      });
    for (const h of Object.keys(p.rules).concat(Object.keys(p.ignored)))
      if (seen.has(h.trim().toLowerCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['rules'],
          message: `header "${h}" is already mapped to a payment field`,
        });
  });

export type CsvProfile = z.output<typeof csvProfileSchema> & { name: string };
