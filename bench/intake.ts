// Benchmark of payment intake (`npm run bench`): a generic CSV and a pain.001 of 1,000,000
// payments each through settle's validateFile, beside the raw parser alone (csv-parse; saxes) on
// the same file. Every measurement runs in its own child process, so peak RSS
// (process.resourceUsage().maxRSS) belongs to that case only. The children run this module
// compiled with settle (test/support/cli-build.ts, built first from this checkout) on plain
// node, as the installed CLI runs: no TypeScript loader in either side's start-up. The headline
// rates are per CPU second of the whole process, start-up included (what a user waits for), three paired runs
// each side (medians); a warm-JIT run of the read alone is in the notes. Memory: the median peak
// of three runs at a tenth of the size beside that of three at full size (validation and pickup
// alike: one run's peak moves by a few MB with the garbage collector's timing), and what the
// end-to-end id set alone grows by (the one thing validation must keep per line; pickup keeps
// a second, the same-file duplicate keys, measured alone too), so the growth beyond them is a
// figure of its own.
import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BUILD_DIR } from '../test/support/cli-paths.js';
import type { PaymentInstruction } from '../src/domain/payment.js';
import { csvLines, duplicateKeyFieldsOf, endToEndId, write, xmlDoc, type FileKind } from './intake-files.js';
import { median, scaledSize, type Bench, type BenchRow } from './row.js';

/** The checkout (the parent runs from it); the children start there too, so `cwd` is the checkout in both. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** This module compiled (bench/ built beside src/ and jobs/): what the children run. */
const COMPILED_SELF = join(CLI_BUILD_DIR, 'bench', 'intake.js');
const CHILD_ENV = 'SETTLE_BENCH_INTAKE_CHILD';

type Mode =
  | 'csv-validate'
  | 'csv-raw'
  | 'xml-validate'
  | 'xml-raw'
  | 'xml-raw-tags'
  | 'id-set'
  | 'id-map'
  | 'key-set'
  | 'csv-pickup'
  | 'xml-pickup';
interface Measured {
  lines: number;
  /** id-set, id-map, key-set: heap and array-buffer bytes the ids (keys) hold once built (after a full collection). */
  heldBytes?: number;
  /** The memory at the highest RSS sampled (every 20 ms): what the peak is made of. */
  atPeak?: { heapTotal: number; arrayBuffers: number };
  /**
   * Heap in use and array buffers after a full collection, taken when the end-to-end id set has
   * just received the file's last id: what the read holds at its end, the id set included.
   */
  heldAtEnd?: number;
  /** Wall-clock and CPU (user + system) milliseconds of the read alone (warm), or of the whole process (cold). */
  ms: number;
  cpuMs: number;
  maxRssBytes: number;
}

/** warm: after a read of the small file, modules loaded, the read alone; cold: from process start, start-up included. */
type Timing = { warmup: string } | 'cold';

