// Secret redaction for everything settle writes: log lines, error messages, reports.
// Three nets, because any one alone misses cases:
//   1. known secret values (registered from config at start-up) are replaced wherever they occur;
//   2. values under secret-looking keys (password, clientSecret, token, authorization, …);
//   3. secret-shaped text (Bearer tokens, PEM private keys, `client_secret=` in form bodies).
const MASK = '[REDACTED]';
const SECRET_KEY = /pass(word|phrase)?|secret|token|authori[sz]ation|private_?key|api_?key|cookie|credential/i;
const PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /((?:client_secret|access_token|refresh_token|password)=)[^&\s"']+/gi,
];

const knownSecrets = new Set<string>();

/** Registers a secret value so that it is masked wherever it appears. Short values are ignored (they would mask ordinary text). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) knownSecrets.add(value);
}

/** Stops masking a value registered before (a replaced short-lived token), so the set stays small in a long-running process. */
export function forgetSecret(value: string | undefined): void {
  if (value) knownSecrets.delete(value);
}

export function redactText(text: string): string {
  let out = text;
  for (const secret of knownSecrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (_m: string, prefix?: string) => (prefix && /=$/.test(prefix) ? prefix + MASK : MASK));
  }
  return out;
}

/** A deep copy of a value with secrets masked; cycles and depth are bounded. */
export function redactValue(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8 || seen.has(value)) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1, seen));
  if (value instanceof Error) {
    return { name: value.name, message: redactText(value.message), code: (value as { code?: unknown }).code };
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      SECRET_KEY.test(key) && v !== undefined && v !== null && v !== '' ? MASK : redactValue(v, depth + 1, seen);
  }
  return out;
}
