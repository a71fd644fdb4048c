// Loads the configuration at start (and again on a reload of `settle serve`): YAML file and the
// files it includes (or embedded defaults), then SETTLE_* environment overrides, then schema
// validation, then secrets. Every problem is collected and reported at once with its key path,
// file and line; the result is frozen and passed down.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { SettleError } from '../domain/errors.js';
import { normaliseIdentity, personClashes, type PersonDirectory } from '../domain/person.js';
import { registerSecret, Secret } from '../log/index.js';
import { applyEnvOverrides } from './env.js';
import type { ConfigProblem } from './problem.js';
import { configSchema, type ParsedConfig } from './schema.js';
import { resolveSecret, type SecretRef } from './secret-ref.js';
import { expandSharedPeople } from './shared-people.js';
import { readSources } from './sources.js';
import { unknownKeysMessage } from './unknown-keys.js';
import { addTo } from '../domain/group.js';

export type { ConfigProblem } from './problem.js';

type Resolved<T> = { [K in keyof T]: T[K] extends SecretRef | undefined ? Secret | undefined : T[K] };
type SftpTransportConfig = Resolved<ParsedConfig['transports'][string]>;

export interface Config extends Omit<
  ParsedConfig,
  'bank' | 'database' | 'transports' | 'server' | 'alerts' | 'console'
> {
  server: Resolved<ParsedConfig['server']>;
  console: Omit<ParsedConfig['console'], 'sessionKey' | 'oidc' | 'localUsers'> & {
    sessionKey: Secret | undefined;
    oidc: Resolved<NonNullable<ParsedConfig['console']['oidc']>> | undefined;
    localUsers: { username: string; email: string; person?: string | undefined; passwordHash: Secret | undefined }[];
  };
  alerts: Omit<ParsedConfig['alerts'], 'email' | 'webhook'> & {
    email: Resolved<NonNullable<ParsedConfig['alerts']['email']>> | undefined;
    webhook: Resolved<NonNullable<ParsedConfig['alerts']['webhook']>> | undefined;
  };
  bank: Resolved<ParsedConfig['bank']>;
  database: { url: string; password: Secret | undefined };
  transports: Record<string, SftpTransportConfig>;
  /** Where the configuration came from: a file path or "embedded defaults", the files it included; plus the env overrides applied. */
  source: { file: string | undefined; included: string[]; envOverrides: string[] };
}

