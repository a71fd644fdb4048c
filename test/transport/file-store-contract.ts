// The FileStore contract: every implementation (local folder, SFTP) must pass these same
// tests. Each test gets a fresh, empty store from the factory.
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { isSettleError } from '../../src/domain/errors.js';
import { takeStableFiles, type FileStore } from '../../src/transport/index.js';
import { partPath } from '../../src/transport/part-name.js';

export interface StoreUnderTest {
  store: FileStore;
  /** The account the store writes as, which its listings name as each file's owner. */
  owner: string;
  cleanup(): Promise<void>;
}

/** A stream that yields `first`, then waits until released, then yields `rest` (or fails). */
export function gatedStream(first: string, rest: string, fail = false): { stream: Readable; release: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const stream = Readable.from(
    (async function* () {
      yield Buffer.from(first);
      await gate;
      if (fail) throw new Error('source broke');
      yield Buffer.from(rest);
    })(),
  );
  return { stream, release };
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isSettleError(error) ? error.code : `not a SettleError: ${String(error)}`;
  }
  return 'no error';
}

const UNSAFE = [
  '../escape.csv',
  '/etc/passwd',
  'inbox/../../x',
  'a\\b.csv',
  'bad\nname.csv',
  'nul\u0000.csv',
  'invoice\u202Etxt.exe',
  'inbox//x',
  '..',
];

