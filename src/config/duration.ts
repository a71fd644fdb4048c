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
