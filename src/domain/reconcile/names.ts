// How alike two party names are, for matching a credit to a receivable by its customer when no
// reference was given. Names are compared after normalising what ERPs and banks write
// differently (case, accents, punctuation, the company form such as "AS" or "Ltd"), by the
// Sørensen–Dice coefficient over letter pairs: 1 for the same name, 0 for nothing in common.

const COMPANY_FORMS = new Set([
  'as',
  'asa',
  'ab',
  'abp',
  'aps',
  'a/s',
  'oy',
  'oyj',
  'ehf',
  'hf',
  'sa',
  'ag',
  'gmbh',
  'bv',
  'nv',
  'ltd',
  'limited',
  'plc',
  'llc',
  'inc',
  'co',
  'corp',
  'ans',
  'da',
  'ba',
  'sarl',
  'srl',
  'spa',
]);

/** Lower case, accents and punctuation removed, company forms dropped, single spaces. */
export function normaliseName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/gi, 'o')
    .replace(/æ/gi, 'ae')
    .toLowerCase()
    .replace(/[^a-z0-9/ ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && !COMPANY_FORMS.has(w));
  return words.join(' ');
}

/** Similarity of two names from 0 (nothing in common) to 1 (the same after normalising), two decimals. */
export function nameSimilarity(a: string, b: string): number {
  const x = normaliseName(a);
  const y = normaliseName(b);
  if (x === '' || y === '') return 0;
  if (x === y) return 1;
  const pairs = (s: string): Map<string, number> => {
    const out = new Map<string, number>();
    const text = s.replace(/ /g, '');
    for (let i = 0; i < text.length - 1; i++) {
      const pair = text.slice(i, i + 2);
      out.set(pair, (out.get(pair) ?? 0) + 1);
    }
    return out;
  };
  const px = pairs(x);
  const py = pairs(y);
  let common = 0;
  let total = 0;
  for (const n of px.values()) total += n;
  for (const [pair, n] of py) {
    total += n;
    common += Math.min(n, px.get(pair) ?? 0);
  }
  return total === 0 ? 0 : Math.floor((200 * common) / total) / 100;
}
