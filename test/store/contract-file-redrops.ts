// Part of the repository contract (repository-contract.ts): a rejected file dropped again is
// validated anew and its record supersedes the rejected one, which stays in history; an accepted
// file is never superseded, so its bytes move money exactly once.
import { expect, it } from 'vitest';
import type { ContractContext } from './contract-approval-reporting.js';
import { payment, paymentFile, rejectsWithCode } from './fixtures.js';

export function fileRedropCases(ctx: () => ContractContext): void {
  it('stores a re-drop of a rejected file as a new record that supersedes the rejected one', async () => {
    const { store } = ctx();
    const file = paymentFile('redrop-rejected', { company: 'redrop-co' });
    const rejected = await store.files.recordRejectedFile(file, 'ERR_DEBTOR_ACCOUNT at row 2', {
      lineCount: 1,
      rejectedCount: 1,
    });
    const again = await store.files.recordRejectedFile(
      file,
      'ERR_DEBTOR_ACCOUNT at row 2',
      { lineCount: 1, rejectedCount: 1 },
      { supersedes: rejected },
    );
    expect(again).toMatchObject({ state: 'rejected', supersedes: rejected.id });
    const accepted = await store.files.recordAcceptedFile(file, [payment(1, { endToEndId: 'REDROP-1' })], 0, {
      supersedes: again,
    });
    expect(accepted).toMatchObject({ state: 'accepted', acceptedCount: 1, supersedes: again.id });

    expect(await store.files.findFileBySha256('redrop-co', file.sha256)).toMatchObject({ id: accepted.id });
    const history = await store.files.listFiles({ company: 'redrop-co' });
    expect(history.map((f) => [f.id, f.state, f.supersededBy])).toEqual([
      [rejected.id, 'rejected', again.id],
      [again.id, 'rejected', accepted.id],
      [accepted.id, 'accepted', undefined],
    ]);
    expect(await store.files.isEndToEndIdKnown('redrop-co', ['REDROP-1'])).toBe(true);
  });

  it('refuses to supersede an accepted file, or a rejected one already superseded, and stores nothing', async () => {
    const { store } = ctx();
    const file = paymentFile('redrop-accepted', { company: 'redrop-co' });
    const rejected = await store.files.recordRejectedFile(file, 'ERR_CSV_AMOUNT at row 2', {
      lineCount: 1,
      rejectedCount: 1,
    });
    const accepted = await store.files.recordAcceptedFile(file, [payment(1, { endToEndId: 'REDROP-A1' })], 0, {
      supersedes: rejected,
    });
    // A pickup that raced the one above still holds the rejected record: it may not supersede it twice.
    await rejectsWithCode(
      store.files.recordAcceptedFile(file, [payment(1, { endToEndId: 'REDROP-A2' })], 0, { supersedes: rejected }),
      'ERR_DB_FILE_DUPLICATE',
    );
    await rejectsWithCode(
      store.files.recordAcceptedFile(file, [payment(1, { endToEndId: 'REDROP-A3' })], 0, { supersedes: accepted }),
      'ERR_DB_FILE_DUPLICATE',
    );
    await rejectsWithCode(
      store.files.recordRejectedFile(file, 'x', { lineCount: 1, rejectedCount: 1 }, { supersedes: accepted }),
      'ERR_DB_FILE_DUPLICATE',
    );
    await rejectsWithCode(
      store.files.recordAcceptedFile(file, [payment(1, { endToEndId: 'REDROP-A4' })]),
      'ERR_DB_FILE_DUPLICATE',
    );
    expect(await store.files.isEndToEndIdKnown('redrop-co', ['REDROP-A2', 'REDROP-A3', 'REDROP-A4'])).toBe(false);
    const history = await store.files.listFiles({ company: 'redrop-co' });
    expect(history.filter((f) => f.fileName === file.fileName).map((f) => [f.state, f.supersededBy])).toEqual([
      ['rejected', accepted.id],
      ['accepted', undefined],
    ]);
  });
}
