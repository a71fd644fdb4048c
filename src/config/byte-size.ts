// Sizes in configuration are written the way operators say them: "512MB", "1GiB", "64KiB",
// "2GB". KB/MB/GB count in 1000s and KiB/MiB/GiB in 1024s; a plain number is bytes.
const UNIT: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

export function parseByteSize(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isInteger(text) && text > 0 ? text : undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const factor = m ? UNIT[(m[2] || 'b').toLowerCase()] : undefined;
  if (!m || factor === undefined) return undefined;
  const bytes = Math.round(Number(m[1]) * factor);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}
