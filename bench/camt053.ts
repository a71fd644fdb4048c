// camt.053 writer benchmark (`npm run bench`): 1,000,000 entries through settle's writer beside
// a plain string-template writer of the same document (the practical limit), each in its own
// child process so peak RSS (process.resourceUsage().maxRSS) is its own; its memory must not grow
// with the entry count (the aim: bench/aims.ts). Also measured, on a few entries: xmlbuilder2's streaming
// (createCB) API, which is why settle has its own small writer.
// Both feed a counting sink. Run alone: npx tsx bench/camt053.ts [--quick] [--scale S]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createCB } from 'xmlbuilder2';
import type { LocalDate } from '../src/domain/local-date.js';
import { formatAmount } from '../src/domain/money.js';
import type { Statement, StatementEntry } from '../src/domain/statement.js';
import { writeCamt053 } from '../src/formats/camt053/index.js';
import { escapeText } from '../src/formats/xml/text.js';
import { parseBenchArgs } from './args.js';
import { scaledSize, type Bench, type BenchRow } from './row.js';

type Mode = 'settle' | 'template' | 'xmlbuilder2-cb';
interface ChildResult {
  mode: Mode;
  entries: number;
  /** CPU time (user + system) of the run: stable on a shared machine, unlike wall-clock time. */
  ms: number;
  wallMs: number;
  bytes: number;
  maxRssBytes: number;
}

const d = (s: string): LocalDate => s as LocalDate;

/** Deterministic entries of the shape a real statement has (every optional field present). */
export function* entries(count: number): Generator<StatementEntry> {
  for (let i = 0; i < count; i++) {
    const credit = i % 3 !== 0;
    yield {
      amount: { minor: BigInt((credit ? 1 : -1) * (1000 + ((i * 7919) % 9_999_999))), currency: 'EUR' },
      bookingDate: d('2026-01-05'),
      valueDate: d('2026-01-06'),
      accountServicerRef: `BANKREF-${i}`,
      endToEndId: `E2E-2026-${i}`,
      bankTransactionCode: { domain: 'PMNT', family: credit ? 'RCDT' : 'ICDT', subFamily: 'ESCT' },
      counterparty: {
        name: i % 10 === 0 ? `Müller & Söhne ${i}` : `Counterparty ${i} AS`,
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
      },
      remittance: {
        unstructured: `Invoice ${i} <ref> for services rendered in December`,
        creditorReference: `RF18${i}`,
      },
    };
  }
}

function statement(count: number): Statement {
  return {
    id: 'STMT-BENCH',
    sequenceNumber: 1,
    createdAt: new Date('2026-01-06T02:00:00Z'),
    account: { iban: 'NO9386011117947', currency: 'EUR', name: 'Bench', servicerBic: 'DNBANOKK' },
    fromDate: d('2026-01-05'),
    toDate: d('2026-01-05'),
    openingBalance: { amount: { minor: 0n, currency: 'EUR' }, date: d('2026-01-04') },
    closingBalance: { amount: { minor: 0n, currency: 'EUR' }, date: d('2026-01-05') },
    entries: entries(count),
  };
}

async function settleChunks(count: number): Promise<AsyncIterable<string>> {
  return Promise.resolve(writeCamt053(statement(count)).chunks);
}

