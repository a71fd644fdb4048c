// The camt.054 and pain.002 writers (`npm run bench`), measured as bench/camt053.ts measures
// camt.053: the writer into a counting sink beside a plain string template of the same document,
// each in a child process of its own, rates per CPU second, each side run twice in turns and the
// faster kept, the two documents proved byte-identical on 2,000 entries or lines. Both writers
// return the whole document (a notification is one account-day, a status report one file), so the
// input is built before the clock starts on either side. Run alone: npx tsx bench/writers.ts --child MODE N
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { formatAmount } from '../src/domain/money.js';
import type { Notification } from '../src/domain/notification.js';
import type { PaymentStatusLine, PaymentStatusReport } from '../src/domain/payment-status.js';
import { writeCamt054 } from '../src/formats/camt054/index.js';
import { writePain002 } from '../src/formats/pain002/index.js';
import { formatDateTime } from '../src/formats/xml/date-time.js';
import { escapeText } from '../src/formats/xml/text.js';
import { entries, templateEntry } from './camt053.js';
import { scaledSize, type Bench, type BenchRow } from './row.js';

type Mode = 'camt054' | 'camt054-template' | 'pain002' | 'pain002-template';
interface ChildResult {
  mode: Mode;
  items: number;
  /** CPU time (user + system) of the writing alone. */
  ms: number;
  wallMs: number;
  bytes: number;
}

/** A credit notification of `count` entries, as the statement bench's entries (every optional field). */
function notification(count: number): Notification {
  return {
    kind: 'credit',
    id: 'NTF-BENCH',
    sequenceNumber: 1,
    createdAt: new Date('2026-01-06T02:00:00Z'),
    account: { iban: 'NO9386011117947', currency: 'EUR', name: 'Bench', servicerBic: 'DNBANOKK' },
    fromDate: '2026-01-05' as Notification['fromDate'],
    toDate: '2026-01-05' as Notification['toDate'],
    entries: [...entries(count)],
  };
}

/** The same notification through a template: the head and summary, then one template literal per entry. */
function camt054Template(n: Notification): string {
  const empty = writeCamt054({ ...n, entries: [] }).text;
  const head = empty.slice(0, empty.indexOf('\n      <TxsSummry>'));
  let sum = 0n;
  let total = 0n;
  for (const e of n.entries) {
    sum += e.amount.minor;
    total += e.amount.minor < 0n ? -e.amount.minor : e.amount.minor;
  }
  const currency = n.account.currency;
  let out = `${head}
      <TxsSummry>
        <TtlNtries>
          <NbOfNtries>${n.entries.length}</NbOfNtries>
          <Sum>${formatAmount({ minor: total, currency })}</Sum>
          <TtlNetNtryAmt>${formatAmount({ minor: sum < 0n ? -sum : sum, currency })}</TtlNetNtryAmt>
          <CdtDbtInd>${sum < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        </TtlNtries>
      </TxsSummry>`;
  for (const e of n.entries) out += templateEntry(e);
  return out + empty.slice(empty.lastIndexOf('\n    </Ntfctn>'));
}

const TIME = Date.parse('2026-01-06T03:00:00Z');

/** A status report of one file of `count` lines in one group: one line in 50 refused, the rest booked. */
function statusReport(count: number): PaymentStatusReport {
  const lines: PaymentStatusLine[] = [];
  for (let i = 0; i < count; i++) {
    const refused = i % 50 === 49;
    lines.push({
      lineNumber: i + 1,
      endToEndId: `E2E-2026-${i}`,
      originalInstructionId: `INSTR-${i}`,
      status: refused ? 'RJCT' : 'ACSC',
      ...(refused ? { reasonCodes: ['AC04'], reasonText: `Account closed & moved, line ${i + 1}` } : {}),
      bankPaymentId: `BP-${i}`,
      amount: { minor: BigInt(1000 + ((i * 7919) % 9_999_999)), currency: 'NOK' },
      time: new Date(TIME + i * 1000),
    });
  }
  return {
    messageId: 'STS-BENCH',
    initiatingParty: { name: 'ACME AS', organisationNumber: '999999999' },
    createdAt: new Date('2026-01-06T04:00:00Z'),
    originalMessageId: 'MSG-BENCH',
    originalMessageNameId: 'pain.001.001.09',
    groups: [{ originalPaymentInformationId: 'PMT-BENCH', lines }],
  };
}

