// The one fold of names for search (src/domain/search-fold.ts) and the end of a prefix's range.
import { describe, expect, it } from 'vitest';
import { foldForSearch, prefixEnd } from '../../src/domain/search-fold.js';

describe('foldForSearch', () => {
  it('lowers case, Æ, Ø, Å and accented letters included, and keeps them letters of their own', () => {
    expect(foldForSearch('ØRNULF Hansen AS')).toBe('ørnulf hansen as');
    expect(foldForSearch('ÆRØ ÅSEN')).toBe('ærø åsen');
    expect(foldForSearch('Éclair Café')).toBe('éclair café');
    expect(foldForSearch('Åsen')).not.toBe(foldForSearch('Aasen'));
    expect(foldForSearch('Ørn')).not.toBe(foldForSearch('Orn'));
  });

  it('composes decomposed letters (NFC), also after lower case', () => {
    expect(foldForSearch('A\u030Asen')).toBe('åsen');
    expect(foldForSearch('e\u0301clair')).toBe('éclair');
    expect(foldForSearch('\u0130stanbul')).toBe('i\u0307stanbul'.normalize('NFC'));
  });

  it('reads runs of white space and control characters as one space and trims the ends', () => {
    expect(foldForSearch('  Nordic \t Supplies\u00a0\u00a0AS\n')).toBe('nordic supplies as');
    expect(foldForSearch('Nordic\u0001Supplies')).toBe('nordic supplies');
    expect(foldForSearch(' \t ')).toBe('');
  });
});

describe('prefixEnd', () => {
  it('makes the last character the next one, so every text with the prefix sorts before it', () => {
    expect(prefixEnd('ørn')).toBe('øro');
    expect(prefixEnd('a')).toBe('b');
    for (const name of ['ørn', 'ørnulf hansen as', 'ørn\u{10ffff}x', 'ørn\u{1f600}'])
      expect(name >= 'ørn' && name < prefixEnd('ørn')!, name).toBe(true);
    expect('øro' < prefixEnd('ørn')!).toBe(false);
  });

  it('steps over the surrogates and past the last code point', () => {
    expect(prefixEnd('a\ud7ff')).toBe('a\ue000');
    expect(prefixEnd('a\u{10ffff}')).toBe('b');
    expect(prefixEnd('\u{10ffff}')).toBeUndefined();
    expect(prefixEnd('')).toBeUndefined();
  });
});
