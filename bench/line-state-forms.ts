// Where a line's state could live, measured at the SQL level (record 0015, "The forms of the narrow
// table"): `npx tsx bench/line-state-forms.ts [payments=100000] [form …]`.
//
// Seeds a migrated SQLite database with the bench's payments (files of 10,000, as bench/payments.ts
// seeds them), then for each form, on a copy of it: makes 1,000-line bulks, joins each (one
// transaction a bulk), reads each bulk's request lines, moves each bulk's lines to the bank's
// answer (one transaction a bulk; one bulk in 50 rejected), and times the console's first page of
// a search by state for a common state (ACSC), a rare one (RJCT) and one no line is in
// any more (accepted: every line has joined a bulk). It prints one JSON line a form:
// the main thread's CPU in ms of each step, and the search's query plan. Nothing of settle's code
// runs but the seeding: the statements are the forms' own, as transition() would send them.
import { createRequire } from 'node:module';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src/domain/clock.js';
import type { LocalDate } from '../src/domain/local-date.js';
import type { PaymentInstruction } from '../src/domain/payment.js';
import { createStore, openDatabase } from '../src/store/index.js';

// better-sqlite3 directly, as the store's own connection uses it (its pragmas below).
const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => SqliteDb;
interface SqliteDb {
  pragma(source: string): unknown;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}
interface SqliteStatement {
  run(...values: unknown[]): { changes: number };
  all(...values: unknown[]): Record<string, unknown>[];
  pluck(): SqliteStatement;
}

/**
 * The forms: where the join writes, where the move writes, and how the console finds a state.
 * - wide: as today, `payments.state`, `bulk_id` and `bank_status`, `payments_console_state_ix`.
 * - narrow: record 0015's table keyed by (bulk, payment); the join writes only it, so the wide row
 *   keeps the state it joined from, and the search reads `coalesce(narrow, wide)` by date.
 * - narrow+mark: the same, and the join also moves the wide row's state off the state lines join
 *   from (so the wide index stays exact for lines in no bulk).
 * - narrow+mark+state-index: the same with an index by state on the narrow table.
 * - narrow+console-index: the narrow table carries the company and date and the console's index.
 * - every-line: a narrow row for every line from pickup (keyed by payment), the console's index on it.
 * - wide+open-index: as today, but the console's state index holds only the lines in no bulk
 *   (SQLite's partial index, `where bulk_id is null`): the join takes a line's entry out, and the
 *   moves of lines in a bulk touch no index. Its search is that index's arm (lines in no bulk);
 *   the lines in a bulk would be found through the bulks.
 * - every-line+open-index: a narrow row for every line, with that partial index on it.
 */
const FORMS = [
  'wide',
  'narrow',
  'narrow+mark',
  'narrow+mark+state-index',
  'narrow+console-index',
  'every-line',
  'wide+open-index',
  'every-line+open-index',
];

const COMPANY = 'bench';
const DATE = '2026-12-20';
const ids = (n: number): string => Array.from({ length: n }, () => '?').join(', ');
const BULK = 1000;
const JOIN_GUARD = `from payments where id in (${ids(BULK)}) and file_id = ? and state = 'accepted' and line_number between ? and ?`;
const KEYED = `create table line_states (bulk_id varchar(36) not null references bulks(id),
  payment_id varchar(36) not null references payments(id), state varchar(16) not null, bank_status varchar(16),
  updated_at varchar(30) not null EXTRA, primary key (bulk_id, payment_id)) without rowid`;
const BY_DATE = 'order by p.execution_date desc, p.id desc limit 51';
const LINE_COLUMNS =
  'p.id, p.end_to_end_id, p.amount_minor, p.currency, p.creditor_iban, p.creditor_name, p.line_number';

interface Form {
  schema: string[];
  join: string;
  /** The wide row's state moved off `accepted` in the join's transaction. */
  mark?: true;
  move: string;
  lines: string;
  search: string;
}

