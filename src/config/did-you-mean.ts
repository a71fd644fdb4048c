// "Did you mean": the nearest of the names settle knows to a name it does not, for a misspelt
// configuration key or a bankId the bank does not list. Near means a few letters apart by edit
// distance, a difference of case counting as a letter changed — so `Nordbank` finds `NordBank`.

/** The candidate nearest to `word`, when one is close enough to be a likely typo; else undefined. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const allowed = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    if (name === word) continue;
    // A case-only difference is the likeliest mistake of all: rank it first.
    const distance = name.toLowerCase() === word.toLowerCase() ? 0.5 : editDistance(word, name);
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance (insert, delete, substitute one character). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitute);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