/** One Ntry of the template (camt.053 and camt.054 .02 entries are the same element), with its leading line break. */
export function templateEntry(e: StatementEntry): string {
  const negative = e.amount.minor < 0n;
  const amount = formatAmount(negative ? { minor: -e.amount.minor, currency: e.amount.currency } : e.amount);
  const cd = negative ? 'DBIT' : 'CRDT';
  const role = negative ? 'Cdtr' : 'Dbtr';
  const code = e.bankTransactionCode as { domain: string; family: string; subFamily: string };
  return `
      <Ntry>
        <Amt Ccy="${e.amount.currency}">${amount}</Amt>
        <CdtDbtInd>${cd}</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt>
          <Dt>${e.bookingDate}</Dt>
        </BookgDt>
        <ValDt>
          <Dt>${e.valueDate}</Dt>
        </ValDt>
        <AcctSvcrRef>${escapeText(e.accountServicerRef!)}</AcctSvcrRef>
        <BkTxCd>
          <Domn>
            <Cd>${code.domain}</Cd>
            <Fmly>
              <Cd>${code.family}</Cd>
              <SubFmlyCd>${code.subFamily}</SubFmlyCd>
            </Fmly>
          </Domn>
        </BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs>
              <EndToEndId>${escapeText(e.endToEndId!)}</EndToEndId>
            </Refs>
            <RltdPties>
              <${role}>
                <Nm>${escapeText(e.counterparty!.name!)}</Nm>
              </${role}>
              <${role}Acct>
                <Id>
                  <IBAN>${e.counterparty!.iban}</IBAN>
                </Id>
              </${role}Acct>
            </RltdPties>
            <RltdAgts>
              <${role}Agt>
                <FinInstnId>
                  <BIC>${e.counterparty!.bic}</BIC>
                </FinInstnId>
              </${role}Agt>
            </RltdAgts>
            <RmtInf>
              <Ustrd>${escapeText(e.remittance!.unstructured!)}</Ustrd>
              <Strd>
                <CdtrRefInf>
                  <Tp>
                    <CdOrPrtry>
                      <Cd>SCOR</Cd>
                    </CdOrPrtry>
                  </Tp>
                  <Ref>${escapeText(e.remittance!.creditorReference!)}</Ref>
                </CdtrRefInf>
              </Strd>
            </RmtInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>`;
}

/** The practical limit: one template literal per entry, escaping only what needs it. */
async function* templateChunks(count: number): AsyncGenerator<string> {
  let empty = '';
  for await (const c of writeCamt053({ ...statement(0), entries: [] }).chunks) empty += c;
  const cut = empty.lastIndexOf('\n    </Stmt>');
  let buffer = empty.slice(0, cut);
  for (const e of entries(count)) {
    buffer += templateEntry(e);
    if (buffer.length >= 65536) {
      yield buffer;
      buffer = '';
    }
  }
  yield buffer + empty.slice(cut);
}

/** xmlbuilder2's streaming callback API writing the same entry elements. */
function* xmlbuilder2Chunks(count: number): Generator<string> {
  const parts: string[] = [];
  const xml = createCB({ data: (text: string) => void parts.push(text), prettyPrint: true, indent: '  ' });
  xml
    .dec({ version: '1.0', encoding: 'UTF-8' })
    .ele('urn:iso:std:iso:20022:tech:xsd:camt.053.001.02', 'Document')
    .ele('BkToCstmrStmt')
    .ele('Stmt');
  for (const e of entries(count)) {
    const negative = e.amount.minor < 0n;
    const role = negative ? 'Cdtr' : 'Dbtr';
    xml.ele('Ntry');
    xml
      .ele('Amt', { Ccy: 'EUR' })
      .txt(formatAmount(negative ? { minor: -e.amount.minor, currency: 'EUR' } : e.amount))
      .up();
    xml
      .ele('CdtDbtInd')
      .txt(negative ? 'DBIT' : 'CRDT')
      .up()
      .ele('Sts')
      .txt('BOOK')
      .up();
    xml.ele('BookgDt').ele('Dt').txt(e.bookingDate).up().up().ele('ValDt').ele('Dt').txt(e.valueDate!).up().up();
    xml.ele('AcctSvcrRef').txt(e.accountServicerRef!).up();
    xml
      .ele('BkTxCd')
      .ele('Domn')
      .ele('Cd')
      .txt('PMNT')
      .up()
      .ele('Fmly')
      .ele('Cd')
      .txt('RCDT')
      .up()
      .ele('SubFmlyCd')
      .txt('ESCT')
      .up()
      .up()
      .up()
      .up();
    xml.ele('NtryDtls').ele('TxDtls').ele('Refs').ele('EndToEndId').txt(e.endToEndId!).up().up();
    xml.ele('RltdPties').ele(role).ele('Nm').txt(e.counterparty!.name!.replace(/&/g, '&amp;')).up().up();
    xml.ele(`${role}Acct`).ele('Id').ele('IBAN').txt(e.counterparty!.iban!).up().up().up().up();
    xml.ele('RmtInf').ele('Ustrd').txt(e.remittance!.unstructured!).up().up().up().up();
    xml.up();
    if (parts.length > 1000) yield parts.splice(0).join('');
  }
  xml.up().up().up().end();
  yield parts.join('');
}

