// The periods finance signs off: a month (`2026-01`) or a day (`2026-01-05`) of a company, in
// the company's calendar. A period's findings are those whose day (booking, else execution date,
// else the day of the run) falls inside it.
import { SettleError } from '../errors.js';
import { addDays, isLocalDate, type LocalDate } from '../local-date.js';

export interface SignoffPeriod {
  /** As written: `YYYY-MM` or `YYYY-MM-DD`. */
  period: string;
  from: LocalDate;
  to: LocalDate;
}

/** The period a person named, or ERR_PERIOD_INVALID. */
export function parseSignoffPeriod(text: string): SignoffPeriod {
  const period = text.trim();
  if (isLocalDate(period)) return { period, from: period, to: period };
  const month = /^(\d{4})-(\d{2})$/.exec(period);
  const first = month ? `${period}-01` : '';
  if (month && isLocalDate(first)) {
    const [y, m] = [Number(month[1]), Number(month[2])];
    const next = (m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`) as LocalDate;
    return { period, from: first, to: addDays(next, -1) };
  }
  throw new SettleError(
    'ERR_PERIOD_INVALID',
    `"${text}" is not a period: give a month (2026-01) or a day (2026-01-05)`,
    { values: { text } },
  );
}

/** The day a finding is about, for its period: booking date, else execution date, else the run's day. */
export function findingDay(
  f: { bookingDate?: LocalDate | undefined; executionDate?: LocalDate | undefined },
  runDay: LocalDate,
): LocalDate {
  return f.bookingDate ?? f.executionDate ?? runDay;
}
