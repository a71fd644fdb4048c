// The lint refuses a group copied to add one item to it, the form that made grouping a bulk's
// lines quadratic (src/domain/group.ts), and accepts addTo and a spread that copies nothing per
// item. Linted as text at a product path with the project's own eslint.config.js, only the rule
// that carries it (no type information needed).
import { describe, expect, it } from 'vitest';
import { lintMessages } from '../support/lint-text.js';

const messages = (code: string, filePath: string) => lintMessages(code, filePath, ['no-restricted-syntax']);

const FILES = ['jobs/submit/lint-probe.ts', 'src/store/lint-probe.ts', 'src/server/console/pages/lint-probe.tsx'];

describe('the lint keeps grouping linear', () => {
  it.each([
    ['with ??', 'groups.set(k, [...(groups.get(k) ?? []), v]);'],
    ['with ||', 'groups.set(k, [...(groups.get(k) || []), v]);'],
    ['on a member map', 'own.byId.set(p.id, [...(own.byId.get(p.id) ?? []), p]);'],
    ['with the item first', 'groups.set(k, [v, ...(groups.get(k) ?? [])]);'],
  ])('refuses a group copied to add one item (%s)', async (_how, code) => {
    for (const file of FILES) {
      const found = await messages(code, file);
      expect(found, `${file}: ${code}`).toHaveLength(1);
      expect(found[0]).toMatch(/addTo\(groups, key, item\)/);
    }
  });

  it('accepts addTo, and a spread of what is not a group being grown', async () => {
    for (const file of FILES) {
      expect(await messages('addTo(groups, k, v);', file)).toEqual([]);
      expect(await messages('const all = [...(groups.get(k) ?? [])];', file)).toEqual([]);
      expect(await messages('const both = [...a, ...b];', file)).toEqual([]);
      // One payment's messages and its bank's, joined once: nothing grows.
      expect(await messages('const said = [...(messages.get(id) ?? []), ...bank];', file)).toEqual([]);
    }
  });
});
