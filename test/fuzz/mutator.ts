// A small seeded mutation engine: takes real fixture bytes and damages them the way files get
// damaged in the wild (flipped bytes, cut-offs, doubled chunks, stray quotes and delimiters,
// markup, BOMs, NULs, very long runs). Seeded, so every failing case can be reproduced.
export type Random = () => number;

const TOKENS = [
  '"',
  '""',
  ',',
  ';',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '<',
  '>',
  '&',
  '&amp;',
  '&#0;',
  ']]>',
  '<![CDATA[',
  '<!DOCTYPE x [<!ENTITY a "aaaa">]>',
  '<!ENTITY',
  '&a;',
  '\uFEFF',
  '\u0000',
  '\uFFFD',
  'ø',
  'æ',
  '€',
  '😀',
  '-',
  '0',
  '9999999999999999999999',
  '1e308',
  '.',
  ',5',
  '2026-02-30',
  '31.12.2026',
  'NO9386011117947',
  'XX00',
  '</Document>',
  '<CdtTrfTxInf>',
  '</PmtInf>',
  'xmlns="urn:x"',
  '=cmd|',
  '@SUM(',
];

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const int = (random: Random, max: number): number => Math.floor(random() * max);

/** One to four mutations of `input`, sometimes splicing in part of `other`. */
export function mutate(input: Buffer, random: Random, other?: Buffer): Buffer {
  let out = input;
  const rounds = 1 + int(random, 4);
  for (let r = 0; r < rounds; r++) out = mutateOnce(out, random, other);
  return out;
}

function mutateOnce(input: Buffer, random: Random, other?: Buffer): Buffer {
  const at = input.length ? int(random, input.length) : 0;
  switch (int(random, 9)) {
    case 0: {
      const copy = Buffer.from(input);
      if (copy.length) copy[at] = int(random, 256);
      return copy;
    }
    case 1:
      return Buffer.concat([input.subarray(0, at), Buffer.from(pick(random, TOKENS)), input.subarray(at)]);
    case 2: {
      const end = Math.min(input.length, at + 1 + int(random, 64));
      return Buffer.concat([input.subarray(0, at), input.subarray(end)]);
    }
    case 3: {
      const end = Math.min(input.length, at + 1 + int(random, 256));
      return Buffer.concat([input.subarray(0, end), input.subarray(at, end), input.subarray(end)]);
    }
    case 4:
      return input.subarray(0, at);
    case 5: {
      const run = Buffer.alloc(1 + int(random, 20_000), pick(random, ['a', '9', ' ', '"', '<', ',']));
      return Buffer.concat([input.subarray(0, at), run, input.subarray(at)]);
    }
    case 6: {
      if (!other?.length) return input;
      const from = int(random, other.length);
      return Buffer.concat([
        input.subarray(0, at),
        other.subarray(from, from + 1 + int(random, 512)),
        input.subarray(at),
      ]);
    }
    case 7: {
      const lines = input.toString('latin1').split('\n');
      const i = int(random, lines.length);
      lines.splice(i, 0, ...Array.from({ length: 1 + int(random, 3) }, () => lines[int(random, lines.length)] ?? ''));
      return Buffer.from(lines.join('\n'), 'latin1');
    }
    default: {
      const copy = Buffer.from(input);
      for (let i = 0; i < 1 + int(random, 8) && copy.length; i++)
        copy[int(random, copy.length)] = pick(random, [0x22, 0x2c, 0x3b, 0x0a, 0x3c, 0x26, 0x00, 0xff]);
      return copy;
    }
  }
}
