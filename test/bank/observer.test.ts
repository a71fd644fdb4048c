// What /metrics counts about the bank comes from the client's observer: every error it gives
// up on, by code, and every token it fetches.
import { afterEach, describe, expect, it } from 'vitest';
import { isSettleError } from '../../src/domain/errors.js';
import { company, SEED, startHarness, type Harness } from './helpers.js';

describe('the bank client observer', () => {
  let harness: Harness | undefined;
  afterEach(async () => harness?.close());

  it('hears each token fetch and each final error with its stable code', async () => {
    const errors: string[] = [];
    let tokens = 0;
    harness = await startHarness({
      client: { observer: { error: (code) => errors.push(code), tokenFetched: () => tokens++ } },
    });
    await harness.client.getAccount(company, SEED.operatingAccountId);
    await harness.client.getAccount(company, SEED.operatingAccountId);
    expect(tokens).toBe(1);
    const refused = await harness.client.getAccount(company, 'no-such-account').catch((e: unknown) => e);
    expect(isSettleError(refused, 'ERR_BANK_NOT_FOUND')).toBe(true);
    expect(errors).toEqual(['ERR_BANK_NOT_FOUND']);
  });
});
