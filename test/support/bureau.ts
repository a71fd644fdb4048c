// A generated accounting bureau for the bureau benchmark and the several-instances tests: the
// configuration of N client companies matching the sandbox's `bureau` seed (src/sandbox/bureau.ts),
// one payment file per company in its inbox, and a reader of the exported statement lines.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bureauConsentId, bureauIban, bureauOrganisation } from '../../src/sandbox/bureau.js';
import { SEED } from '../../src/sandbox/index.js';

export interface SandboxUrls {
  baseUrl: string;
  authUrl: string;
  controlUrl: string;
}

export interface BureauSetup {
  companies: number;
  /** Payments per company file. */
  lines: number;
  urls: SandboxUrls;
  /** bank.concurrency */
  concurrency: number;
  /** schedule.companiesAtOnce; the default when absent. */
  companiesAtOnce?: number;
}

/** A Wednesday two to three weeks ahead, clear of the Christmas and Easter holidays. */
function futureBusinessDay(): string {
  const day = new Date(Date.now() + 14 * 86_400_000);
  while (day.getUTCDay() !== 3 || [11, 0, 3].includes(day.getUTCMonth())) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

export const companyId = (i: number) => `c${String(i).padStart(4, '0')}`;

/** The bureau's configuration and one payment file per company; returns the config path. */
export async function writeBureau(dir: string, setup: BureauSetup): Promise<string> {
  const { companies, lines: perFile, urls, concurrency } = setup;
  const lines = [
    `dataDir: ${JSON.stringify(join(dir, 'data'))}`,
    'log: { level: warn, format: json }',
    'bank:',
    `  baseUrl: ${urls.baseUrl}`,
    `  authUrl: ${urls.authUrl}`,
    `  tenantId: ${SEED.tenant}`,
    `  clientId: ${SEED.clientId}`,
    '  clientSecret: { env: SETTLE_CLIENT_SECRET }',
    `  subscriptionId: ${SEED.subscriptionId}`,
    `  concurrency: ${concurrency}`,
    ...(setup.companiesAtOnce === undefined ? [] : [`schedule: { companiesAtOnce: ${setup.companiesAtOnce} }`]),
    'companies:',
  ];
  for (let i = 0; i < companies; i++) {
    const id = companyId(i);
    const root = join(dir, id);
    lines.push(
      `  - { id: ${id}, name: Client ${i} AS, organisationNumber: "${bureauOrganisation(i)}", bankId: testbank, consentId: ${bureauConsentId(i)}, root: ${JSON.stringify(root)}, intake: { stableFor: 1s }, statements: { formats: [csv] }, status: { formats: [csv] } }`,
    );
  }
  await writePaymentFiles(dir, { companies, lines: perFile, night: 1 });
  const path = join(dir, 'settle.yaml');
  await writeFile(path, lines.join('\n') + '\n');
  return path;
}

/**
 * One payment file per company in its inbox for night `night` (1, 2, …): `lines` payments from
 * its first account, end-to-end ids unique across nights (`C0007-1` on night 1, `C0007-N2-1` on
 * night 2).
 */
export async function writePaymentFiles(
  dir: string,
  { companies, lines, night }: { companies: number; lines: number; night: number },
): Promise<void> {
  const day = futureBusinessDay();
  const tag = night === 1 ? '' : `-N${night}`;
  for (let i = 0; i < companies; i++) {
    const id = companyId(i);
    const inbox = join(dir, id, 'inbox');
    await mkdir(inbox, { recursive: true });
    const csv = [
      'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,creditor_bic,remittance_information,creditor_reference,instruction_priority',
      ...Array.from(
        { length: lines },
        (_, k) =>
          `${bureauIban(i, 0)},Client ${i} AS,${day},${id.toUpperCase()}${tag}-${k + 1},${100 * night + i}.${String(k).padStart(2, '0')},NOK,NO0612000000009,Supplier ${k} AS,,Invoice ${i}-${k}${tag},,normal`,
      ),
    ].join('\n');
    await writeFile(join(inbox, `${id}-payments${tag}.csv`), csv + '\n');
  }
}

/** Every booked entry in the exported CSV statements, keyed by the bank's entry reference. */
export async function statementLines(dir: string, companies: number): Promise<{ lines: number; doubled: number }> {
  const refs: string[] = [];
  for (let i = 0; i < companies; i++) {
    const folder = join(dir, companyId(i), 'statements');
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (!name.endsWith('.csv')) continue;
      const text = await readFile(join(folder, name), 'utf8');
      refs.push(...[...text.matchAll(/SBB\d{9}/g)].map((m) => `${name.split('-')[0]}:${m[0]}`));
    }
  }
  return { lines: refs.length, doubled: refs.length - new Set(refs).size };
}
