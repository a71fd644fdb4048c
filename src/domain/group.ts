// Grouping by key, in place. Copying a group to add one item to it
// (`groups.set(key, [...(groups.get(key) ?? []), item])`) costs the group's length at every add,
// so a group of n items costs n²/2 copies: 1,000 items under one key took 12 ms, 10,000 took
// 220 ms and 50,000 took 81 s (node 20, collecting the garbage of every copy). The groups here
// are a bulk's lines, a day's entries, a file's released lines: thousands are ordinary. The lint
// refuses the copying form (eslint.config.js, test/lint/copying-groups.test.ts).

/** Adds `item` to the group under `key`, making the group with its first item. */
export function addTo<K, V>(groups: Map<K, V[]>, key: K, item: V): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, [item]);
  else group.push(item);
}
