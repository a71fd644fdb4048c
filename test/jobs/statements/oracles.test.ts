// The exported statements checked by independent programs (shared/iso20022/ORACLES.md):
// xmllint against the official XSDs, aqbanking-cli importing each camt.053 day as a ledger
// program would (same entry count and signed sum as the CSV of the same day), and hledger
// reading the CSV with the rules file shipped in samples/hledger. In CI a missing tool fails.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExportStatements } from '../../../jobs/statements/export.js';
import { runFetchStatements } from '../../../jobs/statements/fetch.js';
import { parseAmount } from '../../../src/domain/money.js';
import { CashManagementEndOfDayReport } from 'iso20022.js';
import {
  aqbankingImportCamt053,
  hledgerCsv,
  itWith,
  ofxstatementIso20022,
  xmllintValidate,
} from '../../support/oracles.js';
import { StatementRepository } from '../../../src/store/index.js';
import { SEED, startStatementHarness, type StatementHarness } from './harness.js';
import { bookOwnPayments, OWN } from './own-payments.js';

const RULES = join(process.cwd(), 'samples/hledger/statement.rules');

interface CsvDay {
  count: number;
  sum: bigint;
}

function csvDay(text: string, decimalSeparator: '.' | ','): CsvDay {
  const rows = parse<Record<string, string>>(text, { delimiter: ';', columns: true });
  let sum = 0n;
  for (const row of rows) {
    const parsed = parseAmount(row.amount ?? '', row.currency ?? '', { decimalSeparator });
    if (!parsed.ok) throw new Error(parsed.message);
    sum += parsed.money.minor;
  }
  return { count: rows.length, sum };
}

/** The account's IBAN from a statement file name: acme-<IBAN>-<day>.<suffix>. */
function ibanOf(name: string): string {
  return name.split('-')[1]!;
}

