// A company's part of the configuration (companies[] and each file a bureau includes): its
// folders, intake, payments, controls, statements, people and retention. Kept apart from the
// installation's sections (schema.ts) because it is the part that is written once per company.
import { z } from 'zod';
import { ROLES } from '../domain/roles.js';
import { DEFAULT_MAX_FILE_BYTES } from '../domain/validation/file-size.js';
import { byteSize, clockTime, decimal, duration, locale, name, personId, timeZone } from './schema-fields.js';

const folders = z
  .strictObject({
    inbox: z.string().default('inbox'),
    archive: z.string().default('archive'),
    error: z.string().default('error'),
    status: z.string().default('status'),
    statements: z.string().default('statements'),
    reports: z.string().default('reports'),
    approvals: z.string().optional(),
    /** Where the ERP drops its files of open receivables; unset: the company keeps none in settle. */
    receivables: z.string().optional(),
  })
  .default({
    inbox: 'inbox',
    archive: 'archive',
    error: 'error',
    status: 'status',
    statements: 'statements',
    reports: 'reports',
  });

const days = z.number().int().min(0).max(366);
const dayWindow = (before: number, after: number) =>
  z.strictObject({ before: days.default(before), after: days.default(after) }).prefault({});

/** Matching tolerances of a company (docs/reconciliation.md, "Tolerances"): exact decimals. */
const tolerances = z
  .strictObject({
    amount: z
      .strictObject({
        absolute: decimal.default('0'),
        percent: z
          .string()
          .regex(/^\d+(\.\d+)?$/, 'a percentage such as "0.5"')
          .default('0'),
        base: z.enum(['expected', 'booked', 'smaller']).default('expected'),
      })
      .prefault({}),
    fee: decimal.default('0'),
    dateWindow: dayWindow(3, 3),
    dueDateWindow: dayWindow(30, 60),
    autoConfirmScore: z.number().int().min(0).max(100).default(80),
  })
  .prefault({});

/** Shortest `intake.stableFor` without a ready marker. */
export const MIN_STABLE_MS = 1000;

const intake = z
  .strictObject({
    pattern: z.string().default('*.csv,*.xml'),
    profile: z.string().default('generic'),
    acceptValidLines: z.boolean().default(false),
    maxAmount: decimal.optional(),
    holidayPolicy: z.enum(['flag', 'move', 'reject']).default('move'),
    calendar: z.string().length(2).default('NO'),
    charset: z.enum(['sepa', 'sepa-nordic', 'any']).default('sepa-nordic'),
    stableFor: duration('5s'),
    readyMarker: z
      .string()
      .regex(/^\.[A-Za-z0-9_-]{1,16}$/, 'a suffix such as ".done"')
      .optional(),
    duplicateWindow: duration('14d'),
    maxFileSize: byteSize(DEFAULT_MAX_FILE_BYTES),
    /** Files taken from the inbox in one run, the first by name; the rest wait for the next run. */
    maxFilesPerRun: z.number().int().min(1).default(10_000),
  })
  .superRefine((intake, ctx) => {
    // Without a marker the only sign that a writer is done is that the file stopped changing.
    if (intake.readyMarker === undefined && intake.stableFor < MIN_STABLE_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['stableFor'],
        message: `must be at least ${MIN_STABLE_MS / 1000}s (a shorter wait takes files that are still being written), unless intake.readyMarker is set`,
      });
    }
  })
  .prefault({});

const payments = z
  .strictObject({
    maxLinesPerBulk: z.number().int().min(1).max(10_000).default(500),
    batchBooking: z.boolean().default(false),
    approvalRequiredAccounts: z.array(z.string()).default([]),
    approvers: z.array(z.email()).default([]),
    payrollAccounts: z.array(z.string()).default([]),
    // Four eyes for cancelling (command line and console): a second, different person confirms each request.
    cancelFourEyes: z.boolean().default(false),
  })
  .prefault({});