const narrowJoin = `insert into line_states (bulk_id, payment_id, state, updated_at) select ?, id, 'queued', ? ${JOIN_GUARD}`;
const narrowMove = 'update line_states set state = ?, bank_status = ?, updated_at = ? where bulk_id = ?';
const narrowLines = `select ${LINE_COLUMNS} from line_states l join payments p on p.id = l.payment_id where l.bulk_id = ? order by p.line_number`;
// With the wide row marked, its index still finds the lines in no bulk; the lines in a bulk are found
// by walking the company's payments by date and reading their narrow rows (by state when indexed).
const markedSearch =
  'select * from (select p.*, l.state as line_state from payments p join line_states l on l.payment_id = p.id' +
  ' where p.company = ? and l.state in (?) union all select p.*, p.state from payments p where p.company = ? and p.state in (?))' +
  ' order by execution_date desc, id desc limit 51';
const keyed = (extra = ''): string[] => [
  KEYED.replace('EXTRA', extra),
  'create unique index line_states_payment_uq on line_states (payment_id)',
];

/** The wide row's join, move and request lines, as transition() and the bulk's reads send them. */
const WIDE_PATH = {
  join:
    `update payments set updated_at = ?, bulk_id = ?, state = 'queued' where id in (${ids(BULK)})` +
    ` and file_id = ? and state = 'accepted' and bulk_id is null and line_number between ? and ?`,
  move: 'update payments set state = ?, bank_status = ?, updated_at = ? where bulk_id = ?',
  lines: `select ${LINE_COLUMNS} from payments p where bulk_id = ? order by line_number`,
};
/** A narrow row for every line from pickup, keyed by payment, and its index by bulk. */
const EVERY_LINE_TABLE = [
  `create table line_states (payment_id varchar(36) primary key references payments(id), bulk_id varchar(36) references bulks(id),
    state varchar(16) not null, bank_status varchar(16), updated_at varchar(30) not null, company varchar(64) not null,
    execution_date varchar(10) not null) without rowid`,
  'create index line_states_bulk_ix on line_states (bulk_id)',
];
const EVERY_LINE_JOIN =
  `update line_states set bulk_id = ?, state = 'queued', updated_at = ? where payment_id in` +
  ` (select id from payments where id in (${ids(BULK)}) and file_id = ? and line_number between ? and ?)` +
  ` and state = 'accepted' and bulk_id is null`;

const form: Record<string, Form> = {
  wide: {
    schema: [],
    ...WIDE_PATH,
    search: `select * from payments p where company = ? and state in (?) ${BY_DATE}`,
  },
  narrow: {
    schema: keyed(),
    join: narrowJoin,
    move: narrowMove,
    lines: narrowLines,
    search:
      'select p.*, coalesce(l.state, p.state) as line_state from payments p left join line_states l on l.payment_id = p.id' +
      ` where p.company = ? and coalesce(l.state, p.state) in (?) ${BY_DATE}`,
  },
  'narrow+mark': {
    schema: keyed(),
    join: narrowJoin,
    mark: true,
    move: narrowMove,
    lines: narrowLines,
    search: markedSearch,
  },
  'narrow+mark+state-index': {
    schema: [...keyed(), 'create index line_states_state_ix on line_states (state, payment_id)'],
    join: narrowJoin,
    mark: true,
    move: narrowMove,
    lines: narrowLines,
    search: markedSearch,
  },
  'narrow+console-index': {
    schema: [
      ...keyed(', company varchar(64) not null, execution_date varchar(10) not null'),
      'create index line_states_console_state_ix on line_states (company, state, execution_date, payment_id)',
    ],
    join: `insert into line_states (bulk_id, payment_id, state, updated_at, company, execution_date) select ?, id, 'queued', ?, company, execution_date ${JOIN_GUARD}`,
    mark: true,
    move: narrowMove,
    lines: narrowLines,
    // The lines in a bulk by the narrow table's index, the others by the wide one's, merged by date.
    search:
      'select * from (select l.execution_date as d, l.payment_id as k, p.*, l.state as line_state from line_states l' +
      ' join payments p on p.id = l.payment_id where l.company = ? and l.state in (?) union all' +
      ' select p.execution_date, p.id, p.*, p.state from payments p where p.company = ? and p.state in (?))' +
      ' order by d desc, k desc limit 51',
  },
  'every-line': {
    schema: [
      ...EVERY_LINE_TABLE,
      'create index line_states_console_state_ix on line_states (company, state, execution_date, payment_id)',
    ],
    join: EVERY_LINE_JOIN,
    move: narrowMove,
    lines: narrowLines,
    search:
      'select p.*, l.state as line_state from line_states l join payments p on p.id = l.payment_id' +
      ' where l.company = ? and l.state in (?) order by l.execution_date desc, l.payment_id desc limit 51',
  },
  'wide+open-index': {
    schema: [
      'drop index payments_console_state_ix',
      'create index payments_console_open_ix on payments (company, state, execution_date, id) where bulk_id is null',
    ],
    ...WIDE_PATH,
    search: `select * from payments p where company = ? and state in (?) and bulk_id is null ${BY_DATE}`,
  },
  'every-line+open-index': {
    schema: [
      ...EVERY_LINE_TABLE,
      'create index line_states_open_ix on line_states (company, state, execution_date, payment_id) where bulk_id is null',
    ],
    join: EVERY_LINE_JOIN,
    move: narrowMove,
    lines: narrowLines,
    search:
      'select p.*, l.state as line_state from line_states l join payments p on p.id = l.payment_id' +
      ' where l.company = ? and l.state in (?) and l.bulk_id is null order by l.execution_date desc, l.payment_id desc limit 51',
  },
};

