// Instants as finance reads them: in the company's time zone, to the minute, with the zone's
// abbreviation ("2026-01-08 04:00 CET"), never as UTC ISO strings.
const formats = new Map<string, Intl.DateTimeFormat>();

export function timeInZone(instant: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    formats.set(timeZone, format);
  }
  const get = (type: string, parts: Intl.DateTimeFormatPart[]) => parts.find((p) => p.type === type)?.value ?? '';
  const parts = format.formatToParts(instant);
  return `${get('year', parts)}-${get('month', parts)}-${get('day', parts)} ${get('hour', parts)}:${get('minute', parts)} ${get('timeZoneName', parts)}`;
}
