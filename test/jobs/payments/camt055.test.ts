// A camt.055 cancellation request dropped in the inbox, through the real pickup, the cancellation
// use case, the store and the sandbox bank: each named line is cancelled (or refused, located),
// and the answer is a camt.029 in the status folder, valid against its official XSD (xmllint, the
// required oracle) and read back with XPath. A malformed camt.055 is refused whole, located.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { answerCamt055 } from '../../../jobs/cancel/camt055-intake.js';
import { runPickup, type PickupDeps } from '../../../jobs/pickup/pickup.js';
import { runStatus } from '../../../jobs/status/poll.js';
import { runStatusReport } from '../../../jobs/status/report.js';
import type { BankClient } from '../../../src/bank/index.js';
import { SEED } from '../../../src/sandbox/index.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { itWith, xmllintValidate, xmllintXpath } from '../../support/oracles.js';
import { APPROVAL_IBAN, bankBulks, createWorld, worldPickupDeps, type World } from './world.js';

function camt055(version: '01' | '08' | '09', e2eIds: readonly string[], id = 'CXL-1'): string {
  const txs = e2eIds
    .map(
      (e2e, i) =>
        `<TxInf><CxlId>C${i + 1}</CxlId><OrgnlEndToEndId>${e2e}</OrgnlEndToEndId><CxlRsnInf><Rsn><Cd>CUST</Cd></Rsn><AddtlInf>wrong invoice</AddtlInf></CxlRsnInf></TxInf>`,
    )
    .join('\n   ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.055.001.${version}">
<CstmrPmtCxlReq>
 <Assgnmt><Id>${id}</Id><Assgnr><Pty><Nm>ACME AS</Nm></Pty></Assgnr><Assgne><Pty><Nm>Bank</Nm></Pty></Assgne><CreDtTm>2026-01-05T09:00:00</CreDtTm></Assgnmt>
 <Case><Id>CASE-${id}</Id><Cretr><Pty><Nm>ACME AS</Nm></Pty></Cretr></Case>
 <Undrlyg><OrgnlPmtInfAndCxl><OrgnlPmtInfId>PMT-1</OrgnlPmtInfId><OrgnlGrpInf><OrgnlMsgId>MSG-1</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId></OrgnlGrpInf>
   ${txs}
 </OrgnlPmtInfAndCxl></Undrlyg>
</CstmrPmtCxlReq></Document>
`;
}

const SANDBOX_ORG = SEED.resourceGroupName;

describe('camt.055 cancellation requests from the ERP', () => {
  let w: World;
  let pickup: PickupDeps;

  beforeEach(async () => {
    w = await createWorld({ company: { intake: { stableFor: '1s' } } });
    await mkdir(join(w.company.root, 'inbox'), { recursive: true });
    pickup = worldPickupDeps(w, {
      cancellationRequest: (company, file) =>
        answerCamt055(
          { store: w.store, bank: w.bank, logger: w.logger, clock: w.clock, companies: [w.company] },
          company,
          file,
        ),
    });
  });
  afterEach(async () => w.close());

  const drop = (name: string, body: string) => writeFile(join(w.company.root, 'inbox', name), body);
  const status = (name: string) => readFile(join(w.company.root, 'status', name), 'utf8');

  for (const [version, answer] of [
    ['09', '001.09'],
    ['08', '001.09'],
    ['01', '001.03'],
  ] as const) {
    itWith('xmllint')(
      `camt.055.001.${version}: cancels what waits, refuses ACSP located, answers in an XSD-valid camt.029.${answer}`,
      async () => {
        // pay-1 waits for approval (RCVD); pay-2 has left (ACSP).
        await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }, { debtorIban: APPROVAL_IBAN }]);
        await w.acceptFile('pay-2.csv', [{}]);
        await runSubmit(w.deps('s1'), [w.company]);
        w.advance(60_000);
        await runStatus(w.deps('st'), [w.company]);
        const request = camt055(version, ['E2E-1-1', 'E2E-2-1', 'NO-SUCH-ID']);
        expect((await xmllintValidate(request, `camt.055.001.${version}`)).valid).toBe(true);
        await drop('cancel-1.xml', request);

        const [picked] = await runPickup(pickup, [w.company]);
        const name = `cancel-1.xml.camt.029.${answer}.xml`;
        expect(picked).toMatchObject({ outcome: 'cancellation', payments: 0, report: `status/${name}` });
        expect(await readdir(join(w.company.root, 'inbox'))).toEqual([]);
        expect(await w.store.files.listFiles({ company: 'acme' })).toHaveLength(2);

        // The bank cancelled pay-1's bulk; its other line goes again once.
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-1'))?.state).toBe('CANC');
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-2'))?.state).toBe('queued');
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-2-1'))?.state).toBe('ACSP');
        await runSubmit(w.deps('s2'), [w.company]);
        const live = (await bankBulks(w))
          .filter((b) => b.transactionStatus !== 'CANC')
          .flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification))
          .sort();
        expect(live).toEqual(['E2E-1-2', 'E2E-2-1']);

        const xml = await status(name);
        const valid = await xmllintValidate(xml, `camt.029.${answer}`);
        expect(valid.output).toContain('validates');
        expect(valid.valid).toBe(true);
        const x = (path: string) => xmllintXpath(xml, path);
        const tx = (i: number, leaf: string) =>
          x(`string(//*[local-name()='TxInfAndSts'][${i}]/*[local-name()='${leaf}'])`);
        expect(await x("string(//*[local-name()='RslvdCase']/*[local-name()='Id'])")).toBe('CASE-CXL-1');
        expect(await x("string(//*[local-name()='Sts']/*[local-name()='Conf'])")).toBe('PECR');
        expect([await tx(1, 'OrgnlEndToEndId'), await tx(1, 'TxCxlSts')]).toEqual(['E2E-1-1', 'ACCR']);
        expect([await tx(2, 'OrgnlEndToEndId'), await tx(2, 'TxCxlSts')]).toEqual(['E2E-2-1', 'RJCR']);
        // The request id (a 36-character UUID) is not cut to the 35 of CxlStsId: its stand-in is
        // written, stored, and spelled out beside it.
        const cxlStsId = await tx(1, 'CxlStsId');
        expect(cxlStsId).toMatch(/^STL-[0-9A-F]{20}$/);
        const requestId = await w.store.shortIdentifiers.fullId(cxlStsId);
        expect((await w.store.cancellations.get(requestId!))?.ref).toBe('E2E-1-1');
        expect(await x("string(//*[local-name()='TxInfAndSts'][1]//*[local-name()='AddtlInf'][1])")).toBe(
          `CxlStsId ${cxlStsId} = ${requestId}`,
        );
        expect(await x("string(//*[local-name()='TxInfAndSts'][2]//*[local-name()='Prtry'])")).toBe('ACSP');
        const why = await x("string(//*[local-name()='TxInfAndSts'][2]//*[local-name()='AddtlInf'][1])");
        expect(why).toMatch(
          /^cancel-1\.xml line \d+ \(\/Document\[1\]\/CstmrPmtCxlReq\[1\]\/Undrlyg\[1\]\/OrgnlPmtInfAndCxl\[1\]\/TxInf\[2\]\)/,
        );
        const all = await x("string(//*[local-name()='TxInfAndSts'][2]/*[local-name()='CxlStsRsnInf'])");
        expect(all).toMatch(/accepted it for execution \(ACSP\)/);
        expect([await tx(3, 'TxCxlSts')]).toEqual(['RJCR']);
        expect(await x("string(//*[local-name()='TxInfAndSts'][3]//*[local-name()='Prtry'])")).toBe('NOT_FOUND');

        // Who asked is recorded: the ERP, with its message id.
        const trail = await w.store.audit.list();
        expect(trail.find((e) => e.action === 'payment.cancel')).toMatchObject({
          actor: 'erp:acme (ACME AS)',
          reason: 'camt.055 CXL-1: CUST: wrong invoice',
        });
        // The same request dropped again is answered the same, and nothing more is cancelled.
        await drop('cancel-1-again.xml', request);
        await runPickup(pickup, [w.company]);
        const again = await status(`cancel-1-again.xml.camt.029.${answer}.xml`);
        expect(await xmllintXpath(again, "string(//*[local-name()='TxInfAndSts'][1]/*[local-name()='TxCxlSts'])")).toBe(
          'ACCR',
        );
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-2'))?.state).not.toBe('CANC');
      },
      60_000,
    );
  }

  itWith('xmllint')(
    'a request the bank leaves pending is answered PDCR, then once with a final camt.029 when the bank cancels or goes on',
    async () => {
      await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }]);
      await w.acceptFile('pay-2.csv', [{}]);
      await runSubmit(w.deps('s1'), [w.company]);
      // A bank that takes the DELETE and decides later: its answer is the bulk as it is (RCVD).
      // Only this call stands in for the bank; everything else is the sandbox over HTTP.
      const later: BankClient = Object.create(w.bank) as BankClient;
      later.cancelBulkPayment = (_group, paymentId) =>
        Promise.resolve({ paymentId, transactionStatus: 'RCVD', tppMessages: [], raw: {} });
      const pending = worldPickupDeps(w, {
        cancellationRequest: (company, file) =>
          answerCamt055(
            { store: w.store, bank: later, logger: w.logger, clock: w.clock, companies: [w.company] },
            company,
            file,
          ),
      });
      await drop('cancel-p.xml', camt055('09', ['E2E-1-1', 'E2E-2-1'], 'CXL-P'));
      await runPickup(pending, [w.company]);
      const first = await status('cancel-p.xml.camt.029.001.09.xml');
      const sts = (xml: string, i: number) =>
        xmllintXpath(xml, `string(//*[local-name()='TxInfAndSts'][${i}]/*[local-name()='TxCxlSts'])`);
      expect([await sts(first, 1), await sts(first, 2)]).toEqual(['PDCR', 'PDCR']);
      const finals = async () =>
        (await readdir(join(w.company.root, 'status'))).filter((f) => f.startsWith('cancel-p.xml.final-'));
      await runStatusReport(w.deps('r0'), [w.company]);
      expect(await finals()).toEqual([]);

      // The bank decides: pay-1's bulk is cancelled (the sandbox, over HTTP); pay-2's is executed.
      const [bulk1, bulk2] = await bankBulks(w);
      await w.bank.cancelBulkPayment(SANDBOX_ORG, bulk1!.paymentId);
      w.advance(2 * 86_400_000 + 12 * 3_600_000);
      await runStatus(w.deps('st'), [w.company]);
      expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-1'))?.state).toBe('CANC');
      expect(bulk2!.paymentLines[0]!.endToEndIdentification).toBe('E2E-2-1');
      expect((await w.store.payments.findByEndToEndId('acme', 'E2E-2-1'))?.state).not.toBe('CANC');

      await runStatusReport(w.deps('r1'), [w.company]);
      const written = await finals();
      expect(written).toHaveLength(2);
      const answers = await Promise.all(written.map((f) => status(f)));
      for (const xml of answers) expect((await xmllintValidate(xml, 'camt.029.001.09')).valid).toBe(true);
      const byId = new Map<string, string>();
      for (const xml of answers)
        byId.set(
          await xmllintXpath(xml, "string(//*[local-name()='OrgnlEndToEndId'])"),
          `${await sts(xml, 1)} ${await xmllintXpath(xml, "string(//*[local-name()='Sts']/*[local-name()='Conf'])")}`,
        );
      expect(Object.fromEntries(byId)).toEqual({ 'E2E-1-1': 'ACCR CNCL', 'E2E-2-1': 'RJCR RJCR' });
      const refused = answers.find((xml) => xml.includes('E2E-2-1'))!;
      expect(refused).toContain('CASE-CXL-P');
      expect(refused).toMatch(/cancel-p\.xml: the bank did not cancel it: the payment went on to AC/);
      // Once only: the next report writes nothing more.
      await runStatusReport(w.deps('r2'), [w.company]);
      expect(await finals()).toEqual(written);
    },
    60_000,
  );

  itWith('xmllint')('a malformed camt.055 is refused whole, located, and nothing in it is done', async () => {
    await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }]);
    await runSubmit(w.deps('s1'), [w.company]);
    const broken = camt055('09', ['E2E-1-1']).replace('<OrgnlEndToEndId>E2E-1-1</OrgnlEndToEndId>', '');
    await drop('cancel-bad.xml', broken);
    const [picked] = await runPickup(pickup, [w.company]);
    expect(picked).toMatchObject({ outcome: 'rejected', movedTo: 'error/cancel-bad.xml' });
    const report = await readFile(join(w.company.root, 'error/cancel-bad.xml.errors.txt'), 'utf8');
    expect(report).toMatch(
      /ERR_CAMT055_INVALID[\s\S]*line 7 \/Document\[1\]\/CstmrPmtCxlReq\[1\]\/Undrlyg\[1\]\/OrgnlPmtInfAndCxl\[1\]\/TxInf\[1\]\/OrgnlEndToEndId: OrgnlEndToEndId is missing/,
    );
    expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-1'))?.state).toBe('RCVD');

    await drop('cancel-junk.xml', '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.055.001.09"><CstmrPmtCxlReq>');
    const [junk] = await runPickup(pickup, [w.company]);
    expect(junk).toMatchObject({ outcome: 'rejected' });
    expect(await readFile(join(w.company.root, 'error/cancel-junk.xml.errors.txt'), 'utf8')).toMatch(
      /line 1 .*not well-formed XML/,
    );
  });

  // An ERP that calls off its payment run names every line of it. Each line cancelled alone made
  // the bulk's other lines go again in a new bulk, which the next line cancelled again: a bulk and
  // a request per line, and the lines moved n²/2 times.
  for (const [named, left] of [
    [30, 0],
    [20, 10],
  ] as const)
    itWith('xmllint')(
      `a camt.055 naming ${named} of a bulk's 30 lines cancels them with at most two requests and two new bulks`,
      async () => {
        await w.acceptFile(
          'run.csv',
          Array.from({ length: 30 }, () => ({ debtorIban: APPROVAL_IBAN })),
        );
        await runSubmit(w.deps('s1'), [w.company]);
        const e2e = Array.from({ length: named }, (_, i) => `E2E-1-${i + 1}`);
        const answer = await answerCamt055(
          { store: w.store, bank: w.bank, logger: w.logger, clock: w.clock, companies: [w.company] },
          w.company,
          { name: 'call-off.xml', xml: camt055('09', e2e, 'CXL-RUN') },
        );
        if (!answer.ok) throw new Error('refused');
        expect(answer.transactions.map((t) => [t.originalEndToEndId, t.status])).toEqual(e2e.map((id) => [id, 'ACCR']));
        expect((await xmllintValidate(answer.camt029.xml, 'camt.029.001.09')).valid).toBe(true);
        const lines = await w.store.payments.listByFile((await w.store.files.listFiles({ company: 'acme' }))[0]!.id);
        expect(lines.filter((l) => l.state === 'CANC')).toHaveLength(named);
        const waiting = lines.filter((l) => l.state !== 'CANC');
        expect(waiting).toHaveLength(left);
        // What is left waits in one bulk, to go once.
        expect(new Set(waiting.map((l) => l.bulkId)).size).toBe(left === 0 ? 0 : 1);
        const requests = await w.store.cancellations.listByErpMessage('acme', 'CXL-RUN');
        expect(requests.length).toBeLessThanOrEqual(2);
        expect(requests.flatMap((r) => r.paymentIds).sort()).toEqual(
          lines
            .filter((l) => l.state === 'CANC')
            .map((l) => l.id)
            .sort(),
        );
        const bulks = await w.store.bulks.listByFile(lines[0]!.fileId);
        expect(bulks.length).toBeLessThanOrEqual(left === 0 ? 2 : 3);
        await runSubmit(w.deps('s2'), [w.company]);
        const live = (await bankBulks(w)).filter((b) => b.transactionStatus !== 'CANC');
        expect(live.flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification)).sort()).toEqual(
          Array.from({ length: left }, (_, i) => `E2E-1-${named + i + 1}`).sort(),
        );
      },
      60_000,
    );
});