export function fileStoreContract(name: string, create: () => Promise<StoreUnderTest>): void {
  describe(`FileStore contract: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: FileStore;
    beforeEach(async () => {
      subject = await create();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it('writes a Buffer, a string (UTF-8) and a stream and reads back the same bytes', async () => {
      await store.writeAtomic('a.bin', Buffer.from([0, 1, 2, 255]));
      await store.writeAtomic('b.txt', 'Müller;12.50\n');
      await store.writeAtomic('c.txt', Readable.from([Buffer.from('one '), Buffer.from('two')]));
      expect([...(await store.readBuffer('a.bin'))]).toEqual([0, 1, 2, 255]);
      expect((await store.readBuffer('b.txt')).toString('utf8')).toBe('Müller;12.50\n');
      const chunks: Buffer[] = [];
      for await (const chunk of await store.read('c.txt')) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('one two');
    });

    it('writes bytes made chunk by chunk (a report of every held line), asking for them afresh', async () => {
      let asked = 0;
      await store.writeAtomic('held.json', function* () {
        asked++;
        for (let i = 0; i < 3000; i++) yield Buffer.from(`line ${i} æ\n`);
      });
      const expected = Array.from({ length: 3000 }, (_, i) => `line ${i} æ\n`).join('');
      expect((await store.readBuffer('held.json')).toString('utf8')).toBe(expected);
      expect(asked).toBe(1);
    });

    it('never shows a partial file under the final name while a write is in progress', async () => {
      await store.ensureDir('out');
      const { stream, release } = gatedStream('first half;', 'second half');
      const writing = store.writeAtomic('out/report.csv', stream);
      await waitFor(async () => (await store.list('out')).some((e) => e.name === partPath('report.csv')));
      expect(await store.exists('out/report.csv')).toBe(false);
      expect((await store.list('out')).map((e) => e.name)).toEqual([partPath('report.csv')]);
      release();
      await writing;
      expect((await store.readBuffer('out/report.csv')).toString()).toBe('first half;second half');
      expect((await store.list('out')).map((e) => e.name)).toEqual(['report.csv']);
    });

    it('replaces an existing file in one step: readers see the old content until the new one is complete', async () => {
      await store.writeAtomic('status.csv', 'old content');
      const { stream, release } = gatedStream('new ', 'content');
      const writing = store.writeAtomic('status.csv', stream);
      await waitFor(async () => store.exists(partPath('status.csv')));
      expect((await store.readBuffer('status.csv')).toString()).toBe('old content');
      release();
      await writing;
      expect((await store.readBuffer('status.csv')).toString()).toBe('new content');
      expect(await store.exists(partPath('status.csv'))).toBe(false);
    });

    it('leaves neither the target nor the .part file behind when the source stream fails', async () => {
      const { stream, release } = gatedStream('partial', '', true);
      const writing = store.writeAtomic('broken.csv', stream);
      const outcome = expect(writing).rejects.toThrow();
      release();
      await outcome;
      expect(await store.exists('broken.csv')).toBe(false);
      expect(await store.exists(partPath('broken.csv'))).toBe(false);
    });

    it('lists regular files with size and mtime, sorted by name, without sub-folders', async () => {
      const before = Date.now();
      await store.ensureDir('inbox/sub');
      await store.writeAtomic('inbox/b.csv', '12345');
      await store.writeAtomic('inbox/a.csv', '');
      await store.writeAtomic('inbox/sub/hidden.csv', 'x');
      const entries = await store.list('inbox');
      expect(entries.map((e) => [e.name, e.size])).toEqual([
        ['a.csv', 0],
        ['b.csv', 5],
      ]);
      for (const entry of entries) {
        // SFTP reports whole seconds: allow that much rounding down.
        expect(entry.mtimeMs).toBeGreaterThanOrEqual(before - 1000);
        expect(entry.mtimeMs).toBeLessThanOrEqual(Date.now() + 1000);
      }
      // Who wrote them, as the server names its account: pickup records it as who dropped a file.
      expect(entries.map((e) => e.owner)).toEqual([subject.owner, subject.owner]);
      expect(await store.list('')).toEqual([]);
      // Only the names asked for.
      expect((await store.list('inbox', { named: (name) => name.startsWith('b') })).map((e) => e.name)).toEqual([
        'b.csv',
      ]);
    });

    it('reports a missing folder or file as ERR_FILE_NOT_FOUND', async () => {
      expect(await codeOf(store.list('nowhere'))).toBe('ERR_FILE_NOT_FOUND');
      expect(await codeOf(store.readBuffer('missing.csv'))).toBe('ERR_FILE_NOT_FOUND');
      expect(await codeOf(store.read('missing.csv'))).toBe('ERR_FILE_NOT_FOUND');
      expect(await codeOf(store.move('missing.csv', 'elsewhere.csv'))).toBe('ERR_FILE_NOT_FOUND');
    });

    it('moves a file into another folder', async () => {
      await store.ensureDir('inbox');
      await store.ensureDir('archive');
      await store.writeAtomic('inbox/pay.csv', 'payments');
      expect(await store.move('inbox/pay.csv', 'archive/pay.csv')).toBe('moved');
      expect(await store.exists('inbox/pay.csv')).toBe(false);
      expect((await store.readBuffer('archive/pay.csv')).toString()).toBe('payments');
    });

    it('moving onto an existing file with the same bytes just removes the source', async () => {
      await store.writeAtomic('pay.csv', 'same');
      await store.ensureDir('archive');
      await store.writeAtomic('archive/pay.csv', 'same');
      expect(await store.move('pay.csv', 'archive/pay.csv')).toBe('already-there');
      expect(await store.exists('pay.csv')).toBe(false);
      expect((await store.readBuffer('archive/pay.csv')).toString()).toBe('same');
    });

    it('refuses to move onto an existing file with different bytes and changes neither', async () => {
      await store.writeAtomic('pay.csv', 'new file');
      await store.writeAtomic('taken.csv', 'old file');
      expect(await codeOf(store.move('pay.csv', 'taken.csv'))).toBe('ERR_FILE_TARGET_EXISTS');
      expect((await store.readBuffer('pay.csv')).toString()).toBe('new file');
      expect((await store.readBuffer('taken.csv')).toString()).toBe('old file');
    });

    it('creates nested folders, accepts existing ones, and tells files from folders', async () => {
      await store.ensureDir('a/b/c');
      await store.ensureDir('a/b/c');
      await store.ensureDir('a/b/');
      await store.writeAtomic('a/b/c/f.txt', 'x');
      expect(await store.exists('a/b/c/f.txt')).toBe(true);
      expect(await store.exists('a/b')).toBe(false);
      expect(await store.exists('a/b/c/nope.txt')).toBe(false);
      await store.writeAtomic('plain', 'x');
      expect(await codeOf(store.ensureDir('plain/sub'))).toMatch(/^ERR_FILE_(IO|NOT_FOUND)$/);
    });

    it('removes a file, and removing a missing file is not an error', async () => {
      await store.writeAtomic('gone.csv', 'x');
      await store.remove('gone.csv');
      expect(await store.exists('gone.csv')).toBe(false);
      await store.remove('gone.csv');
    });

    it.each(UNSAFE)('refuses the unsafe name %j for every operation', async (bad) => {
      await store.writeAtomic('ok.csv', 'x');
      const attempts: Promise<unknown>[] = [
        store.writeAtomic(bad, 'x'),
        store.readBuffer(bad),
        store.read(bad),
        store.exists(bad),
        store.remove(bad),
        store.move('ok.csv', bad),
        store.move(bad, 'ok2.csv'),
        store.list(`${bad}/`),
        store.ensureDir(bad),
      ];
      for (const attempt of attempts) expect(await codeOf(attempt)).toBe('ERR_FILE_NAME_UNSAFE');
      expect((await store.list('')).map((e) => e.name)).toEqual(['ok.csv']);
    });

    it('takes only files that did not change between two looks and never temporary or hidden ones', async () => {
      await store.ensureDir('in');
      await store.writeAtomic('in/done.csv', 'complete');
      await store.writeAtomic('in/growing.csv', 'start');
      for (const temp of ['upload.csv.part', 'x.TMP', 'winscp.csv.filepart', 'backup.csv~', '.hidden.csv'])
        await store.writeAtomic(`in/${temp}`, 'x');
      const result = await takeStableFiles(store, 'in', {
        settleMs: 1,
        // The writer keeps going while settle waits between its two looks.
        sleep: () => store.writeAtomic('in/growing.csv', 'start, and more'),
      });
      expect(result.stable.map((e) => [e.name, e.size])).toEqual([['done.csv', 8]]);
      expect(Object.fromEntries(result.skipped.map((s) => [s.name, s.reason]))).toEqual({
        'growing.csv': 'changing',
        'upload.csv.part': 'temporary-name',
        'x.TMP': 'temporary-name',
        'winscp.csv.filepart': 'temporary-name',
        'backup.csv~': 'temporary-name',
        '.hidden.csv': 'temporary-name',
      });
    });

    it('applies the name pattern, skips files that vanish, and holds back files younger than minAgeMs', async () => {
      await store.writeAtomic('pay.csv', 'a');
      await store.writeAtomic('PAY2.CSV', 'b');
      await store.writeAtomic('notes.txt', 'c');
      const vanishing = await takeStableFiles(store, '', {
        pattern: '*.csv',
        settleMs: 1,
        sleep: () => store.remove('PAY2.CSV'),
      });
      expect(vanishing.stable.map((e) => e.name)).toEqual(['pay.csv']);
      expect(vanishing.skipped).toEqual(
        expect.arrayContaining([
          { name: 'notes.txt', reason: 'pattern' },
          { name: 'PAY2.CSV', reason: 'vanished' },
        ]),
      );
      const clock = new ManualClock(new Date());
      const young = await takeStableFiles(store, '', { pattern: /^pay/, settleMs: 1, minAgeMs: 60_000, clock });
      expect(young.stable).toEqual([]);
      expect(young.skipped).toContainEqual({ name: 'pay.csv', reason: 'too-new' });
      clock.advance(120_000);
      expect(
        (await takeStableFiles(store, '', { pattern: /^pay/, settleMs: 1, minAgeMs: 60_000, clock })).stable.map(
          (e) => e.name,
        ),
      ).toEqual(['pay.csv']);
    });
  });
}
