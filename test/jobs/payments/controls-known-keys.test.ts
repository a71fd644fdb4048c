// The known-accounts file names a creditor by the same keys as a payment (organisation number,
// ERP creditor id, name): through the real pickup, with no payment history at all, a known
// number or id paid to an account the file does not list for it is held as a changed account,
// with evidence that names the key and the file; the listed account, and a stranger, are not.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAuditedControls } from '../../../jobs/controls/controls.js';
import { runPickup } from '../../../jobs/pickup/pickup.js';
import { createWorld, NORMAL_IBAN, worldPickupDeps, type World } from './world.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,creditor_org_id,creditor_id';
// Each its own amount: lines to one account with one amount and no reference are duplicates.
const line = (e2e: string, iban: string, name: string, orgId: string, creditorId: string) =>
  `${NORMAL_IBAN},ACME AS,2026-01-09,${e2e},7${e2e.slice(-1)}0.00,NOK,${iban},${name},${orgId},${creditorId}`;

describe('the known-accounts file by organisation number and ERP creditor id', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
  });

  it('holds a known number or id paid elsewhere, lets the listed account and a stranger by', async () => {
    w = await createWorld({ company: { intake: { stableFor: '1s' } } });
    const world = w;
    const known = join(world.dir, 'known-accounts.csv');
    await writeFile(
      known,
      '# paid from the old bank program\nNO0612000000009,Oslo Trykkeri, avd. Sentrum AS,org:999888777\nNO5812000079195,id:K-1001\n',
    );
    world.company.controls.knownAccounts = known;
    const pickup = worldPickupDeps(world, {
      controls: (company) =>
        loadAuditedControls(company, {
          clock: world.clock,
          timeZone: 'Europe/Oslo',
          audit: world.store.audit,
          origin: 'test',
        }),
    });
    await mkdir(join(world.company.root, 'inbox'), { recursive: true });
    await writeFile(
      join(world.company.root, 'inbox', 'run.csv'),
      [
        HEADER,
        line('K-1', 'NO8330001234567', 'Trykkeriet Vest AS', '999888777', ''),
        line('K-2', 'NO0612000000009', 'Trykkeriet Vest AS', '999888777', ''),
        line('K-3', 'NO8330001234567', 'Bergen Bygg AS', '', 'K-1001'),
        line('K-4', 'NO8330001234567', 'Ny Leverandor AS', '', 'K-2002'),
      ].join('\n') + '\n',
    );
    const [picked] = await runPickup(pickup, [world.company]);
    expect(picked).toMatchObject({ outcome: 'accepted', payments: 4, held: 2 });
    const held = await world.store.held.list({ company: 'acme' });
    expect(held.map((h) => [h.endToEndId, h.rules, h.evidence])).toEqual([
      [
        'K-1',
        ['changed-account'],
        'changed-account: creditor org. no. 999888777 ("Trykkeriet Vest AS") was paid to NO0612000000009 (listed in the known-accounts file); this line pays NO8330001234567',
      ],
      [
        'K-3',
        ['changed-account'],
        'changed-account: ERP creditor id K-1001 ("Bergen Bygg AS") was paid to NO5812000079195 (listed in the known-accounts file); this line pays NO8330001234567',
      ],
    ]);
  });
});
