import { describe, expect, it } from 'vitest';
import { onboardingOf } from '../../src/domain/onboarding.js';

const company = { id: 'newco', organisationNumber: '888888888', bankIds: ['testbank', 'nordbank'] };

describe('onboarding', () => {
  it('a company with a usable consent and an enabled account is onboarded, with nothing to fix', () => {
    expect(onboardingOf(company, { liveConsents: 1, enabledAccount: true })).toMatchObject({
      onboarded: true,
      missing: [],
      fix: [],
    });
  });

  it('without a consent: a consent per configured bank, then a night to read what the bank now has', () => {
    const o = onboardingOf(company, { liveConsents: 0, enabledAccount: false });
    expect(o.onboarded).toBe(false);
    expect(o.missing).toEqual(['consent', 'enabled-account']);
    expect(o.fix).toEqual([
      'settle consents create --bank testbank --org 888888888',
      'settle consents create --bank nordbank --org 888888888',
      'settle run nightly --company newco',
    ]);
  });

  it('without a configured bank, the banks are listed first', () => {
    const o = onboardingOf({ ...company, bankIds: [] }, { liveConsents: 0, enabledAccount: true });
    expect(o.missing).toEqual(['consent']);
    expect(o.fix[0]).toBe('settle banks list');
  });

  it('with a consent but no enabled account: the accounts and their status', () => {
    const o = onboardingOf(company, { liveConsents: 1, enabledAccount: false });
    expect(o.missing).toEqual(['enabled-account']);
    expect(o.why).toMatch(/no enabled account/);
    expect(o.fix).toEqual(['settle accounts list --org 888888888', 'settle run nightly --company newco']);
  });
});