export interface LoadConfigOptions {
  /** --config FILE; when absent, config/settle.yaml in `cwd` if present, else embedded defaults. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function loadConfig(options: LoadConfigOptions = {}): Readonly<Config> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const problems: ConfigProblem[] = [];
  const file = options.file
    ? resolve(cwd, options.file)
    : existsSync(join(cwd, 'config/settle.yaml'))
      ? join(cwd, 'config/settle.yaml')
      : undefined;
  const sources = readSources(file, problems);
  const raw = sources.raw;
  const envOverrides = applyEnvOverrides(raw, env);
  const located = () => problems.map((p) => sources.locate(p));
  if (problems.length) throw configError(located(), file);
  const unknownPeople = expandSharedPeople(raw, problems);

  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.') || '(root)';
      // An entry naming an unknown shared person lacks its name and e-mail: already said above.
      if (unknownPeople.some((entry) => path === `${entry}.name` || path === `${entry}.email`)) continue;
      problems.push({
        path,
        message:
          issue.code === 'unrecognized_keys' ? unknownKeysMessage(configSchema, issue.path, issue.keys) : issue.message,
      });
    }
    throw configError(located(), file);
  }
  const unset: ConfigProblem[] = [];
  const config = resolveConfig(parsed.data, env, cwd, unset);
  crossCheck(config, problems, new Set(unset.map((u) => u.path)));
  problems.push(...groupedSecrets(unset.map((u) => sources.locate(u))));
  if (problems.length) throw configError(located(), file);
  return deepFreeze({ ...config, source: { file, included: sources.files.slice(1), envOverrides } });
}

function resolveConfig(
  parsed: ParsedConfig,
  env: NodeJS.ProcessEnv,
  cwd: string,
  problems: ConfigProblem[],
): Omit<Config, 'source'> {
  const secret = (ref: SecretRef | undefined, path: string): Secret | undefined => {
    if (!ref) return undefined;
    const result = resolveSecret(ref, env);
    if (result.ok) return new Secret(result.value);
    problems.push({ path, message: result.message });
    return undefined;
  };
  const dataDir = isAbsolute(parsed.dataDir) ? parsed.dataDir : resolve(cwd, parsed.dataDir);
  const url = parsed.database.url ?? `sqlite:${join(dataDir, 'settle.sqlite')}`;
  maskUrlPassword(url);
  const transports: Record<string, SftpTransportConfig> = {};
  for (const [name, t] of Object.entries(parsed.transports)) {
    transports[name] = {
      ...t,
      password: secret(t.password, `transports.${name}.password`),
      privateKey: secret(t.privateKey, `transports.${name}.privateKey`),
      passphrase: secret(t.passphrase, `transports.${name}.passphrase`),
    };
  }
  return {
    ...parsed,
    dataDir,
    database: { url, password: secret(parsed.database.password, 'database.password') },
    bank: { ...parsed.bank, clientSecret: secret(parsed.bank.clientSecret, 'bank.clientSecret') },
    server: {
      ...parsed.server,
      webhookAuthorization: secret(parsed.server.webhookAuthorization, 'server.webhookAuthorization'),
    },
    console: {
      ...parsed.console,
      sessionKey: secret(parsed.console.sessionKey, 'console.sessionKey'),
      oidc: parsed.console.oidc && {
        ...parsed.console.oidc,
        clientSecret: secret(parsed.console.oidc.clientSecret, 'console.oidc.clientSecret'),
      },
      localUsers: parsed.console.localUsers.map((u, i) => ({
        ...u,
        passwordHash: secret(u.passwordHash, `console.localUsers.${i}.passwordHash`),
      })),
    },
    alerts: {
      ...parsed.alerts,
      email: parsed.alerts.email && {
        ...parsed.alerts.email,
        password: secret(parsed.alerts.email.password, 'alerts.email.password'),
      },
      webhook: parsed.alerts.webhook && {
        ...parsed.alerts.webhook,
        authorization: secret(parsed.alerts.webhook.authorization, 'alerts.webhook.authorization'),
      },
    },
    transports,
    companies: parsed.companies.map((c) => ({ ...c, root: c.transport === 'local' ? resolve(cwd, c.root) : c.root })),
  };
}

/**
 * Secrets that could not be read. Several at once (the example file copied as it is) are one
 * problem that says how secrets are given, not a dozen that each look like a separate mistake.
 */
function groupedSecrets(unset: readonly ConfigProblem[]): ConfigProblem[] {
  if (unset.length < 2) return [...unset];
  const list = unset.map((u) => `\n      ${u.path}: ${u.message}`).join('');
  return [
    {
      path: 'secrets',
      message:
        `${unset.length} secrets are not provided:${list}\n` +
        '    Give each where its reference in the file points: { env: NAME } → set NAME in the environment ' +
        "of settle's service (an EnvironmentFile readable by settle only); { file: PATH } → write the secret to " +
        'PATH (mode 0600); { credential: NAME } → put it in /etc/settle/credentials/NAME and run settle under ' +
        "the sample systemd units (LoadCredential). Or remove the settings you do not use (docs/configuration.md, 'Secrets').",
    },
  ];
}

function crossCheck(config: Omit<Config, 'source'>, problems: ConfigProblem[], unset: ReadonlySet<string>): void {
  const seen = new Set<string>();
  config.companies.forEach((company, i) => {
    if (seen.has(company.id))
      problems.push({ path: `companies.${i}.id`, message: `company id "${company.id}" is used twice` });
    seen.add(company.id);
    if (company.transport !== 'local' && !config.transports[company.transport]) {
      problems.push({
        path: `companies.${i}.transport`,
        message: `no transport named "${company.transport}" (use "local" or a key of transports)`,
      });
    }
  });
  checkOrganisationNumbers(config, problems);
  checkConsole(config, problems);
  checkPeople(config, problems);
  for (const [name, t] of Object.entries(config.transports)) {
    // A password or key that is referenced but unset is reported with the other secrets.
    const referenced = unset.has(`transports.${name}.password`) || unset.has(`transports.${name}.privateKey`);
    if (!t.password && !t.privateKey && !referenced)
      problems.push({ path: `transports.${name}`, message: 'needs password or privateKey' });
    if (!t.hostKeySha256 && !t.allowUnpinnedHostKey) {
      problems.push({
        path: `transports.${name}.hostKeySha256`,
        message: `the SFTP host key must be pinned; get it with \`settle sftp fingerprint ${t.host}:${t.port}\``,
      });
    }
  }
}

/**
 * One organisation number is one resource group at the bank: its consents and accounts. Two
 * companies with one number would fetch and pay from the same accounts, so that is refused unless
 * every company with the number says it shares it on purpose (`sharesOrganisationNumber`).
 */
function checkOrganisationNumbers(config: Omit<Config, 'source'>, problems: ConfigProblem[]): void {
  const byNumber = new Map<string, number[]>();
  config.companies.forEach((c, i) => addTo(byNumber, c.organisationNumber, i));
  for (const [number, indexes] of byNumber) {
    if (indexes.length < 2) continue;
    const ids = indexes.map((i) => config.companies[i]!.id);
    for (const i of indexes) {
      const company = config.companies[i]!;
      if (company.sharesOrganisationNumber) continue;
      const others = ids.filter((id) => id !== company.id).join(', ');
      problems.push({
        path: `companies.${i}.organisationNumber`,
        message: `organisation number "${number}" is also the number of ${others}; one company per organisation number, unless they are one legal entity on purpose: then set sharesOrganisationNumber: true on each of them`,
      });
    }
  }
}

/** An enabled console needs a signing key and a way to sign in; a stored hash must be argon2id. */
function checkConsole(config: Omit<Config, 'source'>, problems: ConfigProblem[]): void {
  const c = config.console;
  if (!c.enabled) return;
  const key = c.sessionKey?.reveal();
  if (!c.sessionKey)
    problems.push({
      path: 'console.sessionKey',
      message: 'the console is enabled: give a key that signs its sessions',
    });
  else if (key !== undefined && key.length < 32)
    problems.push({ path: 'console.sessionKey', message: 'at least 32 characters (e.g. `openssl rand -hex 32`)' });
  if (!c.oidc && c.localUsers.length === 0)
    problems.push({ path: 'console', message: 'the console is enabled: configure oidc or at least one of localUsers' });
  for (const clash of personClashes(personDirectory(config)))
    problems.push({ path: `console.localUsers.${clash.index}.email`, message: clash.message });
  c.localUsers.forEach((u, i) => {
    const hash = u.passwordHash?.reveal();
    if (hash !== undefined && !hash.startsWith('$argon2id$'))
      problems.push({
        path: `console.localUsers.${i}.passwordHash`,
        message: 'not an argon2id hash (it starts with $argon2id$); hash the password with argon2id',
      });
  });
}

/** Who is who, for four eyes: the console's local users and every company's people. */
export function personDirectory(config: Pick<Config, 'console' | 'companies' | 'people'>): PersonDirectory {
  return {
    localUsers: config.console.localUsers,
    people: [...config.people, ...config.companies.flatMap((co) => co.people)],
  };
}

/** One address is one person in every company: its people entries may not name two person ids. */
function checkPeople(config: Omit<Config, 'source'>, problems: ConfigProblem[]): void {
  const named = new Map<string, string>();
  config.companies.forEach((company, i) =>
    company.people.forEach((p, j) => {
      const email = normaliseIdentity(p.email);
      const before = named.get(email);
      if (p.person && before !== undefined && before !== p.person)
        problems.push({
          path: `companies.${i}.people.${j}.person`,
          message: `${email} is person "${before}" elsewhere; one address is one person`,
        });
      if (p.person && before === undefined) named.set(email, p.person);
    }),
  );
}

/** A database URL's password is a secret: register it so it never reaches a log line. */
function maskUrlPassword(url: string): void {
  try {
    const password = new URL(url).password;
    if (password) registerSecret(decodeURIComponent(password));
  } catch {
    // not a URL (e.g. sqlite:path): nothing to mask
  }
}

/** Problems listed in one error: the first ones locate a garbled file; all of them could outgrow a string. */
const MAX_PROBLEMS_LISTED = 100;

function configError(problems: ConfigProblem[], file: string | undefined): SettleError {
  const where = file ?? 'embedded defaults and environment';
  const shown = problems.slice(0, MAX_PROBLEMS_LISTED);
  const more = problems.length - shown.length;
  const list =
    shown.map((p) => `  ${p.path}${whereIs(p)}: ${p.message}`).join('\n') + (more > 0 ? `\n  … and ${more} more` : '');
  return new SettleError('ERR_CONFIG_INVALID', `configuration (${where}) has ${problems.length} problem(s):\n${list}`, {
    details: { problems: shown, ...(more > 0 ? { notListed: more } : {}) },
  });
}

/** " (settle.d/acme.yaml line 12)" after the key path of a problem in an included file. */
function whereIs(problem: ConfigProblem): string {
  if (!problem.file) return '';
  return problem.path.startsWith('(line') || problem.line === undefined
    ? ` (${problem.file})`
    : ` (${problem.file} line ${problem.line})`;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Secret) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