/** The same status report through a template: the head as written, then one template literal per line. */
function pain002Template(report: PaymentStatusReport): string {
  const group = report.groups[0]!;
  const status = group.lines.some((l) => l.status === 'RJCT') ? 'PART' : 'ACSC';
  let out = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.03">
  <CstmrPmtStsRpt>
    <GrpHdr>
      <MsgId>${report.messageId}</MsgId>
      <CreDtTm>${formatDateTime(report.createdAt)}</CreDtTm>
      <InitgPty>
        <Nm>${report.initiatingParty!.name}</Nm>
        <Id>
          <OrgId>
            <Othr>
              <Id>${report.initiatingParty!.organisationNumber}</Id>
            </Othr>
          </OrgId>
        </Id>
      </InitgPty>
    </GrpHdr>
    <OrgnlGrpInfAndSts>
      <OrgnlMsgId>${report.originalMessageId}</OrgnlMsgId>
      <OrgnlMsgNmId>${report.originalMessageNameId}</OrgnlMsgNmId>
      <GrpSts>${status}</GrpSts>
    </OrgnlGrpInfAndSts>
    <OrgnlPmtInfAndSts>
      <OrgnlPmtInfId>${group.originalPaymentInformationId}</OrgnlPmtInfId>
      <PmtInfSts>${status}</PmtInfSts>`;
  for (const l of group.lines) {
    const accepted =
      l.status === 'RJCT'
        ? `
        <StsRsnInf>
          <Rsn>
            <Cd>${l.reasonCodes![0]}</Cd>
          </Rsn>
          <AddtlInf>${escapeText(l.reasonText!)}</AddtlInf>
        </StsRsnInf>`
        : `
        <AccptncDtTm>${formatDateTime(l.time)}</AccptncDtTm>`;
    out += `
      <TxInfAndSts>
        <OrgnlInstrId>${escapeText(l.originalInstructionId!)}</OrgnlInstrId>
        <OrgnlEndToEndId>${escapeText(l.endToEndId)}</OrgnlEndToEndId>
        <TxSts>${l.status}</TxSts>${accepted}
        <AcctSvcrRef>${escapeText(l.bankPaymentId!)}</AcctSvcrRef>
        <OrgnlTxRef>
          <Amt>
            <InstdAmt Ccy="${l.amount!.currency}">${formatAmount(l.amount!)}</InstdAmt>
          </Amt>
        </OrgnlTxRef>
      </TxInfAndSts>`;
  }
  return (
    out +
    `
    </OrgnlPmtInfAndSts>
  </CstmrPmtStsRpt>
</Document>`
  );
}

function write(mode: Mode, count: number): () => string {
  if (mode === 'camt054' || mode === 'camt054-template') {
    const input = notification(count);
    return mode === 'camt054' ? () => writeCamt054(input).text : () => camt054Template(input);
  }
  const input = statusReport(count);
  return mode === 'pain002' ? () => writePain002(input).xml : () => pain002Template(input);
}

function runChild(mode: Mode, count: number): ChildResult {
  const run = write(mode, count);
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  // The counting sink: measured as UTF-8, which flattens and scans the text as an encoder would.
  const bytes = Buffer.byteLength(run(), 'utf8');
  const used = process.cpuUsage(cpu);
  return {
    mode,
    items: count,
    ms: (used.user + used.system) / 1000,
    wallMs: Number(process.hrtime.bigint() - start) / 1e6,
    bytes,
  };
}

function spawnChild(mode: Mode, count: number): ChildResult {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', mode, String(count)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (result.status !== 0) throw new Error(`bench child ${mode} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '') as ChildResult;
}

function identical(writer: Mode, template: Mode): boolean {
  return write(writer, 2000)() === write(template, 2000)();
}

function row(key: 'camt054' | 'pain002', size: number, unit: string, what: string): BenchRow {
  const template = `${key}-template` as Mode;
  const same = identical(key, template);
  const fastest = (a: ChildResult, b: ChildResult): ChildResult => (a.ms <= b.ms ? a : b);
  const t1 = spawnChild(template, size);
  const s1 = spawnChild(key, size);
  const t = fastest(t1, spawnChild(template, size));
  const s = fastest(s1, spawnChild(key, size));
  const rate = (r: ChildResult): number => r.items / (r.ms / 1000);
  const wall = (r: ChildResult): number => Math.round(r.items / (r.wallMs / 1000));
  return {
    key,
    name: `${what} writer, ${size.toLocaleString('en')} ${unit}`,
    size,
    unit,
    rate: rate(s),
    baselineName: 'plain string-template writer of the same document',
    baselineRate: rate(t),
    peakRssBytes: 0,
    notes:
      `ratio ${(rate(s) / rate(t)).toFixed(2)} (rates from the CPU time of the writing, best of 2; wall-clock ${wall(s)} vs ${wall(t)} ${unit}/s); ` +
      `output ${(s.bytes / 1048576).toFixed(0)} MB; byte-identical to the template on 2,000 ${unit}: ${same ? 'yes' : 'NO'}`,
  };
}

export const bench: Bench = ({ quick, scale }) => {
  // Whole documents in memory: 100,000 entries make a string of about 150 MB.
  const size = quick ? 10_000 : scaledSize(100_000, scale, { step: 10, min: 1000 });
  return Promise.resolve([
    row('camt054', size, 'entries', 'camt.054'),
    row('pain002', size, 'transactions', 'pain.002'),
  ]);
};

const childAt = process.argv.indexOf('--child');
if (childAt !== -1) {
  const mode = process.argv[childAt + 1] as Mode;
  process.stdout.write(JSON.stringify(runChild(mode, Number(process.argv[childAt + 2]))) + '\n');
}
