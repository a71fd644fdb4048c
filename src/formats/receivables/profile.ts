// A receivables profile says how the ERP writes its file of open receivables: the same format
// options as a payment profile (encoding, delimiter, decimals, dates) and which header holds
// which receivable field. Profiles live beside the payment profiles in config/profiles/.
import { z } from 'zod';
import { csvFormatFields, expectProfileKind, loadProfileWith, parseProfileWith } from '../csv-profile/index.js';

export const RECEIVABLE_FIELDS = ['invoice', 'customer', 'amount', 'currency', 'reference', 'dueDate'] as const;
export type ReceivableField = (typeof RECEIVABLE_FIELDS)[number];
export const REQUIRED_RECEIVABLE_FIELDS: readonly ReceivableField[] = ['invoice', 'customer', 'amount', 'dueDate'];

const header = z.string().trim().min(1);

export const receivablesProfileSchema = z
  .strictObject({
    ...csvFormatFields,
    kind: z.literal('receivables'),
    /** Receivable field → header name in the file (matched ignoring case and surrounding spaces). */
    columns: z.strictObject({
      invoice: header,
      customer: header,
      amount: header,
      currency: header.optional(),
      reference: header.optional(),
      dueDate: header,
    }),
    /** The currency of every line when the file has no currency column. */
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as NOK')
      .optional(),
  })
  .superRefine((p, ctx) => {
    if (p.columns.currency === undefined && p.currency === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['currency'],
        message: 'give a currency column or a currency for every line',
      });
    if (p.decimalSeparator === p.thousandsSeparator)
      ctx.addIssue({ code: 'custom', path: ['thousandsSeparator'], message: 'cannot be the decimal separator' });
  });

export type ReceivablesProfile = Readonly<z.output<typeof receivablesProfileSchema> & { name: string }>;

export function parseReceivablesProfile(text: string, file: string): ReceivablesProfile {
  return parseProfileWith(receivablesProfileSchema, text, file);
}

export function loadReceivablesProfile(name: string, dirs: readonly string[]): Promise<ReceivablesProfile> {
  return loadProfileWith(name, dirs, (text, file) => {
    expectProfileKind(text, file, 'receivables');
    return parseReceivablesProfile(text, file);
  });
}
