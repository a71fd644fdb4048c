// A bureau's nightly reads must cost the same after years of nights as after a few: each read
// below is made once over a little history and once after ten times more, older history was
// added, and the rows MariaDB's storage engine read and wrote for it (its Handler_* counters,
// one connection) must not grow. Each read once went through every row the company or account
// ever had (the fetch's first unsettled day and watermark, the status report's changed files, reconciliation's
// decisions and present findings and its receivables, approval's bulks already in a basket, the alerts' broken
// days, submit's released holds, the final camt.029 answers owed, an event's line before settle
// has the bank's bulk id). SQLite has no such counter; there the same calls are checked for their answers, and
// the store's SQL and indexes are the same.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import type { PaymentInstruction } from '../../src/domain/payment.js';
import { createStore, openDatabase, type Database, type StatementDay, type Store } from '../../src/store/index.js';
import { onBothEngines } from '../support/engines.js';
import { captureQueries, expectIndexRead } from '../support/query-plan.js';
import { rowsTouched } from '../support/rows-touched.js';
import { oneLineBulk, pendingBulks, holdDuplicatesSince } from './fixtures.js';
import { decideHeldPayment } from '../../jobs/controls/index.js';
import { recordSent } from '../../jobs/submit/index.js';

const DAY_MS = 86_400_000;

