// A refused command reads in the company's language (docs/errors.md, docs/i18n.md): through the
// real command line with `locale: nb`, the refusal's sentence is bokmål with the values the error
// carries, a code without values reads its meaning with the English message as the detail, and the
// code and exit code stay. `--json` and an English configuration keep the English message.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

describe('a refused command in the reader’s language', { timeout: 120_000 }, () => {
  it('says why in bokmål for a bokmål configuration, and in English for --json and English', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'nb.yaml'), `dataDir: ${dir}/data\nlocale: nb\n`);
      await writeFile(join(dir, 'en.yaml'), `dataDir: ${dir}/data\n`);
      const settle = (file: string, ...args: string[]) =>
        runSettle(['--config', join(dir, file), ...args], { cwd: dir, env: { SETTLE_ACTOR: 'kari' } });

      const finding = await settle('nb.yaml', 'findings', 'ack', 'F-nope', '--reason', 'x');
      expect(finding.code).toBe(2);
      expect(finding.stderr).toBe('settle: ERR_FINDING_UNKNOWN: fant ikke funnet F-nope; se settle findings list\n');

      const held = await settle('nb.yaml', 'payments', 'release', 'E-9', '--reason', 'checked');
      expect(held.code).toBe(2);
      expect(held.stderr).toBe('settle: ERR_PAYMENT_NOT_HELD: ingen holdt betaling «E-9»; se settle payments held\n');

      // A code whose error carries no values: its meaning in bokmål, the English message below it.
      const noReason = await settle('nb.yaml', 'payments', 'release', 'E-9', '--reason', ' ');
      expect(noReason.code).toBe(2);
      expect(noReason.stderr).toBe(
        'settle: ERR_USAGE: Kommandoen er ikke skrevet slik settle leser den.\n' +
          'Detaljer (på engelsk): --reason must say why (it is kept with the decision)\n',
      );

      const json = await settle('nb.yaml', 'payments', 'show', 'NOPE-1', '--json');
      expect(json.code).toBe(1);
      expect(json.stderr).toMatch(/^settle: ERR_PAYMENT_NOT_FOUND: no payment has the reference "NOPE-1" \(/);
      const human = await settle('nb.yaml', 'payments', 'show', 'NOPE-1');
      expect(human.stderr).toMatch(/^settle: ERR_PAYMENT_NOT_FOUND: ingen betaling har referansen «NOPE-1» \(/);

      const english = await settle('en.yaml', 'findings', 'ack', 'F-nope', '--reason', 'x');
      expect(english.code).toBe(2);
      expect(english.stderr).toBe('settle: ERR_FINDING_UNKNOWN: no finding F-nope; see settle findings list\n');
    });
  });
});
