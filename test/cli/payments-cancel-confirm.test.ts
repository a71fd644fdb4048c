// Four eyes on the command line: the CLI cannot tell who runs it (SETTLE_ACTOR is self-declared),
// so a second decision is taken only in the console; `settle payments cancel --confirm` is
// refused with its own code, whatever SETTLE_ACTOR says, and does nothing.
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

describe('settle payments cancel --confirm', { timeout: 120_000 }, () => {
  it('is refused: a second person confirms in the console', async () => {
    await withTempDir(async (dir) => {
      const result = await runSettle(['payments', 'cancel', '--confirm', 'req-1'], {
        cwd: dir,
        env: { SETTLE_ACTOR: 'someone.else' },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('ERR_CANCEL_CONFIRM_IN_CONSOLE');
      expect(result.stderr).toContain('confirmed by a second person signed in to the console');
    });
  });
});