/** Runs one case in a fresh process and returns what it measured. */
function measure(mode: Mode, file: string, timing: Timing, lines?: number): Measured {
  const out = execFileSync(process.execPath, ['--expose-gc', COMPILED_SELF], {
    cwd: ROOT,
    env: { ...process.env, [CHILD_ENV]: JSON.stringify({ mode, file, timing, lines }) },
    maxBuffer: 1 << 20,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Measured;
}

async function child(mode: Mode, file: string, timing: Timing, expected?: number): Promise<Measured> {
  // Warm: the same code path on a small file first, so both sides are measured with a warm JIT,
  // and the clock starts after it. Cold: the clock is the process's own, from its start.
  if (mode === 'id-set' || mode === 'id-map') {
    const [kind, n] = file.split(':') as [FileKind, string];
    return idSet(mode, kind, Number(n));
  }
  if (mode === 'key-set') return keySet(Number(file));
  if (timing !== 'cold') await read(mode, timing.warmup);
  const started = timing === 'cold' ? 0 : performance.now();
  const cpu0 = timing === 'cold' ? undefined : process.cpuUsage();
  const end = expected === undefined ? undefined : await heldAtEnd(expected);
  const sampler = peakSampler();
  const lines = await read(mode, file);
  const cpu = process.cpuUsage(cpu0);
  return {
    lines,
    atPeak: sampler.stop(),
    ...(end?.bytes === undefined ? {} : { heldAtEnd: end.bytes }),
    ms: performance.now() - started,
    // The collection that measures the end is the bench's, not settle's: its CPU is not counted.
    cpuMs: (cpu.user + cpu.system) / 1000 - (end?.cpuMs ?? 0),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

/**
 * Watches the end-to-end id set (validation and pickup alike keep one per file): when it has
 * received the file's last id, a full collection, and the heap in use and array buffers after
 * it. Everything the read still holds then is either the id set (and in pickup the same-file
 * keys) or what the growth beyond them is made of. Ids are counted a set at a time, so that
 * another set would not make the count reach the file's lines half-way through it.
 */
async function heldAtEnd(expected: number): Promise<{ bytes?: number; cpuMs: number }> {
  const { EndToEndIdSet } = await import('../src/domain/validation/end-to-end-id-set.js');
  const end: { bytes?: number; cpuMs: number } = { cpuMs: 0 };
  // Called below with each set as `this` (add.call), so the unbound method is what is wanted.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const add = EndToEndIdSet.prototype.addIfAbsent;
  const ids = new WeakMap<object, number>();
  EndToEndIdSet.prototype.addIfAbsent = function (this: InstanceType<typeof EndToEndIdSet>, id, line) {
    const first = add.call(this, id, line);
    const added = (ids.get(this) ?? 0) + 1;
    ids.set(this, added);
    if (added === expected && end.bytes === undefined) {
      const cpu0 = process.cpuUsage();
      global.gc?.();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      end.bytes = heapUsed + arrayBuffers;
      const cpu = process.cpuUsage(cpu0);
      end.cpuMs = (cpu.user + cpu.system) / 1000;
    }
    return first;
  };
  return end;
}

/** Samples memory every 20 ms (the reads yield to timers between chunks) and keeps the sample of highest RSS. */
function peakSampler(): { stop: () => { heapTotal: number; arrayBuffers: number } } {
  let peak = process.memoryUsage();
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss >= peak.rss) peak = now;
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return { heapTotal: peak.heapTotal, arrayBuffers: peak.arrayBuffers };
    },
  };
}

/**
 * The duplicate-id set alone, with the ids of the bench files: as the validator keeps them
 * (id-set, the compact set) or as a Map of flat strings would (id-map, for comparison). Peak RSS is
 * what the set adds to a process; the held bytes, measured after a full collection, its own size.
 */
async function idSet(mode: 'id-set' | 'id-map', kind: FileKind, n: number): Promise<Measured> {
  const { EndToEndIdSet } = await import('../src/domain/validation/end-to-end-id-set.js');
  const before = await held();
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const set = mode === 'id-set' ? new EndToEndIdSet() : new Map<string, number>();
  if (set instanceof EndToEndIdSet) for (let i = 1; i <= n; i++) set.addIfAbsent(endToEndId(kind, i), i);
  // Flat strings, as a parser's copied values are: the smallest a Map of strings can be.
  else for (let i = 1; i <= n; i++) set.set(Buffer.from(endToEndId(kind, i)).toString(), i);
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - started;
  return {
    lines: set.size,
    heldBytes: (await held()) - before,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

/** Heap in use and array buffers after a full collection (freed array buffers are released after it, on another thread: a pause, and again). */
async function held(): Promise<number> {
  for (let i = 0; i < 2; i++) {
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/**
 * Pickup's same-file duplicate keys alone (SameFileLines: the first line of each creditor,
 * amount and reference, src/domain/controls/duplicate-holds.ts), fed the bench file's lines in
 * pickup's batches of 1,000: what pay-once keeps per line beside the end-to-end id set.
 */
async function keySet(n: number): Promise<Measured> {
  const { NO_EARLIER_LINES, SameFileLines } = await import('../src/domain/controls/duplicate-holds.js');
  const before = await held();
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const keys = new SameFileLines();
  let repeats = 0;
  for (let from = 1; from <= n; from += 1000) {
    const batch: PaymentInstruction[] = [];
    for (let i = from; i < from + 1000 && i <= n; i++)
      batch.push({ ...duplicateKeyFieldsOf(i), lineNumber: i + 1 } as PaymentInstruction);
    repeats += (await keys.repeats(batch, NO_EARLIER_LINES)).length;
  }
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - started;
  const heldBytes = (await held()) - before;
  // Used after the collection, so the keys cannot be collected before it is measured.
  if (keys.byteLength === 0) throw new Error('no key kept');
  return {
    lines: n - repeats,
    heldBytes,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

/** One read of the file by one side; each side loads only its own modules (they count when cold). */
async function read(mode: Mode, file: string): Promise<number> {
  let lines = 0;
  if (mode === 'csv-raw') {
    const { parse } = await import('csv-parse');
    for await (const _ of createReadStream(file).pipe(parse({ delimiter: ',', from_line: 2 }))) lines++;
    return lines;
  }
  if (mode === 'xml-raw' || mode === 'xml-raw-tags') {
    // The baseline delivers what any reader of the values needs: tags and their text. (saxes
    // skips building text when nobody listens; 'xml-raw-tags' shows that rate for reference.)
    const { SaxesParser } = await import('saxes');
    const parser = new SaxesParser({ xmlns: true, position: true });
    let textChars = 0;
    parser.on('opentag', (tag) => {
      if (tag.local === 'CdtTrfTxInf') lines++;
    });
    if (mode === 'xml-raw') {
      parser.on('text', (t) => void (textChars += t.length));
      parser.on('closetag', () => undefined);
    }
    for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 }))
      parser.write(chunk as string);
    parser.close();
    if (mode === 'xml-raw' && textChars === 0) throw new Error('no text read');
    return lines;
  }
  if (mode === 'csv-pickup' || mode === 'xml-pickup') return pickup(file);
  const { validateFile } = await import('../src/formats/intake/validate-file.js');
  const { loadProfile } = await import('../src/formats/csv-profile/load-profile.js');
  const { charsetRule } = await import('../src/domain/validation/charset.js');
  const { businessCalendar } = await import('../src/domain/business-calendar.js');
  const profile =
    mode === 'csv-validate' ? await loadProfile('generic', [join(process.cwd(), 'config', 'profiles')]) : undefined;
  const result = await validateFile(file, {
    ...(profile ? { profile } : {}),
    validation: { asOf: '2026-01-05' as never, calendar: businessCalendar('NO'), charset: charsetRule() },
    onPayment: () => undefined,
  });
  if (!result.valid) throw new Error(`benchmark file is not valid: ${JSON.stringify(result.issues.slice(0, 3))}`);
  return result.payments;
}

/**
 * The pickup job on the file, into a fresh SQLite database: validation with the ledger's
 * end-to-end id check, and the payments stored a batch at a time in the file's transaction.
 * Counts what the database holds afterwards, so a run that stored nothing cannot pass.
 */
async function pickup(file: string): Promise<number> {
  const { copyFile, constants, mkdtemp: tempDir, rm: remove } = await import('node:fs/promises');
  const { runPickup } = await import('../jobs/pickup/pickup.js');
  const { ManualClock } = await import('../src/domain/clock.js');
  const { openPickupWorld } = await import('../test/support/pickup-world.js');
  const dir = await tempDir(join(tmpdir(), 'settle-bench-pickup-'));
  try {
    const { db, deps, company } = await openPickupWorld(dir, new ManualClock('2026-01-05T09:00:00Z'));
    // A copy, not a hard link: pickup refuses a file with a second name (docs/transport.md); a
    // reflink makes the copy free where the filesystem has them.
    await copyFile(
      file,
      join(company.root, 'inbox', file.endsWith('.csv') ? 'pay.csv' : 'pay.xml'),
      constants.COPYFILE_FICLONE,
    );
    const [picked] = await runPickup(deps, [company]);
    // The valid path: every line accepted and none held (a held line writes a report and waits).
    if (picked?.outcome !== 'accepted' || (picked.held ?? 0) > 0)
      throw new Error(`benchmark file was not accepted whole: ${JSON.stringify(picked)}`);
    const [stored] = await deps.ledger.listFiles({ company: 'acme' });
    await db.close();
    return stored?.acceptedCount ?? 0;
  } finally {
    await remove(dir, { recursive: true, force: true });
  }
}

const REPEATS = 3;

const MB = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;
const signedMB = (b: number): string => `${b >= 0 ? '+' : '−'}${MB(Math.abs(b))}`;

/** The duplicate-id set built alone at both sizes, and a Map of the same ids for comparison. */
interface IdSetGrowth {
  big: Measured;
  small: Measured;
  map: Measured;
  n: number;
}

/** Pickup's same-file duplicate keys built alone at both sizes: the second thing pickup keeps per line. */
interface KeySetGrowth {
  big: Measured;
  small: Measured;
}

/** The run whose peak RSS is the median of the runs' (with its memory at the peak). */
function medianPeak(runs: readonly Measured[]): Measured {
  return [...runs].sort((a, b) => a.maxRssBytes - b.maxRssBytes)[Math.floor(runs.length / 2)]!;
}

/**
 * The median peak at a tenth of the size and at full size, and what the growth is made of: the id
 * set's own bytes (exact, the one growth allowed), what lies beyond them, the
 * heap and the array buffers at each peak, and what the id set alone adds to a process's peak
 * (its table grows by copying, so old and new table are briefly both held).
 */
function memoryNote(
  smallRuns: readonly Measured[],
  bigRuns: readonly Measured[],
  ids: IdSetGrowth,
  keys?: KeySetGrowth,
): string {
  const small = medianPeak(smallRuns);
  const big = medianPeak(bigRuns);
  const peaks = (runs: readonly Measured[]): string => runs.map((m) => (m.maxRssBytes / 2 ** 20).toFixed(0)).join('/');
  const held = (m: Measured): number => m.heldBytes ?? 0;
  const own = held(ids.big) - held(ids.small);
  const keysOwn = keys ? held(keys.big) - held(keys.small) : 0;
  const growth = big.maxRssBytes - small.maxRssBytes;
  const beyond = growth - own - keysOwn;
  const perId = (m: Measured): string => `${(held(m) / ids.n).toFixed(0)} B`;
  const split = (m: Measured): string =>
    m.atPeak ? `heap ${MB(m.atPeak.heapTotal)}, array buffers ${MB(m.atPeak.arrayBuffers)}` : 'not sampled';
  return (
    `median peak ${MB(small.maxRssBytes)} at ${(ids.n / 10).toLocaleString('en')} → ${MB(big.maxRssBytes)} at ${ids.n.toLocaleString('en')} ` +
    `(runs ${peaks(smallRuns)} → ${peaks(bigRuns)} MB) ` +
    `(+${MB(growth)}; the end-to-end id set's own bytes ${signedMB(own)}, ${perId(ids.big)} an id vs ${perId(ids.map)} in a Map of flat strings; ` +
    (keys ? `the same-file duplicate keys' own bytes ${signedMB(keysOwn)}, ${perId(keys.big)} a line; ` : '') +
    `beyond them ${signedMB(beyond)} = ${((beyond / Math.max(own, 1)) * 100).toFixed(0)} % of the id set's; ` +
    `at the peaks ${split(small)} → ${split(big)}; the id set alone in a process: peak ${signedMB(ids.big.maxRssBytes - ids.small.maxRssBytes)}); ` +
    heldNote(smallRuns, bigRuns, own, keys ? keysOwn : undefined)
  );
}

/**
 * The heap in use (and array buffers) after a full collection at the read's end, at both sizes
 * (medians), and its growth beyond the id set's own bytes (and in pickup the same-file duplicate
 * keys'): the figure that says memory is flat, free of the garbage collector's timing that moves
 * a peak. Flat is still measured against a tenth of the id set's growth alone: the second set
 * is named and subtracted, and does not widen the margin.
 */
function heldNote(
  smallRuns: readonly Measured[],
  bigRuns: readonly Measured[],
  idSetOwn: number,
  keysOwn?: number,
): string {
  const held = (runs: readonly Measured[]): number | undefined => {
    const values = runs.map((m) => m.heldAtEnd).filter((b): b is number => b !== undefined);
    return values.length === runs.length ? median(values) : undefined;
  };
  const [small, big] = [held(smallRuns), held(bigRuns)];
  if (small === undefined || big === undefined) return 'heap after a collection at the end: not measured';
  const beyond = big - small - idSetOwn - (keysOwn ?? 0);
  // A tenth of a MB: at the quick sizes the whole growth is a MB or two.
  const mb = (b: number): string => `${b >= 0 ? '+' : '−'}${(Math.abs(b) / 2 ** 20).toFixed(1)} MB`;
  return (
    `heap in use after a collection at the end (medians) ${MB(small)} → ${MB(big)}: ` +
    `${mb(big - small)}, beyond the id set's own bytes ${keysOwn === undefined ? '' : `and the same-file keys' (${mb(keysOwn)}) `}${mb(beyond)} (${flat(beyond, idSetOwn)})`
  );
}

/** Flat: what grows beyond the id set is under a tenth of the id set's own growth. */
function flat(beyond: number, idSetOwn: number): string {
  return beyond <= Math.max(idSetOwn, 1) / 10 ? 'flat' : 'grows';
}

export const bench: Bench = async ({ quick, scale }) => {
  // Loaded here, not at the top: the children run this module and must not load esbuild.
  const { buildCompiled } = await import('../test/support/cli-build.js');
  await buildCompiled(['bench', 'test/support']);
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-intake-'));
  try {
    const rows: BenchRow[] = [];
    const cases = [
      // Sizes in tens, so the companion run is exactly a tenth.
      {
        kind: 'csv' as const,
        key: 'intake-csv',
        n: quick ? 20_000 : scaledSize(1_000_000, scale, { step: 10, min: 1000 }),
        unit: 'lines',
        name: 'generic CSV',
        baseline: 'csv-parse alone',
      },
      {
        kind: 'xml' as const,
        key: 'intake-pain001',
        n: quick ? 5_000 : scaledSize(1_000_000, scale, { step: 10, min: 1000 }),
        unit: 'payments',
        name: 'pain.001.001.09',
        baseline: 'saxes alone (tags and text)',
      },
    ];
    for (const c of cases) {
      const big = join(dir, `big.${c.kind}`);
      const small = join(dir, `small.${c.kind}`);
      await write(big, () => (c.kind === 'csv' ? csvLines(c.n) : xmlDoc(c.n)));
      await write(small, () => (c.kind === 'csv' ? csvLines(c.n / 10) : xmlDoc(c.n / 10)));
      const fileBytes = (await stat(big)).size;
      // Paired runs, baseline and settle taking turns, and the median of each: one run of
      // either can be slowed by whatever else the machine does at that moment. The headline is
      // cold (start-up included: what a user waits for); the warm rates are in the notes.
      // The runs at a tenth of the size take turns with them too: the growth compares the same
      // statistic at both sizes (the median peak), never the highest of three with a single run.
      const raws: Measured[] = [];
      const ourRuns: Measured[] = [];
      const ourRuns10: Measured[] = [];
      for (let r = 0; r < REPEATS; r++) {
        raws.push(measure(`${c.kind}-raw`, big, 'cold'));
        ourRuns.push(measure(`${c.kind}-validate`, big, 'cold', c.n));
        ourRuns10.push(measure(`${c.kind}-validate`, small, 'cold', c.n / 10));
      }
      const warmRaw = measure(`${c.kind}-raw`, big, { warmup: small });
      const warmOurs = measure(`${c.kind}-validate`, big, { warmup: small });
      // What the duplicate-id set alone grows by between the two sizes: the one growth allowed.
      const idSet: IdSetGrowth = {
        big: measure('id-set', `${c.kind}:${c.n}`, 'cold'),
        small: measure('id-set', `${c.kind}:${c.n / 10}`, 'cold'),
        map: measure('id-map', `${c.kind}:${c.n}`, 'cold'),
        n: c.n,
      };
      const tagsOnly = c.kind === 'xml' ? measure('xml-raw-tags', big, { warmup: small }) : undefined;
      // The same payments with every value quoted: from the first quote on, settle splits the
      // records itself while they are well-formed (quoted-lines.ts), a path of its own. One pair,
      // cold; a row of its own, which has an aim of its own.
      let quotedRow: BenchRow | undefined;
      if (c.kind === 'csv') {
        const quoted = join(dir, 'quoted.csv');
        await write(quoted, () => csvLines(c.n, true));
        const [raw, ours] = [measure('csv-raw', quoted, 'cold'), measure('csv-validate', quoted, 'cold')];
        if (raw.lines !== c.n || ours.lines !== c.n)
          throw new Error(`counted ${raw.lines}/${ours.lines} of ${c.n} quoted lines`);
        quotedRow = {
          key: 'intake-csv-quoted',
          name: `validate generic CSV, every value quoted, ${c.n.toLocaleString('en')} lines`,
          size: c.n,
          unit: c.unit,
          rate: (ours.lines / ours.cpuMs) * 1000,
          baselineName: c.baseline,
          baselineRate: (raw.lines / raw.cpuMs) * 1000,
          peakRssBytes: ours.maxRssBytes,
          notes:
            'well-formed quoted records split by settle (csv-parse reads from a record of another shape on); one cold pair, rates per CPU second of the whole process',
        };
        await rm(quoted, { force: true });
      }
      // Pickup into the store (SQLite), three times at each size, taking turns: the same
      // validation, the ledger's id check and the batched inserts; its growth is held to the
      // same measure as validation's, median peak against median peak.
      // What pickup's same-file duplicate keys alone grow by: pay-once's own per-line set.
      const keySet: KeySetGrowth = {
        big: measure('key-set', String(c.n), 'cold'),
        small: measure('key-set', String(c.n / 10), 'cold'),
      };
      const picks: Measured[] = [];
      const picks10: Measured[] = [];
      for (let r = 0; r < REPEATS; r++) {
        picks.push(measure(`${c.kind}-pickup`, big, 'cold', c.n));
        picks10.push(measure(`${c.kind}-pickup`, small, 'cold', c.n / 10));
      }
      for (const m of [...raws, ...ourRuns, warmRaw, warmOurs, ...picks])
        if (m.lines !== c.n) throw new Error(`counted ${m.lines} of ${c.n} ${c.unit}`);
      // Rates from CPU time: on a shared machine wall-clock time measures the neighbours.
      const perCpu = (m: Measured): number => (m.lines / m.cpuMs) * 1000;
      const rate = median(ourRuns.map(perCpu));
      const baselineRate = median(raws.map(perCpu));
      const wallRatio = median(ourRuns.map((m) => m.lines / m.ms)) / median(raws.map((m) => m.lines / m.ms));
      // The peak column is the highest of the runs (its aim is a ceiling); the growth uses medians.
      const peak = Math.max(...ourRuns.map((m) => m.maxRssBytes));
      const rawPeak = Math.max(...raws.map((m) => m.maxRssBytes));
      rows.push({
        key: c.key,
        name: `validate ${c.name}, ${c.n.toLocaleString('en')} ${c.unit}`,
        size: c.n,
        unit: c.unit,
        rate,
        baselineName: c.baseline,
        baselineRate,
        peakRssBytes: peak,
        notes:
          `file ${MB(fileBytes)} (${Math.round(fileBytes / c.n)} bytes a ${c.unit === 'lines' ? 'line' : 'payment'}, laid out like samples/erp); ` +
          `rates per CPU second of the whole process, start-up included; ${(rate / baselineRate).toFixed(2)}× raw ` +
          `(wall: ${wallRatio.toFixed(2)}×), medians of ${REPEATS} paired runs; warm JIT, the read alone: ${Math.round(perCpu(warmOurs))} vs ${Math.round(perCpu(warmRaw))}/s = ${(perCpu(warmOurs) / perCpu(warmRaw)).toFixed(2)}×; ` +
          `raw parser peak ${MB(rawPeak)}; settle ${memoryNote(ourRuns10, ourRuns, idSet)}` +
          (tagsOnly ? `; saxes with tags only, no text (warm): ${Math.round(perCpu(tagsOnly))}/s` : ''),
      });
      if (quotedRow) rows.push(quotedRow);
      rows.push({
        key: c.key.replace('intake', 'pickup'),
        name: `pick up ${c.name} into the store (SQLite), ${c.n.toLocaleString('en')} ${c.unit}`,
        size: c.n,
        unit: c.unit,
        rate: median(picks.map(perCpu)),
        baselineName: 'validate alone (the row above)',
        baselineRate: rate,
        peakRssBytes: Math.max(...picks.map((m) => m.maxRssBytes)),
        notes:
          `rates per CPU second of the whole process, start-up included, medians of ${REPEATS} runs; wall ${(median(picks.map((m) => m.ms)) / 1000).toFixed(0)} s; ` +
          memoryNote(picks10, picks, idSet, keySet),
      });
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const childSpec = process.env[CHILD_ENV];
if (childSpec) {
  const { mode, file, timing, lines } = JSON.parse(childSpec) as {
    mode: Mode;
    file: string;
    timing: Timing;
    lines?: number;
  };
  process.stdout.write(JSON.stringify(await child(mode, file, timing, lines)) + '\n');
}