/** Amounts per ISO currency code, e.g. { NOK: "500000.00" } (src/domain/controls). */
const amountsByCurrency = z.record(z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 currency code such as NOK'), decimal);
const limits = z
  .strictObject({
    perLine: amountsByCurrency.optional(),
    perFile: amountsByCurrency.optional(),
    perDebtorDay: amountsByCurrency.optional(),
  })
  .prefault({});

/** Payment controls (docs/controls.md): which lines pickup holds for a person, and why. */
const controls = z
  .strictObject({
    changedAccount: z.boolean().default(true),
    newAccount: z.boolean().default(true),
    /** From this day on the new-account rule holds lines; default reconcile.since. */
    goLive: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date such as 2026-01-05')
      .optional(),
    /** A file of the creditor accounts paid before settle, one "IBAN[,name]" a line. */
    knownAccounts: z.string().min(1).optional(),
    limits,
    /** Limits of single debtor accounts (by IBAN), replacing the company's for the currencies they name. */
    accounts: z.record(z.string().min(5), z.strictObject({ limits })).default({}),
    hours: z
      .strictObject({
        from: clockTime,
        to: clockTime,
        days: z
          .array(z.enum(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']))
          .min(1)
          .default(['mon', 'tue', 'wed', 'thu', 'fri']),
      })
      .optional(),
  })
  .prefault({});

const statements = z
  .strictObject({
    formats: z
      .array(z.enum(['camt.053.001.02', 'camt.053.001.08', 'csv', 'camt.054.001.02', 'camt.054.001.08']))
      .default(['camt.053.001.02']),
    period: z.enum(['day', 'run']).default('day'),
    emptyDays: z.boolean().default(true),
    // Which camt.054 notifications a camt.054 format in `formats` writes: debits of settle's own
    // payments, incoming credits, or both (one file of each per account and day).
    camt054: z.strictObject({ debit: z.boolean().default(true), credit: z.boolean().default(true) }).prefault({}),
    overlap: duration('3d'),
    csv: z
      .strictObject({
        delimiter: z.enum([',', ';', '\t', '|']).default(';'),
        decimalSeparator: z.enum(['.', ',']).default(','),
        encoding: z.enum(['utf-8', 'utf-8-bom', 'iso-8859-1', 'windows-1252']).default('utf-8'),
      })
      .prefault({}),
  })
  .prefault({});

const status = z
  .strictObject({
    formats: z.array(z.enum(['pain.002.001.03', 'pain.002.001.10', 'csv'])).default(['pain.002.001.03', 'csv']),
  })
  .prefault({});

/**
 * A company's retention: bookkeeping material for `bookkeepingYears` after the end of its
 * fiscal year (Norway's bokføringsloven §13: five years), what no law keeps for `operational`.
 */
const companyRetention = z
  .strictObject({
    bookkeepingYears: z.number().int().min(1).max(30).default(5),
    operational: duration('90d'),
  })
  .prefault({});

export const companySchema = z.strictObject({
  id: name,
  name: z.string().min(1),
  organisationNumber: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only (it is the resource group name)'),
  /**
   * This company shares its organisation number with other configured companies on purpose (one
   * legal entity run as several companies, e.g. by department); each of them must say so.
   */
  sharesOrganisationNumber: z.boolean().default(false),
  /** The banks the company has accounts at (docs/banks.md); the accounts themselves come from each bank. */
  banks: z
    .array(
      z.strictObject({
        bankId: z.string().min(1),
        /** Pins the Consent-ID of payments at this bank; without it the consent settle read from the bank is used. */
        consentId: z.string().min(1).optional(),
      }),
    )
    .default([])
    .superRefine((banks, ctx) => {
      const seen = new Set<string>();
      banks.forEach((b, i) => {
        if (seen.has(b.bankId))
          ctx.addIssue({ code: 'custom', path: [i, 'bankId'], message: `bank "${b.bankId}" is listed twice` });
        seen.add(b.bankId);
      });
    }),
  /** The one-bank form of `banks` (read as a list of one; docs/banks.md "Older configurations"). */
  bankId: z.string().min(1).optional(),
  consentId: z.string().min(1).optional(),
  transport: z.string().default('local'),
  root: z.string().min(1),
  folders,
  intake,
  payments,
  controls,
  statements,
  status,
  timeZone: timeZone.optional(),
  /** The language of the company's reports, notices and files' free text; default the top-level locale. */
  locale: locale.optional(),
  people: z
    .array(
      z.strictObject({
        /** Both may come from the top-level people entry this one names by `person`. */
        name: z.string().min(1),
        email: z.email(),
        /** The person id every login of this person maps to (src/domain/person.ts); default: the e-mail. */
        person: personId.optional(),
        roles: z.array(z.enum(ROLES)).min(1),
        /** The language this person reads the console in, before the browser's. */
        locale: locale.optional(),
      }),
    )
    .default([]),
  retention: companyRetention,
  reconcile: z
    .strictObject({
      since: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date such as 2026-01-05')
        .optional(),
      /** The CSV profile (kind: receivables) of the files in folders.receivables. */
      receivablesProfile: z.string().default('receivables'),
      tolerances,
    })
    .prefault({}),
});
