// Where a held line is, found after the file was read: a CSV line by its row, a pain.001
// transaction by its block's start (src/formats/intake/line-places.ts).
import { describe, expect, it } from 'vitest';
import { LinePlaces } from '../../../src/formats/intake/index.js';

const block = (n: number) => `/Document/CstmrCdtTrfInitn/PmtInf[${n}]`;

describe('LinePlaces', () => {
  it('a CSV line is its row', () => {
    expect(new LinePlaces().locate('csv:generic', 7)).toEqual({ row: 7 });
  });

  it('a pain.001 transaction is counted within its block, found among many blocks', () => {
    const places = new LinePlaces();
    // Blocks of 2, 3, 1, 2, … transactions; every line of a block is told, the block kept once.
    let line = 1;
    for (let b = 1; b <= 50; b++) for (let t = 0; t < 1 + (b % 3); t++) places.noteBlock(block(b), line++);
    expect(places.locate('pain.001.001.03', 1)).toEqual({ path: `${block(1)}/CdtTrfTxInf[1]` });
    expect(places.locate('pain.001.001.03', 2)).toEqual({ path: `${block(1)}/CdtTrfTxInf[2]` });
    expect(places.locate('pain.001.001.03', 5)).toEqual({ path: `${block(2)}/CdtTrfTxInf[3]` });
    expect(places.locate('pain.001.001.03', 6)).toEqual({ path: `${block(3)}/CdtTrfTxInf[1]` });
    expect(places.locate('pain.001.001.03', line - 1)).toEqual({ path: `${block(50)}/CdtTrfTxInf[3]` });
  });

  it('a line it was never told of has no location', () => {
    expect(new LinePlaces().locate('pain.001.001.09', 3)).toEqual({});
    const places = new LinePlaces();
    places.noteBlock('', 1);
    expect(places.locate('pain.001.001.09', 1)).toEqual({});
  });
});
