// ISODateTime values in the documents: UTC instants, without milliseconds when they are zero
// ("2026-01-06T02:00:00Z"), which every importer we know reads.
export function formatDateTime(instant: Date): string {
  const iso = instant.toISOString();
  return iso.endsWith('.000Z') ? iso.slice(0, -5) + 'Z' : iso;
}
