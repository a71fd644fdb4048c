// The requested execution date of a line: a calendar date in the format's layout, not before the
// day validation is as of, and a business day of the bank's calendar, or else flagged, moved or
// refused by the policy. Dates repeat from line to line, so each text is read and each day
// judged once (bounded caches).
import type { BusinessCalendar } from '../business-calendar.js';
import { addDays, isWeekend, parseDate, type LocalDate } from '../local-date.js';
import { BoundedCache } from './bounded-cache.js';
import { IssueCode } from './codes.js';
import { add, type Ctx } from './line-context.js';

export type NonBusinessDayPolicy = 'flag' | 'move' | 'reject';

export interface ExecutionDateOptions {
  asOf: LocalDate;
  calendar?: BusinessCalendar;
  nonBusinessDayPolicy?: NonBusinessDayPolicy;
}

export class ExecutionDateRule {
  private readonly policy: NonBusinessDayPolicy;
  private readonly dateCache = new BoundedCache<string, LocalDate | null>();
  private readonly businessCache = new BoundedCache<LocalDate, boolean>();

  constructor(
    private readonly options: ExecutionDateOptions,
    private readonly dateFormat: string,
  ) {
    this.policy = options.nonBusinessDayPolicy ?? 'flag';
  }

  /** The date the payment is to be executed on; undefined (and an error) when there is none. */
  check(ctx: Ctx, dateText: string | undefined): LocalDate | undefined {
    if (dateText === undefined) return undefined;
    let parsed = this.dateCache.get(dateText);
    if (parsed === undefined) this.dateCache.set(dateText, (parsed = parseDate(dateText, this.dateFormat) ?? null));
    if (parsed === null) {
      add(
        ctx,
        IssueCode.EXECUTION_DATE_INVALID,
        'error',
        'requestedExecutionDate',
        `"${dateText}" is not a calendar date in the format ${this.dateFormat}`,
      );
      return undefined;
    }
    if (parsed < this.options.asOf) {
      add(
        ctx,
        IssueCode.EXECUTION_DATE_PAST,
        'error',
        'requestedExecutionDate',
        `execution date ${parsed} is before ${this.options.asOf}`,
      );
      return undefined;
    }
    if (this.isBusiness(parsed)) return parsed;
    return this.notBusiness(ctx, parsed);
  }

  private notBusiness(ctx: Ctx, parsed: LocalDate): LocalDate | undefined {
    const why = this.options.calendar?.holidayName(parsed) ?? 'a weekend day';
    if (this.policy === 'reject') {
      add(
        ctx,
        IssueCode.EXECUTION_DATE_NOT_BUSINESS_DAY,
        'error',
        'requestedExecutionDate',
        `execution date ${parsed} is not a business day (${why})`,
      );
      return undefined;
    }
    if (this.policy === 'flag') {
      add(
        ctx,
        IssueCode.EXECUTION_DATE_NOT_BUSINESS_DAY,
        'warning',
        'requestedExecutionDate',
        `execution date ${parsed} is not a business day (${why}); the bank may execute it later`,
      );
      return parsed;
    }
    let next = parsed;
    do next = addDays(next, 1);
    while (!this.isBusiness(next));
    add(
      ctx,
      IssueCode.EXECUTION_DATE_MOVED,
      'warning',
      'requestedExecutionDate',
      `execution date ${parsed} is not a business day (${why}); moved to ${next}`,
    );
    return next;
  }

  private isBusiness(d: LocalDate): boolean {
    let known = this.businessCache.get(d);
    if (known === undefined)
      this.businessCache.set(
        d,
        (known = this.options.calendar ? this.options.calendar.isBusinessDay(d) : !isWeekend(d)),
      );
    return known;
  }
}
