// The configuration schema: one typed shape for YAML, environment overrides and embedded
// defaults. docs/configuration.md and config/settle.example.yaml describe every key; a test
// checks that the example file parses and names every key of this schema.
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseByteSize } from './byte-size.js';
import { PERSON_ID } from '../domain/person.js';
import { ROLES } from '../domain/roles.js';
import { DEFAULT_MAX_FILE_BYTES } from '../domain/validation/file-size.js';
import { FALLBACK_LOCALE, LOCALES, type Locale } from '../i18n/locales.js';
import { parseDuration } from './duration.js';
import { secretField } from './secret-ref.js';

const duration = (fallback: string) =>
  z
    .union([z.string(), z.number()])
    .default(fallback)
    .transform((value, ctx) => {
      const ms = parseDuration(value);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration (e.g. 30s, 5m, 24h, 7d)` });
        return z.NEVER;
      }
      return ms;
    });

const byteSize = (fallback: string | number) =>
  z
    .union([z.string(), z.number()])
    .default(fallback)
    .transform((value, ctx) => {
      const bytes = parseByteSize(value);
      if (bytes === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${value}" is not a size (e.g. 512MB, 1GiB)` });
        return z.NEVER;
      }
      return bytes;
    });

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal amount such as "250000.00"');
const name = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'lower-case letters, digits, - and _ (at most 32)');
/** An explicit person id (companies[].people[].person, console.localUsers[].person). */
const personId = z.string().regex(PERSON_ID, 'lower-case letters, digits, . _ - (at most 64), not an e-mail address');

/** A language settle has a catalogue for (docs/i18n.md): en, nb, or en-XA to check a translation. */
const locale = z.enum(LOCALES as [Locale, ...Locale[]]);

const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'not an IANA time zone such as Europe/Oslo');

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
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM, e.g. "06:00"');

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

const sftpTransport = z.strictObject({
  type: z.literal('sftp'),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(22),
  username: z.string().min(1),
  password: secretField.optional(),
  privateKey: secretField.optional(),
  passphrase: secretField.optional(),
  hostKeySha256: z
    .string()
    .regex(/^SHA256:[A-Za-z0-9+/]{43}=?$/, 'expected SHA256:… as printed by `settle sftp fingerprint`')
    .optional(),
  allowUnpinnedHostKey: z.boolean().default(false),
  timeout: duration('30s'),
});

const cron = z.string().regex(/^(\S+\s+){4,5}\S+$/, 'a cron expression such as "0 2 * * *"');

const server = z
  .strictObject({
    host: z.string().default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(8080),
    webhookAuthorization: secretField.optional(),
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024),
  })
  .prefault({});

const PROXY_ADDRESS_HINT = 'an IP address, a CIDR range such as 10.0.0.0/8, or loopback, linklocal or uniquelocal';

/** What proxy-addr (fastify's trustProxy) accepts of a list: an address, a range, or a named range. */
function isProxyAddress(text: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(text)) return true;
  const [address = '', bits, ...rest] = text.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return /^\d{1,3}$/.test(bits) && prefix <= (version === 4 ? 32 : 128);
}

/** The web console (docs/console.md): off unless enabled; its own listener, loopback by default. */
const consoleSection = z
  .strictObject({
    enabled: z.boolean().default(false),
    host: z.string().default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(8081),
    /** How long a sign-in lasts; the session cookie expires with it. */
    sessionTtl: duration('8h'),
    /** The address people open, when a proxy stands in front (OIDC redirect, Secure cookies on https). */
    publicUrl: z.url().optional(),
    /**
     * The reverse proxies in front of the console (addresses, CIDR ranges, or loopback,
     * linklocal, uniquelocal): a request from one of them is taken to come from the address its
     * X-Forwarded-For names, so the sign-in limit per address counts people, not the proxy.
     * Empty (the default): the header is ignored, so nobody can choose their own address.
     */
    trustedProxies: z.array(z.string().refine(isProxyAddress, PROXY_ADDRESS_HINT)).default([]),
    /** Signs the session cookies: at least 32 random characters. Required when enabled. */
    sessionKey: secretField.optional(),
    oidc: z
      .strictObject({
        issuer: z.url(),
        clientId: z.string().min(1),
        /** Absent: a public client (PKCE only). */
        clientSecret: secretField.optional(),
        scope: z.string().default('openid email profile'),
      })
      .optional(),
    /** Failed password sign-ins allowed per user name and per client address within `failureWindow`. */
    signInLimit: z
      .strictObject({
        perUser: z.number().int().min(1).max(1000).default(5),
        perAddress: z.number().int().min(1).max(10_000).default(20),
        failureWindow: duration('15m'),
      })
      .prefault({}),
    /**
     * Install-wide auditors (issue #50): e-mail addresses or person ids of people who read the
     * whole audit trail, every company's entries and those of none, on the console's Audit page.
     * A company's operators read their company's entries only.
     */
    auditors: z.array(z.string().trim().min(1).max(320)).default([]),
    /** People who sign in with a password (installs without OIDC); matched to companies[].people by e-mail. */
    localUsers: z
      .array(
        z.strictObject({
          username: z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/, 'letters, digits, . _ @ - (at most 64)'),
          email: z.email(),
          /** The person id this login maps to, for four eyes (src/domain/person.ts); default: the e-mail. */
          person: personId.optional(),
          /** An argon2id hash (`$argon2id$…`), e.g. from `npx @node-rs/argon2`-style tools; a secret. */
          passwordHash: secretField,
        }),
      )
      .default([]),
  })
  .prefault({});

