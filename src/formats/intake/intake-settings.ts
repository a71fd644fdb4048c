// The validation a company's intake applies, built in one place for the pickup job and for
// `settle validate`, so that what validate reports is what pickup stores and sends (the same
// calendar, holiday policy, character set and maximum amount). The defaults are the
// configuration schema's for a company that sets nothing (a test holds the two together).
import { businessCalendar } from '../../domain/business-calendar.js';
import type { LocalDate } from '../../domain/local-date.js';
import { charsetRule } from '../../domain/validation/charset.js';
import type { NonBusinessDayPolicy } from '../../domain/validation/line-rules.js';
import type { ValidationOptions } from '../../domain/validation/payment-validator.js';

/** companies[].intake of the configuration, as far as validation reads it. */
export interface IntakeSettings {
  holidayPolicy: NonBusinessDayPolicy;
  /** The bank holiday calendar's country. */
  calendar: string;
  /** The characters allowed in pain.001 names and texts (a CSV profile's own charset wins for CSV). */
  charset: 'sepa' | 'sepa-nordic' | 'any';
  maxAmount?: string | undefined;
}

export const DEFAULT_INTAKE: IntakeSettings = { holidayPolicy: 'move', calendar: 'NO', charset: 'sepa-nordic' };

const NORDIC_LETTERS = 'æøåÆØÅ';

/** The validation options of intake as on `asOf`, with what pickup knows of the debtor accounts. */
export function intakeValidation(
  settings: IntakeSettings,
  asOf: LocalDate,
  accounts: Pick<ValidationOptions, 'debtorAccountProblem' | 'onboardedDebtorAccounts'> = {},
): ValidationOptions {
  const charset =
    settings.charset === 'any'
      ? charsetRule('', 'any')
      : charsetRule(settings.charset === 'sepa-nordic' ? NORDIC_LETTERS : '');
  return {
    asOf,
    calendar: businessCalendar(settings.calendar),
    nonBusinessDayPolicy: settings.holidayPolicy,
    charset,
    ...(settings.maxAmount ? { maxAmount: { '*': settings.maxAmount } } : {}),
    ...accounts,
  };
}
