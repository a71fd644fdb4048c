// The approval notice marks the lines a person released from a hold of the payment controls:
// the approver signs at the bank knowing which rule held a line and who let it go.
import { describe, expect, it } from 'vitest';
import { approvalNoticeText, type NoticePayment } from '../../../jobs/approve/approval-notice.js';
import type { LocalDate } from '../../../src/domain/local-date.js';
import type { Locale } from '../../../src/i18n/index.js';

const payment = (endToEndId: string, extra: Partial<NoticePayment> = {}): NoticePayment => ({
  debtorIban: 'NO7215031234562',
  creditorName: 'Oslo Trykkeri AS',
  creditorIban: 'NO8330001234567',
  minor: 420000n,
  currency: 'NOK',
  executionDate: '2026-01-09' as LocalDate,
  endToEndId,
  payroll: false,
  ...extra,
});

describe('the approval notice', () => {
  const notice = (payments: NoticePayment[], payrollVisible = true, locale: Locale = 'en') =>
    approvalNoticeText(
      {
        companyName: 'ACME AS',
        basketId: 'basket-1',
        expiresAt: new Date('2026-01-12T08:00:00Z'),
        timeZone: 'Europe/Oslo',
        payments,
      },
      { payrollVisible },
      locale,
    );

  it('names each line released from a hold, the rules that held it and who released it', () => {
    const text = notice([
      payment('B-1', { releasedFromHold: { rules: ['changed-account'], releasedBy: ['local:kari', 'local:ola'] } }),
      payment('B-2'),
    ]);
    expect(text).toContain(
      'Held by settle’s payment controls and released by a person (docs/controls.md):\n  B-1 (Oslo Trykkeri AS, NO83…4567): held by changed-account, released by local:kari and local:ola',
    );
    expect(text).not.toMatch(/B-2 \(/);
  });

  it('says nothing of holds when no line was held, and nothing of a payroll line the reader may not see', () => {
    expect(notice([payment('B-2')])).not.toContain('payment controls');
    const payroll = payment('SAL-1', {
      payroll: true,
      releasedFromHold: { rules: ['limit-line'], releasedBy: ['a', 'b'] },
    });
    expect(notice([payroll], false)).not.toContain('SAL-1');
  });

  it('names them in bokmål for a company in Norwegian, the people joined as the language joins them', () => {
    const text = notice(
      [payment('B-1', { releasedFromHold: { rules: ['changed-account'], releasedBy: ['local:kari', 'local:ola'] } })],
      true,
      'nb',
    );
    expect(text).toContain(
      'Holdt tilbake av settles betalingskontroller og frigitt av en person (docs/controls.md):\n  B-1 (Oslo Trykkeri AS, NO83…4567): holdt tilbake av Endret kreditorkonto (changed-account), frigitt av local:kari og local:ola',
    );
    const payroll = payment('SAL-1', { payroll: true });
    expect(notice([payroll], false, 'nb')).toContain(
      '1 lønnsbetaling er med i summene over; den vises bare for personer med lønnsrollen.',
    );
  });
});
