// The chaos campaign's final checks on statements, on a hand-made outbox: an entry in two files
// and an electronic sequence number in two files of one account are anomalies.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { withTempDir } from '../tmp.js';
import { finalChecks, type FolderNames } from './final-checks.js';

// Each folder under its own name.
const FOLDERS = Object.fromEntries(
  ['inbox', 'archive', 'error', 'status', 'statements', 'reports'].map((f) => [f, f]),
) as unknown as FolderNames;
const SUFFIX = 'camt.053.001.02.xml';
const statement = (seq: number, ref: string) =>
  `<Document><BkToCstmrStmt><Stmt><ElctrncSeqNb>${seq}</ElctrncSeqNb><Ntry><AcctSvcrRef>${ref}</AcctSvcrRef></Ntry></Stmt></BkToCstmrStmt></Document>`;

it('reports an ElctrncSeqNb that two files of one account carry, not one two accounts carry', async () => {
  await withTempDir(async (root) => {
    await mkdir(join(root, 'statements'));
    const write = (name: string, seq: number, ref: string) =>
      writeFile(join(root, 'statements', `${name}.${SUFFIX}`), statement(seq, ref));
    await write('acme-NO1-2026-01-02', 1, 'A');
    await write('acme-NO1-2026-01-03_2026-01-04', 1, 'B');
    await write('acme-NO2-2026-01-02', 1, 'C');
    const booked = ['A', 'B', 'C'].map((entryReference) => ({
      entryReference,
      accountId: 'x',
      bookingDate: '2026-01-02',
    }));
    const { anomalies } = await finalChecks({
      root,
      folders: FOLDERS,
      dropped: [],
      booked,
      statementSuffixes: [SUFFIX],
    });
    expect(anomalies.filter((a) => a.includes('ElctrncSeqNb'))).toEqual([
      `${SUFFIX}: ElctrncSeqNb 1 is in both statements/acme-NO1-2026-01-02.${SUFFIX} and statements/acme-NO1-2026-01-03_2026-01-04.${SUFFIX}`,
    ]);
  });
});