/** "NOK9001.00" or "NOK-9001.00" from hledger's balance CSV → minor units. */
function hledgerMinor(text: string): bigint {
  const match = /^([A-Z]{3})(-?\d+(?:\.\d+)?)$/.exec(text.replace(/[\s"]/g, ''));
  if (!match) throw new Error(`unexpected hledger amount ${text}`);
  const parsed = parseAmount(match[2]!, match[1]!);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.money.minor;
}

/** An OFX amount ("-1234.5") in minor units of a two-decimal currency. */
function minorOf(amount: string): bigint {
  const parsed = parseAmount(amount, 'NOK');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.money.minor;
}

describe('exported statements read by independent programs', () => {
  let h: StatementHarness;
  let names: string[];
  const read = (name: string) => readFile(join(h.root, 'statements', name));

  beforeAll(async () => {
    h = await startStatementHarness();
    await bookOwnPayments(h);
    // A week: the seeded days, an empty day (the 5th) and the day of the batch, the single payment and its return.
    await runFetchStatements({ ...h.fetchDeps(), initialDays: 7 }, [h.company]);
    await runExportStatements(h.exportDeps(), [h.company]);
    names = (await readdir(join(h.root, 'statements'))).sort();
  });

  afterAll(async () => {
    await h.close();
  });

  it('wrote seven days of statements of both accounts in each of the three formats, days without entries too', () => {
    expect(names.filter((n) => n.endsWith('.camt.053.001.02.xml'))).toHaveLength(14);
    expect(names.filter((n) => n.endsWith('.camt.053.001.08.xml'))).toHaveLength(14);
    expect(names.filter((n) => n.endsWith('.csv'))).toHaveLength(14);
  });

  it('writes the batch, the return and the empty day as the database holds them', async () => {
    const booked = await new StatementRepository(h.db, h.clock).listTransactions(SEED.operatingAccountId, {
      status: 'booked',
      bookingDate: OWN.bookingDay,
    });
    expect(booked).toHaveLength(3);
    const batchTx = booked.find((t) => t.amount.minor === -(OWN.batch.minor[0]! + OWN.batch.minor[1]!))!;
    const returnTx = booked.find((t) => t.returnReason !== undefined)!;
    expect(returnTx).toMatchObject({ returnReason: 'AC04', endToEndId: OWN.single.endToEndId });
    for (const version of ['001.02', '001.08']) {
      const xml = (await read(`acme-${SEED.operatingIban}-${OWN.bookingDay}.camt.053.${version}.xml`)).toString('utf8');
      const flat = xml.replace(/\s+/g, '');
      const entries = flat.split('<Ntry>').slice(1);
      expect(entries).toHaveLength(booked.length);
      const batch = entries.find((e) => e.includes('<Btch>'))!;
      expect(batch).toContain(`<NtryRef>${batchTx.entryReference}</NtryRef>`);
      expect(batch).toContain(
        `<Btch><MsgId>${OWN.messageId}</MsgId><PmtInfId>${OWN.batch.paymentInformationId}</PmtInfId><NbOfTxs>2</NbOfTxs><TtlAmtCcy="NOK">4000.00</TtlAmt><CdtDbtInd>DBIT</CdtDbtInd></Btch>`,
      );
      expect([...batch.matchAll(/<EndToEndId>([^<]+)<\/EndToEndId>/g)].map((m) => m[1])).toEqual(OWN.batch.endToEndIds);
      expect(batch.match(/<TxDtls>/g)).toHaveLength(2);
      const single = entries.find((e) => e.includes('<CdtDbtInd>DBIT</CdtDbtInd>') && !e.includes('<Btch>'))!;
      expect(single).toContain(`<MsgId>${OWN.messageId}</MsgId><AcctSvcrRef>`);
      expect(single).toContain(
        `<PmtInfId>${OWN.single.paymentInformationId}</PmtInfId><EndToEndId>${OWN.single.endToEndId}</EndToEndId>`,
      );
      expect(single).toContain('<AmtDtls><InstdAmt><AmtCcy="NOK">700.00</Amt></InstdAmt></AmtDtls>');
      const returned = entries.find((e) => e.includes('<RtrInf>'))!;
      expect(returned).toContain('<CdtDbtInd>CRDT</CdtDbtInd>');
      expect(returned).toMatch(
        /<RtrInf><Rsn><Cd>AC04<\/Cd><\/Rsn><AddtlInf>Returnedpayment:[^<]+<\/AddtlInf><\/RtrInf>/,
      );
      expect(returned).toContain('<Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>RRTN</SubFmlyCd>');
      expect(flat).toContain('<TxsSummry><TtlNtries><NbOfNtries>3</NbOfNtries>');
      // The day before had no entries: a statement with equal balances and a legal sequence number.
      const empty = (await read(`acme-${SEED.operatingIban}-2026-01-05.camt.053.${version}.xml`)).toString('utf8');
      expect(empty).not.toContain('<Ntry>');
      expect(empty).toMatch(/<LglSeqNb>\d+<\/LglSeqNb>/);
      const amounts = [...empty.matchAll(/<Bal>[\s\S]*?<Amt Ccy="NOK">([\d.]+)<\/Amt>/g)].map((m) => m[1]);
      expect(amounts).toHaveLength(2);
      expect(amounts[0]).toBe(amounts[1]);
    }
  });

  itWith('aqbanking-cli')(
    'aqbanking reads the end-to-end ids of the day with the batch and the return as the database has them',
    async () => {
      const booked = await new StatementRepository(h.db, h.clock).listTransactions(SEED.operatingAccountId, {
        status: 'booked',
        bookingDate: OWN.bookingDay,
      });
      const imported = await aqbankingImportCamt053(
        await read(`acme-${SEED.operatingIban}-${OWN.bookingDay}.camt.053.001.02.xml`),
        2,
      );
      expect(imported.transactions.map((t) => t.minor).sort()).toEqual(booked.map((t) => t.amount.minor).sort());
      const ids = imported.transactions.map((t) => t.endToEndId).filter((id) => id !== '');
      for (const id of [OWN.single.endToEndId]) expect(ids).toContain(id);
    },
  );

  itWith('xmllint')('every camt.053 file is valid against the official XSD of its version', async () => {
    for (const name of names.filter((n) => n.endsWith('.xml'))) {
      const schema = name.includes('001.08') ? 'camt.053.001.08' : 'camt.053.001.02';
      const result = await xmllintValidate(await read(name), schema);
      expect(result, `${name}: ${result.output}`).toMatchObject({ valid: true });
    }
  });

  itWith('aqbanking-cli')(
    'aqbanking imports each camt.053 day with the same entry count and signed sum as the CSV of that day',
    async () => {
      for (const name of names.filter((n) => n.endsWith('.camt.053.001.02.xml'))) {
        const csv = csvDay((await read(name.replace('.camt.053.001.02.xml', '.csv'))).toString('utf8'), '.');
        for (const xmlName of [name, name.replace('001.02', '001.08')]) {
          const imported = await aqbankingImportCamt053(await read(xmlName), 2);
          const sum = imported.transactions.reduce((s, t) => s + t.minor, 0n);
          expect(
            { count: imported.transactions.length, sum, iban: imported.transactions[0]?.localIban },
            xmlName,
          ).toEqual({ count: csv.count, sum: csv.sum, iban: csv.count > 0 ? ibanOf(name) : undefined });
        }
      }
    },
    60_000,
  );

  it('names the servicing bank from the bank directory (Acct/Svcr), read when the account was fetched', async () => {
    for (const name of names.filter((n) => n.endsWith('.xml'))) {
      const xml = (await read(name)).toString('utf8');
      const bic = name.includes('001.08') ? 'BICFI' : 'BIC';
      expect(xml, name).toMatch(
        new RegExp(`<Svcr>\\s*<FinInstnId>\\s*<${bic}>TESTNOK1</${bic}>\\s*<Nm>Test Bank</Nm>`),
      );
    }
  });

  it('iso20022.js reads each camt.053.001.02 day with the same entries, sum, bank references and balances as the CSV', async () => {
    // iso20022.js 0.0.15 reads a servicer only by its .02 element (BIC), so it is given the .02 files.
    for (const name of names.filter((n) => n.endsWith('.camt.053.001.02.xml'))) {
      const csvText = (await read(name.replace('.camt.053.001.02.xml', '.csv'))).toString('utf8');
      const csv = csvDay(csvText, '.');
      const rows = parse<Record<string, string>>(csvText, { delimiter: ';', columns: true });
      const report = CashManagementEndOfDayReport.fromXML((await read(name)).toString('utf8'));
      const [statement] = report.statements;
      const entries = statement!.entries;
      const sum = entries.reduce(
        (s, e) => s + BigInt(Math.round(e.amount)) * (e.creditDebitIndicator === 'debit' ? -1n : 1n),
        0n,
      );
      expect(
        { count: entries.length, sum, iban: 'iban' in statement!.account ? statement!.account.iban : undefined },
        name,
      ).toEqual({
        count: csv.count,
        sum: csv.sum,
        iban: ibanOf(name),
      });
      expect(statement!.agent).toEqual({ bic: 'TESTNOK1' });
      // iso20022.js reads no EndToEndId; the bank's reference of each entry identifies it instead.
      const refs = entries.map((e) => String(e.accountServicerReferenceId ?? ''));
      expect(refs, name).toEqual(rows.map((r) => r.account_servicer_ref ?? ''));
      const balance = (code: string) => {
        const b = statement!.balances.find((x) => x.type === code)!;
        return BigInt(Math.round(b.amount)) * (b.creditDebitIndicator === 'debit' ? -1n : 1n);
      };
      expect(balance('CLBD') - balance('OPBD'), name).toBe(csv.sum);
    }
  });

  itWith('ofxstatement')(
    "ofxstatement's ISO 20022 plugin converts each camt.053.001.02 day with the same entries and sum as the CSV",
    async () => {
      for (const name of names.filter((n) => n.endsWith('.camt.053.001.02.xml'))) {
        const csv = csvDay((await read(name.replace('.camt.053.001.02.xml', '.csv'))).toString('utf8'), '.');
        const ofx = await ofxstatementIso20022(await read(name));
        const sum = ofx.amounts.reduce((s, a) => s + minorOf(a), 0n);
        expect({ count: ofx.amounts.length, sum }, name).toEqual({ count: csv.count, sum: csv.sum });
      }
    },
    120_000,
  );

  itWith('hledger')(
    'hledger reads each CSV with the shipped rules file: same transactions, same balance',
    async () => {
      for (const name of names.filter((n) => n.endsWith('.csv'))) {
        const bytes = await read(name);
        const csv = csvDay(bytes.toString('utf8'), '.');
        const printed = await hledgerCsv(bytes, RULES, ['print']);
        expect(printed.split('\n').filter((l) => /^\d{4}-\d{2}-\d{2} /.test(l))).toHaveLength(csv.count);
        const balance = parse<{ account: string; balance: string }>(
          await hledgerCsv(bytes, RULES, ['balance', '-N', '-O', 'csv']),
          { columns: true },
        );
        // A day without entries has no posting, so hledger shows no balance for the account.
        const bank = balance.find((b) => b.account === `assets:bank:${ibanOf(name)}`);
        expect(bank === undefined ? 0n : hledgerMinor(bank.balance), name).toBe(csv.sum);
        if (csv.count > 0) expect(bank, name).toBeDefined();
      }
    },
    60_000,
  );
});

describe('a CSV export for an older ERP', () => {
  itWith('hledger')(
    'is ISO-8859-1 with decimal commas, and hledger reads it with the shipped rules plus "decimal-mark ,"',
    async () => {
      const h = await startStatementHarness({
        statements: { formats: ['csv'], csv: { encoding: 'iso-8859-1', decimalSeparator: ',', delimiter: ';' } },
      });
      try {
        await runFetchStatements(h.fetchDeps(), [h.company]);
        await runExportStatements(h.exportDeps(), [h.company]);
        const bytes = await readFile(join(h.root, 'statements', 'acme-NO9386011117947-2026-01-04.csv'));
        expect(bytes.includes(Buffer.from('Str\xf8m AS', 'latin1'))).toBe(true); // ø as one ISO-8859-1 byte
        const text = iconv.decode(bytes, 'iso-8859-1');
        expect(text).toContain(';-990,00;DBIT;');
        const rules = join(h.dir, 'statement-comma.rules');
        await writeFile(rules, (await readFile(RULES, 'utf8')) + 'decimal-mark ,\n');
        const balance = parse<{ account: string; balance: string }>(
          await hledgerCsv(Buffer.from(text, 'utf8'), rules, ['balance', '-N', '-O', 'csv']),
          { columns: true },
        );
        expect(balance.find((b) => b.account === 'assets:bank:NO9386011117947')?.balance.replace(',', '.')).toBe(
          'NOK-990.00',
        );
      } finally {
        await h.close();
      }
    },
    60_000,
  );
});
