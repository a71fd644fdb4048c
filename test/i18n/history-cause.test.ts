// Every cause settle records with a move (src/domain/transition-cause.ts) and every reason it gives
// in the audit trail (src/domain/audit-reason.ts): the English catalogue renders each recorded
// sentence exactly as the English stored beside it, so English readers see byte for byte what
// they saw; bokmål renders each as its own sentence, with an instant in the company's zone.
import { describe, expect, it } from 'vitest';
import { auditReason } from '../../src/domain/audit-reason.js';
import type { RecordedText } from '../../src/domain/recorded-text.js';
import { cause, causeOf, type Cause } from '../../src/domain/transition-cause.js';
import { recordedSentence, renderRecorded } from '../../src/i18n/index.js';

const AT = new Date('2026-01-07T05:30:00.000Z');
const cancelled = cause.cancelled('local:oskar', 'local:olga', 'wrong creditor');

/** One example of each cause the jobs record, by constructor name: every constructor is here. */
const CAUSES: Record<keyof typeof cause, Cause> = {
  pickup: cause.pickup('acme-payments.csv'),
  submit: cause.submit(),
  submitRun: cause.submitRun('run-7'),
  submitRunReleased: cause.submitRunReleased('run-7'),
  submitRunFoundAtBank: cause.submitRunFoundAtBank('run-7'),
  bulksPlanned: cause.bulksPlanned(3),
  send: cause.send(),
  bankAccepted: cause.bankAccepted(),
  bankAcceptedReplay: cause.bankAcceptedReplay(),
  foundBeforeSending: cause.foundBeforeSending(),
  bankRejected: cause.bankRejected(),
  bankRefused: cause.bankRefused(400, 'Format error'),
  noAnswer: cause.noAnswer(),
  retryableAnswer: cause.retryableAnswer(),
  retentionPassed: cause.retentionPassed(),
  noAnswerWithinRetention: cause.noAnswerWithinRetention(),
  outcomeOpen: cause.outcomeOpen(502),
  cutOffPassed: cause.cutOffPassed('14:00'),
  foundByEndToEndId: cause.foundByEndToEndId(),
  notFoundAfter: cause.notFoundAfter(5),
  resolvedByPerson: cause.resolvedByPerson('the bank confirmed it by phone'),
  statusReport: cause.statusReport('poll', 'ACSC', AT),
  bankStatus: cause.bankStatus(cause.statusReport('event', 'ACSP', AT)),
  everyLineFinal: cause.everyLineFinal(),
  everyBulkFinal: cause.everyBulkFinal(),
  lastBulkCancelled: cause.lastBulkCancelled(),
  holdDecided: cause.holdDecided('released', 'local:olga', 'checked with the creditor'),
  cancelled,
  bankConfirmedCancel: cause.bankConfirmedCancel(cancelled),
  requeued: cause.requeued('B-1', cause.cancelled('local:oskar', undefined, 'duplicate')),
  approve: cause.approve(),
  approveRun: cause.approveRun('run-8'),
  basketCreated: cause.basketCreated(),
  basketCreatedReplay: cause.basketCreatedReplay(),
  linkIssued: cause.linkIssued(),
  linkReissued: cause.linkReissued(),
  authorised: cause.authorised(),
  basketAuthorised: cause.basketAuthorised(),
  eventAuthorised: cause.eventAuthorised('ev-1'),
  basketFailed: cause.basketFailed(),
  linkExpired: cause.linkExpired(),
  linkUsedIncomplete: cause.linkUsedIncomplete(),
  linkUsedMoreNeeded: cause.linkUsedMoreNeeded(),
};

/** The English each cause was written as before it was recorded text (the jobs' old template strings). */
const WRITTEN_BEFORE: Partial<Record<keyof typeof cause, string>> = {
  pickup: 'pickup acme-payments.csv',
  bulksPlanned: '3 bulk(s) planned',
  bankRefused: 'bank refused: 400 Format error',
  statusReport: 'poll ACSC at 2026-01-07T05:30:00.000Z',
  bankStatus: 'bank status: event ACSP at 2026-01-07T05:30:00.000Z',
  holdDecided: 'released by local:olga: checked with the creditor',
  cancelled: 'cancelled by local:oskar, confirmed by local:olga: wrong creditor',
  bankConfirmedCancel: 'bank confirmed CANC; cancelled by local:oskar, confirmed by local:olga: wrong creditor',
  requeued: 'queued again after its bulk B-1 was cancelled (cancelled by local:oskar: duplicate)',
  notFoundAfter: 'not found at the bank 5 days after its execution date; a person decides whether to pay again',
};

