// Durations in configuration are written the way operators say them: "30s", "5m", "24h", "7d",
// "250ms", or combined ("1h30m"). Plain numbers are milliseconds.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+)(ms|s|m|h|d)/g;

export function parseDuration(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isInteger(text) && text >= 0 ? text : undefined;
  const s = text.trim();
  if (/^\d+$/.test(s)) return Number(s);
  if (!/^(\d+(ms|s|m|h|d))+$/.test(s)) return undefined;
  let total = 0;
  for (const [, n, unit] of s.matchAll(PART)) total += Number(n) * (UNIT_MS[unit ?? 'ms'] ?? 1);
  return total;
}

/** The configuration keys that hold durations (`settle config show` prints them as written). */
export const DURATION_KEYS: ReadonlySet<string> = new Set([
  'stableFor',
  'duplicateWindow',
  'overlap',
  'timeout',
  'jobLease',
  'claimTtl',
  'warnBefore',
  'linkWarnBefore',
  'lookBack',
  'idempotencyRetention',
  'operational',
  'sessionTtl',
  'failureWindow',
]);

/** Milliseconds back to the way operators write them: 259200000 → "3d", 5400000 → "1h30m", 250 → "250ms". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let text = '';
  for (const [unit, size] of Object.entries(UNIT_MS).sort(([, a], [, b]) => b - a)) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      text += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return text;
}
