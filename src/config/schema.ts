// The configuration schema: one typed shape for YAML, environment overrides and embedded
// defaults. docs/configuration.md and config/settle.example.yaml describe every key; a test
// checks that the example file parses and names every key of this schema. The installation's
// sections are here; a company's are in company-schema.ts, the shared field types in schema-fields.ts.
import { isIP } from 'node:net';
import { z } from 'zod';
import { FALLBACK_LOCALE } from '../i18n/locales.js';
import { companySchema } from './company-schema.js';
import { clockTime, duration, locale, name, personId, timeZone } from './schema-fields.js';
import { secretField } from './secret-ref.js';

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
     * How long before an approval link expires it is reported. Links live at most 7 days
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
