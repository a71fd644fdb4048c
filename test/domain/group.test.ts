import { describe, expect, it } from 'vitest';
import { addTo } from '../../src/domain/group.js';

describe('addTo', () => {
  it('makes a group with its first item and adds the next ones to it, in order', () => {
    const groups = new Map<string, number[]>();
    addTo(groups, 'a', 1);
    const a = groups.get('a');
    addTo(groups, 'b', 2);
    addTo(groups, 'a', 3);
    expect([...groups]).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
    // The group grows in place: adding an item copies nothing.
    expect(groups.get('a')).toBe(a);
  });

  it('keeps a group of a million items under one key', () => {
    const groups = new Map<string, number[]>();
    for (let n = 0; n < 1_000_000; n++) addTo(groups, 'one', n);
    expect(groups.get('one')).toHaveLength(1_000_000);
    expect(groups.get('one')!.at(-1)).toBe(999_999);
  });
});