await onBothEngines((engine, open) => {
  describe(`history-bounded nightly reads (${engine})`, () => {
    let db: Database;
    let store: Store;
    let cleanup: () => Promise<void>;
    const clock = new ManualClock('2031-06-02T08:00:00Z');

    beforeEach(async () => {
      const target = await open();
      cleanup = () => target.cleanup();
      // One connection: the session's counters are the calls' own.
      db = await openDatabase({ url: target.url, poolMax: 1 });
      await db.migrate();
      store = createStore(db, clock);
      clock.set('2031-06-02T08:00:00Z');
      const at = clock.now().toISOString();
      await db
        .knex('accounts')
        .insert(['acc', 'a1', 'a2', 'a3', 'a4'].map((id) => ({ id, company: 'acme', created_at: at, updated_at: at })));
    });
    afterEach(async () => {
      await db.close();
      await cleanup();
    });

    /**
     * Asserts `read` touched no more rows after the history grew than before, but for a row or
     * two a write's B-tree neighbours may add: the history added is ten times what was there.
     */
    async function flat(read: () => Promise<unknown>, grow: () => Promise<void>, label: string): Promise<void> {
      const small = await rowsTouched(db, engine, read);
      await grow();
      const large = await rowsTouched(db, engine, read);
      if (small === undefined || large === undefined) return;
      expect(large, `${label}: rows touched ${small} before the history grew, ${large} after`).toBeLessThanOrEqual(
        small + 2,
      );
    }

    const day = (accountId: string, d: LocalDate, continuity: StatementDay['continuity'] = 'ok'): StatementDay => ({
      accountId,
      day: d,
      currency: 'NOK',
      openingMinor: 100n,
      closingMinor: 100n,
      bookedSumMinor: 0n,
      entryCount: 0,
      continuity,
    });
    const daysFrom = (accountId: string, from: string, count: number): StatementDay[] =>
      Array.from({ length: count }, (_, i) =>
        day(accountId, new Date(Date.parse(`${from}T00:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10) as LocalDate),
      );

    it("the fetch's starts: a break or the day after the last, and the watermark, whatever lies before", async () => {
      const unsettled = async (id: string) => (await store.statements.fetchStarts([id])).get(id)?.firstUnsettled;
      await store.statementDays.recordMany([
        ...daysFrom('acc', '2031-05-01', 30),
        day('acc', '2031-05-10' as LocalDate, 'gap'),
      ]);
      await db.knex('accounts').where({ id: 'acc' }).update({ transactions_fetched_to: '2031-06-01T08:00:00.000Z' });
      // Read for all of a company's accounts at once.
      await flat(
        () => store.statements.fetchStarts(['acc', 'a1']),
        () => store.statementDays.recordMany(daysFrom('acc', '2026-01-01', 1500)),
        'fetchStarts',
      );
      expect(await store.statements.fetchStarts(['acc', 'a1', 'unknown'])).toEqual(
        new Map([
          ['acc', { fetchedTo: new Date('2031-06-01T08:00:00.000Z'), firstUnsettled: '2031-05-10' }],
          ['a1', {}],
        ]),
      );
      await store.statementDays.record(day('acc', '2031-05-10' as LocalDate));
      expect(await unsettled('acc')).toBe('2031-05-31');
    });

    it("the alerts' broken days: the breaks, not every day of every account", async () => {
      await store.statementDays.recordMany([
        ...daysFrom('a1', '2031-05-01', 30),
        day('a2', '2031-05-03' as LocalDate, 'mismatch'),
      ]);
      await flat(
        () => store.attention.brokenStatementDays(),
        async () => {
          for (const account of ['a1', 'a3', 'a4'])
            await store.statementDays.recordMany(daysFrom(account, '2027-01-01', 600));
        },
        'brokenStatementDays',
      );
      expect((await store.attention.brokenStatementDays()).map((d) => [d.accountId, d.day, d.continuity])).toEqual([
        ['a2', '2031-05-03', 'mismatch'],
      ]);
    });

    /** A file of `lines` payments (the same creditor and amounts for the same `lines`) at the clock's time. */
    async function acceptedFile(name: string, lines: number, since?: Date): Promise<string> {
      const payments: PaymentInstruction[] = Array.from({ length: lines }, (_, i) => ({
        debtorIban: 'NO9386011117947',
        debtorName: 'Acme AS',
        requestedExecutionDate: '2031-06-03' as LocalDate,
        endToEndId: `${name}-${i}`,
        amount: { minor: 100n + BigInt(i), currency: 'NOK' },
        creditorIban: 'NO0612000000009',
        creditorName: 'Creditor AS',
        lineNumber: i + 1,
      }));
      const file = await store.files.recordAcceptedFile(
        {
          company: 'acme',
          fileName: `${name}.csv`,
          sha256: createHash('sha256').update(name).digest('hex'),
          format: 'csv:generic',
          sizeBytes: 100,
          receivedAt: clock.now(),
        },
        payments,
        0,
        since === undefined ? undefined : holdDuplicatesSince(since),
      );
      return file.id;
    }

    /** The lines of a file taken into one bulk of it (they move), after the bulks it has. */
    async function planned(fileId: string, lineIds: string[]): Promise<void> {
      const position = (await store.bulks.listByFile(fileId)).length;
      await store.bulks.createBulks(fileId, [
        {
          position,
          debtorIban: 'NO9386011117947',
          executionDate: '2031-06-03' as LocalDate,
          batchBooking: false,
          paymentIds: lineIds,
        },
      ]);
    }

    /** A file of `lines` payments taken into one bulk (its lines move) at the clock's time. */
    async function sentFile(name: string, lines: number): Promise<string> {
      const fileId = await acceptedFile(name, lines);
      await planned(
        fileId,
        (await store.payments.listByFile(fileId)).map((p) => p.id),
      );
      return fileId;
    }

    it("the status report's changed files: the window's files, not every line the company paid", async () => {
      clock.set('2031-01-05T08:00:00Z');
      for (let f = 0; f < 4; f++) await sentFile(`old${f}`, 20);
      clock.set('2031-06-01T08:00:00Z');
      const recent = await sentFile('recent', 5);
      const since = new Date('2031-05-30T08:00:00Z');
      expect(await store.payments.filesChangedSince('acme', since)).toEqual([recent]);
      await flat(
        () => store.payments.filesChangedSince('acme', since),
        async () => {
          clock.set('2028-01-05T08:00:00Z');
          for (let f = 0; f < 20; f++) await sentFile(`older${f}`, 40);
          clock.set('2031-06-02T08:00:00Z');
        },
        'filesChangedSince',
      );
      // A line of an old file that moves now brings its file into the window.
      const [old] = await store.bulks.listByFile((await store.files.listFiles({ company: 'acme' }))[0]!.id);
      await store.bulks.markRejected(old!.id, { title: 'refused' });
      expect((await store.payments.filesChangedSince('acme', since)).sort()).toEqual([old!.fileId, recent].sort());
    });

    it("a move of a bulk's lines marks its own file, not every file kept", async () => {
      const bulkOf = async (name: string) => (await store.bulks.listByFile(await sentFile(name, 3)))[0]!;
      const [first, second] = [await bulkOf('a'), await bulkOf('b')];
      // A first rejection writes the company's counters of rejected rows (src/store/state-counts.ts);
      // the measured ones add to them.
      await store.bulks.markRejected((await bulkOf('warm')).id, { title: 'refused' });
      let next = first;
      await flat(
        async () => {
          await store.bulks.markRejected(next.id, { title: 'refused' });
          next = second;
        },
        async () => {
          for (let f = 0; f < 30; f++) await sentFile(`kept${f}`, 2);
          clock.advance(3_600_000);
        },
        'markRejected',
      );
      const files = await db.knex('payment_files').select('id', 'lines_changed_at');
      const marked = files.filter((f: Record<string, unknown>) => f.lines_changed_at !== null).length;
      expect(marked).toBe(33); // every file's lines joined a bulk
      // The second rejection, an hour after the rest, marked its own file alone.
      expect(await store.payments.filesChangedSince('acme', clock.now())).toEqual([second.fileId]);
    });

    const seen = (id: string) => ({ id, type: 'unmatched_payment', factHash: `h-${id}`, subject: id, summary: id });

    it("reconciliation's findings: a run reads and writes its own findings, not the company's years of them", async () => {
      const history = async (prefix: string, count: number) => {
        const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
        await store.findings.recordRun('acme', `run-${prefix}`, ids.map(seen));
        for (const id of ids.slice(0, count / 4))
          await store.findings.decide('acme', id, {
            decision: 'acknowledged',
            actor: 'kari',
            origin: 'test',
            reason: 'known',
          });
      };
      await history('F-old', 40);
      await store.findings.decide('acme', 'F-old-39', {
        decision: 'acknowledged',
        actor: 'kari',
        origin: 'test',
        reason: 'x',
      });
      const tonight = ['F-new-1', 'F-old-39'];
      const run = async () => {
        await store.findings.decisions('acme', tonight);
        await store.findings.recordRun('acme', 'run-night', tonight.map(seen));
      };
      await run(); // the findings present before leave once; the measured runs find only tonight's
      await flat(
        run,
        async () => {
          await history('F-older', 400);
          await run();
        },
        'decisions + recordRun',
      );
      expect([...(await store.findings.decisions('acme', tonight)).keys()]).toEqual(['F-old-39']);
      expect((await store.findings.list({ company: 'acme' })).map((f) => f.id).sort()).toEqual(tonight);
      expect((await store.findings.list({ company: 'acme', all: true })).length).toBe(441);
    });

    it("approval's bulks already in a live basket: asked by bulk, not by every basket of the company", async () => {
      const bulkOf = async (name: string) => (await store.bulks.listByFile(await sentFile(name, 1)))[0]!.id;
      const waiting = [await bulkOf('w1'), await bulkOf('w2')];
      await store.baskets.create('acme', [waiting[0]!]);
      await flat(
        () => store.baskets.bulksInLiveBaskets(waiting),
        async () => {
          for (let b = 0; b < 30; b++) await store.baskets.create('acme', [await bulkOf(`signed${b}`)]);
        },
        'bulksInLiveBaskets',
      );
      expect([...(await store.baskets.bulksInLiveBaskets(waiting))]).toEqual([waiting[0]]);
    });

    it("reconciliation's receivables: the open ones and the recently closed, not the years the ERP closed", async () => {
      const line = (invoice: string, due: string, i: number) => ({
        invoice,
        customer: 'Kunde Nord AS',
        amount: { minor: 1000n + BigInt(i), currency: 'NOK' },
        dueDate: due as LocalDate,
        line: i + 2,
      });
      let files = 0;
      /** An open-items file at the clock's time: it closes every open invoice it does not list. */
      const openItems = (invoices: [string, string][]) =>
        store.receivables.importFile(
          { company: 'acme', sha256: createHash('sha256').update(`f${files++}`).digest('hex'), fileName: 'items.csv' },
          invoices.map(([invoice, due], i) => line(invoice, due, i)),
        );
      clock.set('2031-05-20T08:00:00Z');
      await openItems([
        ['INV-OLD', '2031-04-01'],
        ['INV-1', '2031-05-01'],
      ]);
      clock.set('2031-05-25T08:00:00Z');
      await openItems([['INV-1', '2031-05-01']]); // INV-OLD closes
      clock.set('2031-06-02T08:00:00Z');
      const since = new Date('2031-05-22T00:00:00Z');
      const tonight = async () => {
        await openItems([
          ['INV-1', '2031-05-01'],
          ['INV-2', '2031-06-01'],
        ]);
        return store.receivables.list('acme', since);
      };
      await flat(
        tonight,
        async () => {
          // Five years of invoices, each listed by one file and closed by the next.
          clock.set('2027-01-05T08:00:00Z');
          for (let f = 0; f < 20; f++) {
            await openItems(Array.from({ length: 20 }, (_, i) => [`Y${f}-${i}`, '2027-01-20'] as [string, string]));
            clock.advance(86_400_000);
          }
          clock.set('2031-05-21T08:00:00Z');
          await openItems([['INV-1', '2031-05-01']]); // closes the last of them, before `since`
          clock.set('2031-06-02T08:00:00Z');
        },
        'receivables import + list',
      );
      expect((await store.receivables.list('acme', since)).map((r) => [r.invoice, r.closedAt === undefined])).toEqual([
        ['INV-OLD', false],
        ['INV-1', true],
        ['INV-2', true],
      ]);
      expect((await store.receivables.list('acme')).length).toBe(403);
    });

    it("a bulk's cancellation request at the bank: found by its bulk, not among every request kept", async () => {
      const { bulk } = await oneLineBulk(store, 'at-bank');
      const atBank = await store.cancellations.create({
        company: 'acme',
        ref: 'at-bank',
        paymentIds: ['x'],
        bulkId: bulk.id,
        reason: 'sent twice',
        requestedBy: 'ola',
        channel: 'cli',
      });
      await store.cancellations.markBankRequested(atBank.id);
      /** `n` more requests of other bulks, each sent to the bank and refused. */
      const ended = async (from: number, n: number) => {
        for (let i = from; i < from + n; i++) {
          const other = await oneLineBulk(store, `ended-${i}`);
          const c = await store.cancellations.create({
            company: 'acme',
            ref: `ended-${i}`,
            paymentIds: [other.line.id],
            bulkId: other.bulk.id,
            reason: 'sent twice',
            requestedBy: 'ola',
            channel: 'cli',
          });
          await store.cancellations.markBankRequested(c.id);
          await store.cancellations.refuse(c.id, 'already booked');
        }
      };
      await ended(0, 3);
      const read = async () => expect((await store.cancellations.openAtBank(bulk.id))?.id).toBe(atBank.id);
      const queries = captureQueries(db);
      await flat(read, () => ended(3, 30), "a bulk's request at the bank");
      if (engine === 'SQLite') {
        const reads = queries.filter((q) => /^select .* from [`"]?cancellations[`"]? where [`"]?bulk_id/i.test(q.sql));
        expect(reads.length).toBeGreaterThan(0);
        for (const q of reads) await expectIndexRead(db, q, 'cancellations_bulk_ix (bulk_id=?)', "a bulk's request");
      }
    });

    it("an event's line before settle has the bank's bulk id: among bulks awaiting theirs, not every line kept", async () => {
      // The same end-to-end id in two companies: acme's bulk is in flight (the POST's answer not
      // recorded yet), other's was numbered by the bank. Only acme's line can be the event's.
      const [inFlight] = (await pendingBulks(store, 'x', 1, 'acme')).ids;
      const [numbered] = (await pendingBulks(store, 'x', 1, 'other')).ids;
      await store.bulks.markSending(inFlight!);
      await store.bulks.markSending(numbered!);
      await recordSent(store, numbered!, { bankPaymentId: 'bank-x' });
      /** `n` more lines the bank numbered, in sent bulks of both companies. */
      const sent = async (from: number, n: number) => {
        for (let i = from; i < from + n; i++) {
          const { ids } = await pendingBulks(store, `sent-${i}`, 1, i % 2 === 0 ? 'acme' : 'other');
          await store.bulks.markSending(ids[0]!);
          await recordSent(store, ids[0]!, { bankPaymentId: `bank-${i}` });
        }
      };
      await sent(0, 3);
      const read = async () =>
        expect((await store.payments.paymentsAwaitingBankId('x-0')).map((l) => [l.company, l.bulkId])).toEqual([
          ['acme', inFlight],
        ]);
      const queries = captureQueries(db);
      await flat(read, () => sent(3, 30), "an event's line awaiting its bank id");
      expect(await store.payments.paymentsAwaitingBankId('x-0', 'other')).toEqual([]);
      if (engine === 'SQLite') {
        const lines = queries.filter((q) =>
          /^select .* from [`"]?payments[`"]? where [`"]?bulk_id[`"]? in .* and [`"]?end_to_end_id/i.test(q.sql),
        );
        const bulks = queries.filter((q) => /^select [`"]?id[`"]? from [`"]?bulks[`"]? indexed by/i.test(q.sql));
        expect(lines.length * bulks.length).toBeGreaterThan(0);
        for (const q of lines) await expectIndexRead(db, q, 'payments_bulk_ix (bulk_id=?)', "an event's line");
        for (const q of bulks) await expectIndexRead(db, q, 'INDEX bulks_', 'the bulks awaiting their bank id');
        expect(bulks.length).toBeGreaterThan(0);
      }
    });

    it('the final camt.029 answers owed: the requests still owed one, not every request the company ended', async () => {
      /** A camt.055 request answered pending; `ended` by the bank since, and `answered` finally. */
      const request = async (name: string, ended: boolean, answered: boolean): Promise<string> => {
        const c = await store.cancellations.create({
          company: 'acme',
          ref: name,
          paymentIds: [`line-${name}`],
          reason: 'sent twice',
          requestedBy: 'erp',
          channel: 'camt055',
        });
        await store.cancellationAnswers.markPending(c.id, { file: `${name}.xml`, version: '001.03' });
        if (ended) await store.cancellations.refuse(c.id, 'already booked');
        if (answered) await store.cancellationAnswers.markFinal(c.id);
        return c.id;
      };
      const owed = await request('owed', true, false);
      await request('pending', false, false);
      await flat(
        () => store.cancellationAnswers.due('acme'),
        async () => {
          for (let i = 0; i < 30; i++) await request(`old${i}`, true, true);
        },
        'cancellationAnswers.due',
      );
      expect((await store.cancellationAnswers.due('acme')).map((c) => c.id)).toEqual([owed]);
    });

    it("submit's released lines: those waiting for a bulk, not every hold the company ever released", async () => {
      const since = new Date('2031-01-01T00:00:00Z');
      /** A sent file's lines again in a second file, held as its duplicates and released; planned unless `waiting`. */
      const released = async (name: string, lines: number, waiting = false): Promise<string[]> => {
        await sentFile(name, lines);
        const again = await acceptedFile(`${name}-again`, lines, since);
        const held = (await store.held.list({ company: 'acme' })).filter((h) => h.fileId === again);
        expect(held.length).toBe(lines);
        for (const h of held)
          await decideHeldPayment(store, h.id, { decision: 'released', by: 'ola', reason: 'a second delivery' });
        const ids = held.map((h) => h.paymentId);
        if (!waiting) await planned(again, ids);
        return held.map((h) => h.endToEndId);
      };
      const waiting = await released('w', 2, true);
      await released('p', 2);
      // The night that planned them: this read sees them in a bulk and stops waiting for them.
      expect((await store.held.releasedUnplanned('acme')).map((p) => p.endToEndId)).toEqual(waiting);
      await flat(
        () => store.held.releasedUnplanned('acme'),
        async () => {
          for (let f = 0; f < 10; f++) await released(`old${f}`, 4);
          await store.held.releasedUnplanned('acme');
        },
        'releasedUnplanned',
      );
      expect((await store.held.releasedUnplanned('acme')).map((p) => p.endToEndId)).toEqual(waiting);
      // A waiting line cancelled before it was planned stops waiting too; the other still waits.
      const [first] = await store.held.find(waiting[0]!, 'acme');
      await db.knex('payments').where({ id: first!.paymentId }).update({ state: 'CANC' });
      expect((await store.held.releasedUnplanned('acme')).map((p) => p.endToEndId)).toEqual([waiting[1]]);
      const [{ n }] = (await db.knex('held_payments').where({ awaiting_bulk: true }).count({ n: '*' })) as [
        { n: unknown },
      ];
      expect(Number(n)).toBe(1);
    });
  });
});