const schedule = z
  .strictObject({
    nightly: cron.default('0 2 * * *'),
    status: cron.default('*/15 * * * *'),
    statements: cron.default('0 7,13,19 * * *'),
    purge: cron.default('30 4 * * 0'),
    jobLease: duration('30m'),
    claimTtl: duration('45s'),
    /** Companies one instance works on at once (their chains overlap while each waits on the bank). */
    companiesAtOnce: z.number().int().min(1).max(64).default(4),
  })
  .prefault({});

const alerts = z
  .strictObject({
    email: z
      .strictObject({
        host: z.string().min(1),
        port: z.number().int().min(1).max(65535).default(587),
        secure: z.boolean().default(false),
        username: z.string().optional(),
        password: secretField.optional(),
        from: z.email(),
        to: z.array(z.email()).min(1),
      })
      .optional(),
    webhook: z.strictObject({ url: z.url(), authorization: secretField.optional() }).optional(),
    warnBefore: duration('7d'),
    /**
     * How long before an approval (SCA) link expires it is reported. Links live at most 7 days
     * (spec), so warnBefore's 7 days would call every new link "expiring soon".
     */
    linkWarnBefore: duration('1d'),
    /** Local time (each company's time zone) by which the nightly chain must have completed. */
    nightlyBy: clockTime.optional(),
    /** Local time by which the day's statements must have been exported. */
    statementsBy: clockTime.optional(),
  })
  .prefault({});

/**
 * Each bank's daily cut-off for payments executed the same day (the banking API gives none, so
 * it is configured per bankId), and what submit does with a bulk dated today that is sent after
 * it: `roll` to the bank's next business day (reported to the accountant) or `refuse` it.
 */
const cutOff = z
  .strictObject({
    policy: z.enum(['roll', 'refuse']).default('roll'),
    banks: z
      .record(
        z.string().min(1),
        z.strictObject({
          time: clockTime,
          /** The bank's zone; default the top-level timeZone. */
          timeZone: timeZone.optional(),
          /** The bank's business calendar (ISO country) for the next business day. */
          calendar: z.string().length(2).default('NO'),
        }),
      )
      .default({}),
  })
  .prefault({});

const reconcile = z
  .strictObject({
    rules: z
      .array(z.enum(['end-to-end', 'batch-lump-sum', 'amount-account-date']))
      .default(['end-to-end', 'batch-lump-sum', 'amount-account-date']),
    dateWindowDays: z.number().int().min(0).max(60).default(3),
    amountToleranceMinor: z.number().int().min(0).default(0),
    amountRuleOnlyWithoutEndToEnd: z.boolean().default(true),
    notBookedAfterBusinessDays: z.number().int().min(0).max(30).default(2),
    unexpectedDebitNeedsPerson: z.boolean().default(true),
    lookBack: duration('31d'),
  })
  .prefault({});

/** What no company owns (webhook events, job runs, sent-alert marks, lapsed claims) and how purges run. */
const retention = z
  .strictObject({
    operational: duration('90d'),
    batchSize: z.number().int().min(10).max(10_000).default(500),
  })
  .prefault({});

export const configSchema = z.strictObject({
  timeZone: timeZone.default('Europe/Oslo'),
  /** The language people read in where neither a person nor a company names one (src/i18n). */
  locale: locale.default(FALLBACK_LOCALE),
  dataDir: z.string().default('.settle'),
  log: z
    .strictObject({
      level: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
      format: z.enum(['auto', 'json', 'pretty']).default('auto'),
    })
    .prefault({}),
  database: z.strictObject({ url: z.string().optional(), password: secretField.optional() }).prefault({}),
  bank: z
    .strictObject({
      baseUrl: z.url().default('http://127.0.0.1:8090/api'),
      authUrl: z.url().default('http://127.0.0.1:8090/id'),
      tenantId: z.string().min(1).default('sandbox'),
      clientId: z.string().min(1).default('sandbox-client'),
      clientSecret: secretField.optional(),
      subscriptionId: z
        .string()
        .regex(/^[A-Za-z0-9_-]+$/)
        .default('sandbox'),
      channelType: z.enum(['openBanking', 'unspecified', 'psd2']).default('openBanking'),
      apiVersion: z.string().default('1.0'),
      redirectUri: z.url().optional(),
      timeout: duration('30s'),
      maxRetries: z.number().int().min(0).max(20).default(5),
      concurrency: z.number().int().min(1).max(64).default(4),
      idempotencyRetention: duration('24h'),
    })
    .prefault({}),
  server,
  console: consoleSection,
  schedule,
  alerts,
  cutOff,
  reconcile,
  retention,
  transports: z.record(name, sftpTransport).default({}),
  /**
   * Files (or file-name patterns such as settle.d/*.yaml) relative to this file, whose
   * `companies` and `people` lists are added to this file's (src/config/sources.ts).
   */
  include: z.array(z.string().min(1)).default([]),
  /** People shared by companies, written once; a company's people entry names one by `person` (src/config/shared-people.ts). */
  people: z
    .array(z.strictObject({ person: personId, name: z.string().min(1), email: z.email(), locale: locale.optional() }))
    .default([]),
  companies: z.array(companySchema).default([]),
});

export type ConfigInput = z.input<typeof configSchema>;
export type ParsedConfig = z.output<typeof configSchema>;
export type CompanyConfig = ParsedConfig['companies'][number];
