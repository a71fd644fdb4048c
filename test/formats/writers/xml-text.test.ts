import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattened } from '../../../src/formats/xml/flat.js';
import { identifier } from '../../../src/formats/xml/identifier.js';
import { idAsXml, textAsXml } from '../../../src/formats/xml/text.js';
import {
  codePointLength,
  escapeAttribute,
  escapeText,
  prepareText,
  sanitiseXmlText,
  truncateCodePoints,
} from '../../../src/formats/xml/index.js';

describe('XML text rules', () => {
  it('escapes &, < and > in content and also " in attributes, and nothing else', () => {
    expect(escapeText(`a & b < c > d "e" 'f' &amp;`)).toBe(`a &amp; b &lt; c &gt; d "e" 'f' &amp;amp;`);
    expect(escapeAttribute('x"&<>')).toBe('x&quot;&amp;&lt;&gt;');
    expect(escapeText('plain')).toBe('plain');
  });

  it('turns tabs and line breaks into spaces and characters XML 1.0 forbids into U+FFFD', () => {
    expect(sanitiseXmlText('a\tb\r\nc')).toBe('a b  c');
    expect(sanitiseXmlText('a\u0000b\u0008c\u000bd\u001fe\ufffef\uffffg')).toBe(
      'a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg',
    );
    expect(sanitiseXmlText('lone \ud800 and \udc00 but 😀 stays')).toBe('lone \ufffd and \ufffd but 😀 stays');
    expect(sanitiseXmlText('\u0085\u2028 stay')).toBe('\u0085\u2028 stay');
  });

  it('reports sanitising and truncation, trims silently and drops a text that ends up empty', () => {
    expect(prepareText('  INV-1  ', 35)).toEqual({ text: 'INV-1', changes: [] });
    expect(prepareText('line\nbreak', 35)).toEqual({ text: 'line break', changes: ['sanitised'] });
    expect(prepareText('x'.repeat(40), 35)).toEqual({ text: 'x'.repeat(35), changes: ['truncated'] });
    expect(prepareText(`${'x'.repeat(34)} yz`, 35)).toEqual({ text: 'x'.repeat(34), changes: ['truncated'] });
    expect(prepareText(' \n ', 35)).toEqual({ text: undefined, changes: ['sanitised'] });
    expect(prepareText(undefined, 35)).toEqual({ text: undefined, changes: [] });
  });

  it('counts the limit in code points, as XSD does, and never splits a surrogate pair', () => {
    expect(truncateCodePoints('😀😀😀', 2)).toBe('😀😀');
    expect(prepareText('é'.repeat(35), 35).changes).toEqual([]);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.integer({ min: 1, max: 60 }), (value, max) => {
        const cut = truncateCodePoints(value, max);
        expect(codePointLength(cut)).toBe(Math.min(max, codePointLength(value)));
        expect(value.startsWith(cut)).toBe(true);
        expect(/[\ud800-\udfff]/u.test(cut)).toBe(false); // no lone surrogate
      }),
    );
  });

  it('always gives text that is well-formed XML 1.0 character data within the limit', () => {
    // eslint-disable-next-line no-control-regex -- the XML 1.0 Char production, controls included
    const xmlChar = /^[\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 1, max: 140 }), (value, max) => {
        const { text } = prepareText(value, max);
        if (text === undefined) return;
        expect(xmlChar.test(text)).toBe(true);
        expect(/[\t\r\n]/.test(text)).toBe(false);
        expect(codePointLength(text)).toBeLessThanOrEqual(max);
        expect(text).toBe(text.trim());
      }),
      { numRuns: 3000 },
    );
  });

  // The one-scan fast ways must give what the checked ways give, or step aside.
  const tricky = fc.constantFrom(
    ' ',
    '\t',
    '\n',
    '\r',
    '&',
    '<',
    '>',
    '"',
    '\u0000',
    '\u001f',
    '\u007f',
    '\u0085',
    '\u00a0',
    '\u00a1',
    '\u00fc',
    '\u1680',
    '\u2000',
    '\u2028',
    '\u3000',
    '\ufeff',
    '\ud800',
    '\udc00',
    '\ufffe',
    '\uffff',
    '\ud83d\ude00',
    'a',
    'Z',
    '9',
    '-',
  );
  const values = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.array(tricky, { maxLength: 12 }).map((parts) => parts.join('')),
    fc.string({ maxLength: 40 }),
  );

  it('writes a text in one scan exactly as prepared and escaped, or leaves it to the checked way', () => {
    fc.assert(
      fc.property(values, fc.integer({ min: 1, max: 45 }), (value, max) => {
        const xml = textAsXml(value, max);
        if (xml === undefined) return;
        const prepared = prepareText(value, max);
        expect(prepared.changes).toEqual([]);
        expect(xml).toBe(escapeText(prepared.text!));
      }),
      { numRuns: 3000 },
    );
    expect(textAsXml('Müller & Söhne <AS>', 140)).toBe('Müller &amp; Söhne &lt;AS&gt;');
    expect(textAsXml('Invoice 7', 140)).toBe('Invoice 7');
    for (const refused of ['', ' a', 'a ', 'a\nb', '\u00a0a', 'a\u3000', 'a\ud800', 'a\u0085b', 'abcd'])
      expect(textAsXml(refused, 3 + (refused === 'abcd' ? 0 : 10))).toBeUndefined();
  });

  it('writes an id in one scan exactly as it fits and escaped, or leaves it to the checked way', () => {
    fc.assert(
      fc.property(values, fc.integer({ min: 1, max: 35 }), (value, max) => {
        const xml = idAsXml(value, max);
        if (xml === undefined) return;
        const standIns: never[] = [];
        expect(identifier(value, max, 'Id', standIns)).toBe(value);
        expect(standIns).toEqual([]);
        expect(xml).toBe(escapeText(value));
      }),
      { numRuns: 3000 },
    );
    expect(idAsXml('E2E-1 <&>', 35)).toBe('E2E-1 &lt;&amp;&gt;');
    for (const refused of ['', ' E2E', 'E2E ', 'E2\u00e9', 'E2E\t1', 'x'.repeat(36)])
      expect(idAsXml(refused, 35)).toBeUndefined();
  });

  it('keeps the text of a string it makes one piece, joined or not, empty or with lone surrogates', () => {
    fc.assert(
      fc.property(values, values, (a, b) => {
        const joined = `${a}<${b}`;
        expect(flattened(joined)).toBe(joined);
        expect(flattened(a)).toBe(a);
      }),
    );
    expect(flattened('')).toBe('');
  });
});
