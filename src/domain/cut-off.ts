// A bank's daily cut-off: until that local time a payment may still be executed the same day;
// after it, the earliest execution date is the bank's next business day. One rule for settle's
// submit (roll or refuse a bulk dated today) and for the sandbox bank (which refuses it).
import { businessCalendar } from './business-calendar.js';
import { addDays, dateInZone, type LocalDate } from './local-date.js';
import { zonedParts } from './zoned-time.js';

export interface CutOff {
  /** Local time "HH:MM" in the bank's zone; "00:00" means no same-day execution at all. */
  time: string;
  timeZone: string;
  /** ISO country of the bank's business calendar. */
  calendar: string;
}

export type CutOffVerdict =
  | { passed: false }
  | {
      passed: true;
      /** The bank's today, the date that can no longer be executed. */
      today: LocalDate;
      /** The bank's next business day after today. */
      nextBusinessDay: LocalDate;
    };

/** Whether an execution date of the bank's today can no longer be executed at `now`. Other dates are not the cut-off's business. */
export function cutOffVerdict(cutOff: CutOff, executionDate: LocalDate, now: Date): CutOffVerdict {
  const today = dateInZone(now, cutOff.timeZone);
  if (executionDate !== today) return { passed: false };
  const { hour, minute } = zonedParts(now, cutOff.timeZone);
  const [h, m] = cutOff.time.split(':').map(Number) as [number, number];
  if (hour * 60 + minute < h * 60 + m) return { passed: false };
  return { passed: true, today, nextBusinessDay: businessCalendar(cutOff.calendar).nextBusinessDay(addDays(today, 1)) };
}
