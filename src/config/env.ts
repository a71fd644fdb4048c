// Environment overrides: each SETTLE_* variable below sets one configuration key, so scripts
// and systemd units can run settle without a configuration file. A secret variable can also be
// given as NAME_FILE (a path), which is how systemd credentials and Docker secrets arrive.
import { secretRefSchema } from './secret-ref.js';

export interface EnvOverride {
  variable: string;
  path: readonly string[];
  secret?: boolean;
  type?: 'string' | 'number';
}

export const ENV_OVERRIDES: readonly EnvOverride[] = [
  { variable: 'SETTLE_TIME_ZONE', path: ['timeZone'] },
  { variable: 'SETTLE_DATA_DIR', path: ['dataDir'] },
  { variable: 'SETTLE_LOG_LEVEL', path: ['log', 'level'] },
  { variable: 'SETTLE_LOG_FORMAT', path: ['log', 'format'] },
  { variable: 'SETTLE_DATABASE_URL', path: ['database', 'url'] },
  { variable: 'SETTLE_DATABASE_PASSWORD', path: ['database', 'password'], secret: true },
  { variable: 'SETTLE_BANK_URL', path: ['bank', 'baseUrl'] },
  { variable: 'SETTLE_AUTH_URL', path: ['bank', 'authUrl'] },
  { variable: 'SETTLE_TENANT_ID', path: ['bank', 'tenantId'] },
  { variable: 'SETTLE_CLIENT_ID', path: ['bank', 'clientId'] },
  { variable: 'SETTLE_CLIENT_SECRET', path: ['bank', 'clientSecret'], secret: true },
  { variable: 'SETTLE_SUBSCRIPTION_ID', path: ['bank', 'subscriptionId'] },
  { variable: 'SETTLE_CHANNEL_TYPE', path: ['bank', 'channelType'] },
  { variable: 'SETTLE_API_VERSION', path: ['bank', 'apiVersion'] },
  { variable: 'SETTLE_REDIRECT_URI', path: ['bank', 'redirectUri'] },
  { variable: 'SETTLE_WEBHOOK_AUTHORIZATION', path: ['server', 'webhookAuthorization'], secret: true },
  { variable: 'SETTLE_SMTP_PASSWORD', path: ['alerts', 'email', 'password'], secret: true },
];

/** Applies the overrides present in `env` to a raw (pre-validation) configuration object. */
export function applyEnvOverrides(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  const applied: string[] = [];
  for (const o of ENV_OVERRIDES) {
    const direct = env[o.variable];
    const file = o.secret ? env[`${o.variable}_FILE`] : undefined;
    let value: unknown;
    if (o.secret && file) value = { file };
    else if (o.secret && direct) value = { env: o.variable };
    else if (direct !== undefined && direct !== '') value = direct;
    else continue;
    // A secret written in plain text in the file stays there for the schema to refuse with its key
    // path: a variable that silently replaced it would leave the secret in git and report "OK".
    if (o.secret && isPlaintext(getPath(raw, o.path))) continue;
    setPath(raw, o.path, value);
    applied.push(o.secret && file ? `${o.variable}_FILE` : o.variable);
  }
  return applied;
}

function isPlaintext(value: unknown): boolean {
  return value !== undefined && value !== null && !secretRefSchema.safeParse(value).success;
}

function getPath(target: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = target;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] ?? ''] = value;
}