async function runChild(mode: Mode, count: number): Promise<ChildResult> {
  // A counting sink: each chunk is measured as UTF-8 (which flattens and scans it, as an
  // encoder would) but not written, so 1.5 GB of disk traffic does not blur the comparison.
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const source =
    mode === 'settle'
      ? await settleChunks(count)
      : mode === 'template'
        ? templateChunks(count)
        : xmlbuilder2Chunks(count);
  let bytes = 0;
  for await (const chunk of source) bytes += Buffer.byteLength(chunk, 'utf8');
  const used = process.cpuUsage(cpu);
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  return {
    mode,
    entries: count,
    ms: (used.user + used.system) / 1000,
    wallMs,
    bytes,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

function spawnChild(mode: Mode, count: number): ChildResult {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', mode, String(count)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`bench child ${mode} failed: ${result.stderr}`);
  const last = result.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as ChildResult;
}

async function identicalOn(count: number): Promise<boolean> {
  let a = '';
  for await (const c of await settleChunks(count)) a += c;
  let b = '';
  for await (const c of templateChunks(count)) b += c;
  return a === b;
}

export const bench: Bench = async ({ quick, scale }) => {
  // In tens, so the memory check's run is exactly a tenth.
  const size = quick ? 50_000 : scaledSize(1_000_000, scale, { step: 10, min: 1000 });
  const same = await identicalOn(2_000);
  // Alternated and repeated, best of two each: the machine is shared and a single run is noisy.
  const fastest = (a: ChildResult, b: ChildResult): ChildResult => (a.ms <= b.ms ? a : b);
  const template1 = spawnChild('template', size);
  const settle1 = spawnChild('settle', size);
  const template = fastest(template1, spawnChild('template', size));
  const settle = fastest(settle1, spawnChild('settle', size));
  // Memory must not grow with the entry count: a tenth of the entries, same peak.
  const small = spawnChild('settle', size / 10);
  const cbSize = quick ? 100 : scaledSize(250, scale, { min: 10 });
  const cb = spawnChild('xmlbuilder2-cb', cbSize);
  const rate = (r: ChildResult): number => r.entries / (r.ms / 1000);
  const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;
  const rows: BenchRow[] = [
    {
      key: 'camt053',
      name: `camt.053 writer, ${size.toLocaleString('en')} entries`,
      size,
      unit: 'entries',
      rate: rate(settle),
      baselineName: 'plain string-template writer of the same document',
      baselineRate: rate(template),
      peakRssBytes: settle.maxRssBytes,
      notes:
        `ratio ${(rate(settle) / rate(template)).toFixed(2)} (rates from process CPU time, best of 2; wall-clock ${Math.round(settle.entries / (settle.wallMs / 1000))} vs ${Math.round(template.entries / (template.wallMs / 1000))} entries/s); output ${mb(settle.bytes)}; ` +
        `template peak RSS ${mb(template.maxRssBytes)}; settle peak RSS at ${(size / 10).toLocaleString('en')} entries ${mb(small.maxRssBytes)} (flat = memory does not grow); ` +
        `byte-identical to the template on 2,000 entries: ${same ? 'yes' : 'NO'}`,
    },
    {
      key: 'camt053-xmlbuilder2-cb',
      name: `xmlbuilder2 createCB streaming, ${cbSize} entries`,
      size: cbSize,
      unit: 'entries',
      rate: rate(cb),
      baselineName: 'plain string-template writer of the same document',
      baselineRate: rate(template),
      peakRssBytes: cb.maxRssBytes,
      notes:
        'why settle writes XML with its own small writer (proved byte-identical to xmlbuilder2 in test/formats/writers/xml-identity.test.ts)',
    },
  ];
  return rows;
};

const childAt = process.argv.indexOf('--child');
// Only when this file is the one run: bench/writers.ts imports its entries and has children of its own.
if (childAt !== -1 && process.argv[1] === fileURLToPath(import.meta.url)) {
  const mode = process.argv[childAt + 1] as Mode;
  const count = Number(process.argv[childAt + 2]);
  process.stdout.write(JSON.stringify(await runChild(mode, count)) + '\n');
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { quick, scale } = parseBenchArgs(process.argv.slice(2));
  for (const row of await bench({ quick, scale })) console.log(row);
}
