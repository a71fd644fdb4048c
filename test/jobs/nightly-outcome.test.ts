// Step outcomes are numbers and lists: merged over companies by adding, "needs a person" decided
// by one rule, and rendered in a person's language (English unchanged from the sentences scripts
// and people read before; bokmål with its own plurals).
import { describe, expect, it } from 'vitest';
import {
  addOutcomes,
  describeOutcome,
  needsPerson,
  type FetchStepOutcome,
  type PickupStepOutcome,
  type SubmitStepOutcome,
} from '../../jobs/nightly/outcome.js';
import { describeStep, mergeSteps } from '../../jobs/nightly/step-merge.js';
import type { StepResult } from '../../jobs/nightly/step-result.js';

const pickup = (over: Partial<PickupStepOutcome> = {}): PickupStepOutcome => ({
  step: 'pickup',
  files: 2,
  accepted: 1,
  partlyAccepted: 0,
  rejected: 1,
  duplicate: 0,
  otherForPerson: 0,
  held: 0,
  heldLines: [],
  waiting: [],
  refused: [],
  ...over,
});

const fetch = (bank: string, accounts: number): FetchStepOutcome => ({
  step: 'fetch',
  accounts,
  fetchedPerBank: [{ bank, accounts }],
  notFetched: 0,
  notYetEnabled: 0,
  forPerson: 0,
});

describe('step outcomes', () => {
  it('read in English as the run summaries always did', () => {
    expect(describeOutcome(pickup(), 'en')).toBe('2 file(s): 1 accepted, 0 partly accepted, 1 rejected, 0 duplicate');
    const held = pickup({
      held: 7,
      heldLines: Array.from({ length: 7 }, (_, i) => ({
        file: 'run-1.csv',
        lineNumber: 1000 + i,
        endToEndId: `A-${i}`,
        rules: ['new-account', 'limit'],
      })),
      waiting: [{ file: 'late.csv', waitingFor: 'its size to settle' }, { file: 'b.csv' }],
    });
    expect(describeOutcome(held, 'en')).toBe(
      '2 file(s): 1 accepted, 0 partly accepted, 1 rejected, 0 duplicate; 7 payment(s) held for a person (settle payments held): ' +
        'run-1.csv line 1000 A-0 (new-account, limit), run-1.csv line 1001 A-1 (new-account, limit), run-1.csv line 1002 A-2 (new-account, limit), ' +
        'run-1.csv line 1003 A-3 (new-account, limit), run-1.csv line 1004 A-4 (new-account, limit), and 2 more' +
        '; 2 waiting: late.csv for its size to settle; b.csv for the next run',
    );
    const submit: SubmitStepOutcome = {
      step: 'submit',
      planned: 3,
      sent: 2,
      rejected: 0,
      retry: 0,
      forPerson: 1,
      waitingBulks: 2,
      waitingUntil: '2026-01-08T06:00:00.000Z',
    };
    expect(describeOutcome(submit, 'en')).toBe(
      "3 bulk(s) planned; 2 sent, 0 rejected, 0 to retry, 1 need a person; 2 wait on another holder's claim until 2026-01-08T06:00:00.000Z",
    );
    expect(describeOutcome({ ...fetch('nordbank', 2), notFetched: 1, notYetEnabled: 1, accounts: 3 }, 'en')).toBe(
      '3 account(s): 2 fetched (nordbank 2), 1 not (1 not enabled at the bank yet)',
    );
  });

  it('read in bokmål with its plurals', () => {
    expect(describeOutcome(pickup({ files: 1, rejected: 0 }), 'nb')).toBe(
      '1 fil: 1 godtatt, 0 delvis godtatt, 0 avvist, 0 duplikater',
    );
    expect(describeOutcome({ step: 'consents', read: 1 }, 'nb')).toBe('1 samtykke lest fra banken');
  });

  it('need a person by one rule', () => {
    expect(needsPerson(pickup())).toBe(true); // a rejected file
    expect(needsPerson(pickup({ rejected: 0 }))).toBe(false);
    expect(needsPerson(pickup({ rejected: 0, waiting: [{ file: 'x.csv' }] }))).toBe(false);
    expect(needsPerson(pickup({ rejected: 0, held: 1 }))).toBe(true);
    expect(needsPerson({ step: 'approve', baskets: 1, newLinks: 1, problems: 0 })).toBe(true);
    expect(needsPerson({ step: 'approve', baskets: 1, newLinks: 0, problems: 0 })).toBe(false);
    expect(needsPerson({ step: 'status-report', files: 1, refusedLines: 0 })).toBe(false);
    expect(needsPerson({ step: 'status-report', files: 1, refusedLines: 2 })).toBe(true);
  });

  it('merge over companies by adding numbers and joining lists, per bank once', () => {
    const merged = addOutcomes(fetch('nordbank', 2), addOutcomes(fetch('sydbank', 1), fetch('nordbank', 3)));
    expect(merged.accounts).toBe(6);
    expect(merged.fetchedPerBank).toEqual([
      { bank: 'nordbank', accounts: 5 },
      { bank: 'sydbank', accounts: 1 },
    ]);
    const step = (company: string, o: PickupStepOutcome): StepResult => ({
      step: 'pickup',
      company,
      ok: true,
      outcome: o,
      summary: describeOutcome(o, 'en'),
      needsPerson: needsPerson(o),
      files: [],
    });
    const failed: StepResult = {
      step: 'pickup',
      company: 'c',
      ok: false,
      summary: 'failed: ERR_INTERNAL: boom',
      needsPerson: true,
      files: [],
      error: { code: 'ERR_INTERNAL', message: 'boom' },
    };
    const claimed: StepResult = {
      step: 'pickup',
      company: 'd',
      ok: true,
      summary: '',
      needsPerson: false,
      files: [],
      claimedElsewhere: true,
    };
    const [one] = mergeSteps([
      [step('a', pickup())],
      [step('b', pickup({ files: 10, accepted: 10, rejected: 0 }))],
      [failed],
      [claimed],
    ]);
    expect(one!.summary).toBe(
      '12 file(s): 11 accepted, 0 partly accepted, 1 rejected, 0 duplicate; c: failed: ERR_INTERNAL: boom; 1 company claimed by another run',
    );
    expect(one!.ok).toBe(false);
    expect(describeStep(one!, 'nb')).toBe(
      '12 filer: 11 godtatt, 0 delvis godtatt, 1 avvist, 0 duplikater; c: feilet: ERR_INTERNAL: boom; 1 selskap reservert av en annen kjøring',
    );
  });
});