function benchLine(f: number, i: number): PaymentInstruction {
  return {
    debtorIban: 'NO9386011117947',
    debtorName: 'Bench AS',
    requestedExecutionDate: DATE as LocalDate,
    endToEndId: `B-${f}-${i}`,
    amount: { minor: BigInt(100 + (i % 1000)), currency: 'NOK' },
    creditorIban: 'NO0612000000009',
    creditorName: 'Creditor AS',
    lineNumber: i + 1,
  };
}

async function seed(path: string, count: number): Promise<void> {
  const db = await openDatabase({ url: `sqlite:${path}` });
  await db.migrate();
  const store = createStore(db, systemClock);
  for (let f = 0; f * 10_000 < count; f++) {
    const payments = Array.from({ length: Math.min(10_000, count - f * 10_000) }, (_, i) => benchLine(f, i));
    const file = { company: COMPANY, fileName: `bench-${f}.csv`, format: 'csv:generic', sizeBytes: 1_000_000 };
    const sha256 = `${String(f).padStart(8, '0')}${'c'.repeat(56)}`;
    await store.files.recordAcceptedFile({ ...file, sha256, receivedAt: new Date() }, payments);
  }
  await db.close();
}

const cpuSince = (t: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};

function measure(name: string, seeded: string, dir: string): Record<string, unknown> {
  const f = form[name];
  if (f === undefined) throw new Error(`no form ${name}: ${FORMS.join(', ')}`);
  const path = join(dir, `${name}.sqlite`);
  copyFileSync(seeded, path);
  const db = new Sqlite(path);
  for (const p of ['journal_mode = WAL', 'foreign_keys = ON', 'synchronous = NORMAL']) db.pragma(p);
  const now = new Date().toISOString();
  const out: Record<string, number> = { fill: 0, join: 0, joinCommit: 0, lines: 0, move: 0, moveCommit: 0 };
  for (const sql of f.schema) db.exec(sql);
  if (name.startsWith('every-line')) {
    // What pickup would add: a narrow row for each line, one transaction a file.
    const t = process.cpuUsage();
    const fill = db.prepare(
      'insert into line_states (payment_id, state, updated_at, company, execution_date) select id, state, updated_at, company, execution_date from payments where file_id = ?',
    );
    for (const fileId of db.prepare('select id from payment_files').pluck().all()) {
      db.exec('begin immediate');
      fill.run(fileId);
      db.exec('commit');
    }
    out.fill = cpuSince(t);
  }
  const bulks = makeBulks(db, now);
  const [joinLines, move, lines] = [db.prepare(f.join), db.prepare(f.move), db.prepare(f.lines)];
  const mark = db.prepare(`update payments set state = 'in_bulk' where id in (${ids(BULK)})`);
  const [begin, commit] = [db.prepare('begin immediate'), db.prepare('commit')];
  for (const b of bulks) {
    begin.run();
    let t = process.cpuUsage();
    const first = name.startsWith('wide') ? [now, b.id] : [b.id, now];
    const joined = joinLines.run(...first, ...b.ids, b.fileId, b.first, b.last).changes;
    if (f.mark) mark.run(...b.ids);
    out.join! += cpuSince(t);
    if (joined !== BULK) throw new Error(`${name}: ${joined} lines joined bulk ${b.id}`);
    t = process.cpuUsage();
    commit.run();
    out.joinCommit! += cpuSince(t);
    t = process.cpuUsage();
    if (lines.all(b.id).length !== BULK) throw new Error(`${name}: request lines of ${b.id}`);
    out.lines! += cpuSince(t);
  }
  for (const [i, b] of bulks.entries()) {
    const to = i % 50 === 7 ? 'RJCT' : 'ACSC';
    begin.run();
    let t = process.cpuUsage();
    if (move.run(to, to, now, b.id).changes !== BULK) throw new Error(`${name}: move of ${b.id}`);
    out.move! += cpuSince(t);
    t = process.cpuUsage();
    commit.run();
    out.moveCommit! += cpuSince(t);
  }
  const search = db.prepare(f.search);
  // The search's company and state, as often as its statement asks for them.
  const args = (state: string): string[] =>
    f.search
      .split('?')
      .slice(1)
      .map((_, i) => (i % 2 === 0 ? COMPANY : state));
  const result: Record<string, unknown> = { form: name };
  for (const [k, v] of Object.entries(out)) result[k] = Math.round(v);
  for (const state of ['ACSC', 'RJCT', 'accepted']) {
    search.all(...args(state));
    const t = process.cpuUsage();
    for (let k = 0; k < 10; k++) search.all(...args(state));
    result[`search${state}Ms`] = Number((cpuSince(t) / 10).toFixed(2));
  }
  result.plan = db
    .prepare(`explain query plan ${f.search}`)
    .all(...args('ACSC'))
    .map((r: Record<string, unknown>) => String(r.detail))
    .join(' | ');
  db.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  return result;
}

