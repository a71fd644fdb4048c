// Shared set-up of the intake tests: fixtures, profiles and a validation as on Monday 2026-01-05.
import { fileURLToPath } from 'node:url';
import { businessCalendar } from '../../../src/domain/business-calendar.js';
import type { LocalDate } from '../../../src/domain/local-date.js';
import { charsetRule } from '../../../src/domain/validation/charset.js';
import type { ValidationOptions } from '../../../src/domain/validation/payment-validator.js';
import { loadProfile } from '../../../src/formats/csv-profile/load-profile.js';
import type { PaymentInstruction } from '../../../src/domain/payment.js';
import { validateFile, type IntakeOptions, type IntakeResult } from '../../../src/formats/intake/validate-file.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/intake/', import.meta.url));
export const PROFILES = fileURLToPath(new URL('../../../config/profiles/', import.meta.url));
export const AS_OF = '2026-01-05' as LocalDate;

export function validation(extra: Partial<ValidationOptions> = {}): ValidationOptions {
  return {
    asOf: AS_OF,
    calendar: businessCalendar('NO'),
    nonBusinessDayPolicy: 'flag',
    charset: charsetRule(),
    ...extra,
  };
}

export interface Checked extends IntakeResult {
  codes: string[];
  paymentsSeen: PaymentInstruction[];
}

/** Validates a fixture (path relative to test/fixtures/intake) with a profile for CSV. */
export async function check(
  relative: string,
  profileName = 'generic',
  extra: Partial<ValidationOptions> = {},
  more: Partial<IntakeOptions> = {},
): Promise<Checked> {
  const file = FIXTURES + relative;
  const profile = relative.endsWith('.xml') ? undefined : await loadProfile(profileName, [PROFILES]);
  const paymentsSeen: PaymentInstruction[] = [];
  const result = await validateFile(file, {
    ...(profile ? { profile } : {}),
    validation: validation(extra),
    onPayment: (p) => void paymentsSeen.push(p),
    ...more,
  });
  return { ...result, codes: result.issues.map((i) => i.code), paymentsSeen };
}