const reading = { timeZone: 'Europe/Oslo' };

describe('a cause in a payment’s history', () => {
  for (const [name, c] of Object.entries(CAUSES)) {
    it(`${name}: English renders as stored, bokmål as its own sentence`, () => {
      expect(c.said, name).toBeDefined();
      expect(renderRecorded('en', c.said!, reading)).toBe(c.english);
      const expected = WRITTEN_BEFORE[name as keyof typeof cause];
      if (expected !== undefined) expect(c.english).toBe(expected);
      const nb = renderRecorded('nb', c.said!, reading);
      expect(nb).toBeDefined();
      expect(nb).not.toBe(c.english);
      expect(recordedSentence('en', c.english, c.said)).toBe(c.english);
    });
  }

  it('writes an instant in the company’s zone in bokmål, and names the status path in words', () => {
    expect(recordedSentence('nb', CAUSES.statusReport.english, CAUSES.statusReport.said, reading)).toBe(
      'avspørring ACSC 07.01.2026, 06:30',
    );
    expect(recordedSentence('nb', CAUSES.requeued.english, CAUSES.requeued.said, reading)).toBe(
      'lagt i kø på nytt etter at bunten B-1 ble kansellert (kansellert av local:oskar: duplicate)',
    );
  });

  it('keeps words given as a plain string in English, and a wrapper of them too', () => {
    expect(causeOf('status poll')).toEqual({ english: 'status poll' });
    expect(cause.bankStatus('status poll')).toEqual({ english: 'bank status: status poll' });
    expect(cause.bankRefused(undefined, undefined)).toEqual({ english: 'bank refused:' });
  });

  it('reads a key this catalogue does not know as its English', () => {
    const unknown: RecordedText = { key: 'historyCause.fromTheFuture' };
    expect(recordedSentence('nb', 'from the future', unknown)).toBe('from the future');
  });
});

describe('a reason settle gives in the audit trail', () => {
  const REASONS = {
    controlsFirstLoad: auditReason.controlsFirstLoad(),
    controlsChanged: auditReason.controlsChanged(),
    signInLockoutUser: auditReason.signInLockout('user'),
    signInLockoutAddress: auditReason.signInLockout('address'),
    refusedOnce: auditReason.refusedInMinute(1, '2026-01-05T08:00Z', 'operator'),
    refusedTwice: auditReason.refusedInMinute(2, '2026-01-05T08:00Z', 'finance | operator'),
  };
  const WRITTEN = {
    controlsFirstLoad: 'first load of the payment controls',
    controlsChanged: 'the payment controls changed since the last load',
    signInLockoutUser: 'too many failed sign-ins for this user name',
    signInLockoutAddress: 'too many failed sign-ins for this address',
    refusedOnce: 'refused 1 time in the minute from 2026-01-05T08:00Z: needs the role operator',
    refusedTwice: 'refused 2 times in the minute from 2026-01-05T08:00Z: needs the role finance | operator',
  };
  for (const [name, r] of Object.entries(REASONS)) {
    it(`${name}: English renders as stored, bokmål as its own sentence`, () => {
      expect(r.reason).toBe(WRITTEN[name as keyof typeof WRITTEN]);
      expect(renderRecorded('en', r.said)).toBe(r.reason);
      const nb = renderRecorded('nb', r.said);
      expect(nb).toBeDefined();
      expect(nb).not.toBe(r.reason);
    });
  }
  it('says the count as bokmål does', () => {
    expect(renderRecorded('nb', REASONS.refusedTwice.said)).toBe(
      'avvist 2 ganger i minuttet fra 2026-01-05T08:00Z: krever rollen finance | operator',
    );
  });
});
