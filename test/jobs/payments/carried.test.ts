// What settle reads that changes a payment reaches the bank intact, and what validate reports is
// what pickup sends: a pain.001 and a pain001py CSV with ultimate parties, a purpose, a creditor
// BIC, a KID and Norwegian letters go through `settle validate` and through pickup → submit, and the
// sandbox's record of the bulk request shows every carried element as validate reported it (names
// transliterated where validate said so, with the company's intake.charset). A line in another
// currency than its debtor account's is refused at pickup, where the account directory knows the
// account's currency, not by the bank after it was sent.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debtorAccountCheck } from '../../../jobs/accounts/debtor-check.js';
import { directoryOncePerRun, isUnreachable } from '../../../jobs/accounts/directory.js';
import { runPickup, type PickupDeps } from '../../../jobs/pickup/pickup.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { runValidate } from '../../../src/cli/commands/validate.js';
import type { IntakeJson } from '../../../src/formats/intake/index.js';
import { SEED } from '../../../src/sandbox/index.js';
import { FIXTURES, PROFILES } from '../../formats/intake/helpers.js';
import { createWorld, worldPickupDeps, type World } from './world.js';

const NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';
const PAIN001 = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${NS}"><CstmrCdtTrfInitn>
<GrpHdr><MsgId>MSG-C1</MsgId><CreDtTm>2026-01-05T08:00:00</CreDtTm><NbOfTxs>2</NbOfTxs><CtrlSum>350.00</CtrlSum><InitgPty><Nm>ACME AS</Nm></InitgPty></GrpHdr>
<PmtInf><PmtInfId>B-1</PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>2</NbOfTxs><CtrlSum>350.00</CtrlSum>
<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf><ReqdExctnDt><Dt>2026-01-07</Dt></ReqdExctnDt>
<Dbtr><Nm>ACME AS</Nm></Dbtr><DbtrAcct><Id><IBAN>${SEED.operatingIban}</IBAN></Id></DbtrAcct>
<DbtrAgt><FinInstnId><BICFI>DNBANOKKXXX</BICFI></FinInstnId></DbtrAgt>
<UltmtDbtr><Nm>ACME Holding AS</Nm></UltmtDbtr><ChrgBr>SLEV</ChrgBr>
<CdtTrfTxInf><PmtId><InstrId>I-1</InstrId><EndToEndId>C-E2E-1</EndToEndId></PmtId><Amt><InstdAmt Ccy="NOK">250.00</InstdAmt></Amt>
<CdtrAgt><FinInstnId><BICFI>DNBANOKKXXX</BICFI></FinInstnId></CdtrAgt><Cdtr><Nm>Tromsø Fisk AS</Nm><PstlAdr><TwnNm>Tromsø</TwnNm></PstlAdr></Cdtr>
<CdtrAcct><Id><IBAN>NO0612000000009</IBAN></Id></CdtrAcct><UltmtCdtr><Nm>Fisk Gruppen Nord AS</Nm></UltmtCdtr><Purp><Cd>SUPP</Cd></Purp>
<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>2345676</Ref></CdtrRefInf></Strd></RmtInf></CdtTrfTxInf>
<CdtTrfTxInf><PmtId><EndToEndId>C-E2E-2</EndToEndId></PmtId><Amt><InstdAmt Ccy="NOK">100.00</InstdAmt></Amt>
<Cdtr><Nm>Kontor Sør AS</Nm></Cdtr><CdtrAcct><Id><IBAN>NO6315061111112</IBAN></Id></CdtrAcct>
<UltmtDbtr><Nm>ACME Eiendom AS</Nm></UltmtDbtr><RmtInf><Ustrd>Faktura 17, Tromsø</Ustrd></RmtInf></CdtTrfTxInf>
</PmtInf></CstmrCdtTrfInitn></Document>
`;

interface RecordedLine {
  endToEndIdentification: string;
  instructedAmount: { currency: string; amount: string };
  creditorName: string;
  [field: string]: unknown;
}

describe('carried to the bank intact, as validate reported', () => {
  let w: World;
  let config: string;

  beforeEach(async () => {
    // The company allows the EPC set only: Norwegian letters are transliterated, and reported.
    w = await createWorld({
      company: { banks: [{ bankId: 'testbank' }], intake: { stableFor: '1s', charset: 'sepa', profile: 'pain001py' } },
    });
    await mkdir(join(w.company.root, 'inbox'), { recursive: true });
    // What the nightly read of the bank's consents records: the company's consent at its bank.
    await w.store.consents.record({
      company: w.company.id,
      bankId: 'testbank',
      consentId: SEED.consentId,
      status: 'Authorized',
      statusAt: w.clock.now(),
      source: 'bank',
    });
    config = join(w.dir, 'settle.yaml');
    await writeFile(
      config,
      `companies:\n  - id: acme\n    name: ACME AS\n    organisationNumber: "999999999"\n    root: ${w.company.root}\n    intake:\n      charset: sepa\n      profile: pain001py\n`,
    );
  });
  afterEach(async () => w.close());

  const pickupDeps = (): PickupDeps => {
    const read = directoryOncePerRun({ store: w.store, bank: w.bank, clock: w.clock, logger: w.logger });
    return worldPickupDeps(w, {
      debtorAccounts: async (company) => {
        const directory = await read(company);
        return isUnreachable(directory) ? directory : debtorAccountCheck(company, directory);
      },
    });
  };

  async function validate(file: string): Promise<IntakeJson> {
    const out: string[] = [];
    const outcome = await runValidate(
      file,
      { json: true, config },
      { profileDirs: [PROFILES], clock: w.clock, cwd: w.dir },
      { out: (t) => void out.push(t), err: (t) => void out.push(t) },
    );
    expect(outcome.exitCode, out.join('')).toBe(0);
    return JSON.parse(out.join('')) as IntakeJson;
  }

  /** The texts validate said it changed, as "before → after" pairs. */
  const changed = (report: IntakeJson): [string, string][] =>
    report.issues
      .filter((i) => i.code === 'CHARSET_TRANSLITERATED')
      .map((i) => /"(.*)" → "(.*)"$/.exec(i.message)!.slice(1, 3) as [string, string]);

  async function sent(): Promise<RecordedLine[]> {
    const body = (await w.control('/payments')) as { payments: { paymentLines: RecordedLine[] }[] };
    return body.payments.flatMap((b) => b.paymentLines);
  }

  it('a pain.001: ultimate parties, purpose, BIC and KID reach the bank; names as validate changed them', async () => {
    const file = join(w.company.root, 'inbox', 'pay.xml');
    await writeFile(file, PAIN001);
    const report = await validate(file);
    expect(report.payments).toBe(2);
    expect(changed(report)).toEqual([
      ['Tromsø Fisk AS', 'Tromso Fisk AS'],
      ['Kontor Sør AS', 'Kontor Sor AS'],
      ['Faktura 17, Tromsø', 'Faktura 17, Tromso'],
    ]);

    expect((await runPickup(pickupDeps(), [w.company])).map((p) => p.outcome)).toEqual(['accepted']);
    expect((await runSubmit(w.deps('s1'), [w.company])).bulks.map((b) => b.outcome)).toEqual(['sent']);
    const lines = await sent();
    expect(lines.map((l) => [l.instructedAmount.currency, l.instructedAmount.amount])).toEqual(
      report.totals.length === 1
        ? [
            ['NOK', '250.00'],
            ['NOK', '100.00'],
          ]
        : [],
    );
    expect(report.totals).toEqual([{ currency: 'NOK', amount: '350.00' }]);
    expect(lines[0]).toMatchObject({
      endToEndIdentification: 'C-E2E-1',
      creditorAccount: { iban: 'NO0612000000009' },
      creditorAgent: 'DNBANOKKXXX',
      creditorName: 'Tromso Fisk AS',
      ultimateDebtor: 'ACME Holding AS',
      ultimateCreditor: 'Fisk Gruppen Nord AS',
      purposeCode: 'SUPP',
      remittanceInformationUnstructured: null,
      remittanceInformationStructured: { reference: '2345676', referenceType: 'KID' },
    });
    expect(lines[1]).toMatchObject({
      endToEndIdentification: 'C-E2E-2',
      creditorAgent: null,
      creditorName: 'Kontor Sor AS',
      ultimateDebtor: 'ACME Eiendom AS',
      ultimateCreditor: null,
      purposeCode: null,
      remittanceInformationUnstructured: 'Faktura 17, Tromso',
      remittanceInformationStructured: null,
    });
  });

  it('a pain001py CSV: the currency paid, purpose and BIC reach the bank; names as validate changed them', async () => {
    const file = join(w.company.root, 'inbox', 'pay.csv');
    await copyFile(`${FIXTURES}pain001py/valid.csv`, file);
    const report = await validate(file);
    expect(report.format).toBe('csv:pain001py');
    expect(changed(report)).toEqual([['Tromsø Fisk AS', 'Tromso Fisk AS']]);

    expect((await runPickup(pickupDeps(), [w.company])).map((p) => p.outcome)).toEqual(['accepted']);
    await runSubmit(w.deps('s1'), [w.company]);
    const lines = await sent();
    expect(lines).toHaveLength(report.payments);
    expect(
      lines.map((l) => [l.endToEndIdentification, l.instructedAmount, l.creditorName, l.creditorAgent, l.purposeCode]),
    ).toEqual([
      ['PY-E2E-1', { currency: 'NOK', amount: '1250.50' }, 'Leverandor Nord AS', 'DNBANOKKXXX', 'SUPP'],
      ['PY-E2E-2', { currency: 'NOK', amount: '100.00' }, 'Tromso Fisk AS', null, null],
    ]);
  });

  it('refuses at pickup a line in another currency than its debtor account’s, and sends nothing', async () => {
    await writeFile(
      join(w.company.root, 'inbox', 'eur.xml'),
      PAIN001.replace('<InstdAmt Ccy="NOK">100.00', '<InstdAmt Ccy="EUR">100.00'),
    );
    const [picked] = await runPickup(pickupDeps(), [w.company]);
    expect(picked?.outcome).toBe('rejected');
    const file = await w.store.files.findFileBySha256(w.company.id, picked!.sha256!);
    expect(file?.errorSummary).toContain(
      'DEBTOR_CURRENCY_MISMATCH: the payment is in EUR, but debtor account NO9386011117947 is a NOK account',
    );
    expect((await runSubmit(w.deps('s1'), [w.company])).bulks).toEqual([]);
    expect(await sent()).toEqual([]);
  });
});
