// The approval notice in the company's language (issue #53): the approve job writes the reports
// copy and e-mails the approvers in the company's `locale`, else the configuration's, else
// English, with amounts, dates and the link's expiry as that language writes them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runApprove } from '../../../jobs/approve/approve.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import type { Locale } from '../../../src/i18n/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../../support/mariadb.js';
import { APPROVAL_IBAN, createWorld, type World } from './world.js';

/** Intl writes bokmål with no-break spaces ("93 885,40 kr"); the checks read them as spaces. */
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

function languageSuite(engine: string, onMaria: boolean): void {
  describe(`the approval notice in the company's language (${engine})`, () => {
    let w: World | undefined;
    let db: ThrowawayDatabase | undefined;
    afterEach(async () => {
      await w?.close();
      await db?.drop();
      w = undefined;
      db = undefined;
    });

    /** One basket of one 93 885,40 kr payment due 8 January, approved with the company's language. */
    const approve = async (company: { locale?: Locale }, configLocale?: Locale) => {
      db = onMaria ? await createThrowawayDatabase() : undefined;
      w = await createWorld({
        ...(db ? { databaseUrl: db.url } : {}),
        company: { ...company, payments: { approvers: ['cfo@acme.example'] } },
      });
      const mails: { subject: string; text: string }[] = [];
      await w.acceptFile('pay.csv', [
        {
          debtorIban: APPROVAL_IBAN,
          amount: { minor: 9_388_540n, currency: 'NOK' },
          requestedExecutionDate: '2026-01-08' as never,
          endToEndId: 'ACME-2026-0042',
        },
      ]);
      await runSubmit(w.deps('s1'), [w.company]);
      const deps = w.deps('a1', {
        ...(configLocale ? { locale: configLocale } : {}),
        approvalMail: { send: (_to, subject, text) => Promise.resolve(void mails.push({ subject, text })) },
      });
      const [basket] = (await runApprove(deps, [w.company])).baskets;
      const report = spaces(await readFile(join(w.company.root, basket!.report!), 'utf8'));
      expect(mails).toHaveLength(1);
      return { report, mail: { subject: mails[0]!.subject, text: spaces(mails[0]!.text) } };
    };

    it('writes the reports copy and the e-mail in bokmål for a company with locale nb', async () => {
      const { report, mail } = await approve({ locale: 'nb' });
      expect(report).toContain('Betalinger fra ACME AS venter på godkjenning i banken.');
      expect(report).toContain(
        'Godkjenningslenken ble sendt til godkjennerne på e-post; den virker én gang og utløper 12.01.2026, 09:00.',
      );
      expect(report).toContain('Sum per belastningskonto:');
      expect(report).toMatch(/^ {2}Belastningskonto +Betalinger +Beløp$/m);
      expect(report).toMatch(/^ {2}NO72…4562 +1 +93 885,40 kr$/m);
      expect(report).toMatch(/^ {2}Kreditor +Konto +Beløp +Forfallsdato +Referanse i ERP$/m);
      expect(report).toMatch(/ 93 885,40 kr +08\.01\.2026 +ACME-2026-0042$/m);
      expect(report).not.toMatch(/Payments|Approve|93885\.40|2026-01-08/);
      expect(mail.subject).toBe('Betalinger fra ACME AS venter på din godkjenning');
      expect(mail.text).toContain('Lenken virker ÉN gang og utløper 12.01.2026, 09:00.');
      expect(mail.text).toContain('Godkjenninger banken fortsatt krever: ');
      expect(mail.text).toMatch(/ 93 885,40 kr +08\.01\.2026 +ACME-2026-0042$/m);
    });

    it("follows the configuration's locale when the company names none", async () => {
      const { report, mail } = await approve({}, 'nb');
      expect(report).toContain('Betalinger fra ACME AS venter på godkjenning i banken.');
      expect(mail.subject).toBe('Betalinger fra ACME AS venter på din godkjenning');
    });

    it('stays in English, with the figures approvers have always read, for a company in English', async () => {
      const { report, mail } = await approve({ locale: 'en' }, 'nb');
      expect(report).toContain('Payments of ACME AS are waiting for approval at the bank.');
      expect(report).toContain(
        'The approval link went to the approvers by e-mail; it works once and expires 2026-01-12 09:00 Europe/Oslo.',
      );
      expect(report).toMatch(/^ {2}NO72…4562 +NOK +1 +93885\.40$/m);
      expect(report).toMatch(/ 93885\.40 +NOK +2026-01-08 +ACME-2026-0042$/m);
      expect(mail.subject).toBe('Payments of ACME AS wait for your approval');
      expect(mail.text).toContain('The link works ONCE and expires 2026-01-12 09:00 Europe/Oslo.');
    });
  });
}

const useMaria = await mariaDbForTests();

languageSuite('SQLite', false);
describe.runIf(useMaria)('on MariaDB', () => languageSuite('MariaDB', true));