interface Bulk {
  id: string;
  fileId: string;
  first: number;
  last: number;
  ids: string[];
}

/** Ten bulks of 1,000 a file, in line order, made before anything is timed. */
function makeBulks(db: SqliteDb, now: string): Bulk[] {
  const insert = db.prepare(
    `insert into bulks (id, file_id, position, company, debtor_iban, execution_date, batch_booking, idempotency_key,
      state, line_count, attempts, created_at, updated_at) values (?, ?, ?, ?, 'NO9386011117947', ?, 1, ?, 'pending', ?, 0, ?, ?)`,
  );
  const span = db.prepare(
    'select id from payments where file_id = ? and line_number between ? and ? order by line_number',
  );
  const bulks: Bulk[] = [];
  const files = db.prepare('select id from payment_files order by sha256').pluck().all() as unknown as string[];
  for (const [f, fileId] of files.entries()) {
    for (let b = 0; b * BULK < 10_000; b++) {
      const [first, last] = [b * BULK + 1, (b + 1) * BULK];
      const lineIds = span.pluck().all(fileId, first, last) as unknown as string[];
      if (lineIds.length !== BULK) continue;
      const id = `bulk-${f}-${b}`;
      insert.run(id, fileId, b, COMPANY, DATE, `key-${id}`, BULK, now, now);
      bulks.push({ id, fileId, first, last, ids: lineIds });
    }
  }
  return bulks;
}

const [countArg, ...names] = process.argv.slice(2);
const count = Number(countArg ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'settle-line-states-'));
try {
  const seeded = join(dir, 'seeded.sqlite');
  await seed(seeded, count);
  for (const name of names.length > 0 ? names : FORMS) console.log(JSON.stringify(measure(name, seeded, dir)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
