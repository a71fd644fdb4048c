// Which reader a file needs, from its first bytes: a byte order mark fixes the encoding, and
// a "<" as the first visible character means XML (pain.001); anything else is CSV.
import { iconvLite } from './iconv.js';

export interface Detected {
  kind: 'xml' | 'csv' | 'empty';
  /** Encoding from a BOM (or the XML declaration); undefined = the profile decides. */
  encoding: string | undefined;
}

export function detectFormat(head: Buffer): Detected {
  if (head.length === 0) return { kind: 'empty', encoding: undefined };
  let bom: string | undefined;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) bom = 'utf-8';
  else if (head[0] === 0xff && head[1] === 0xfe) bom = 'utf-16le';
  else if (head[0] === 0xfe && head[1] === 0xff) bom = 'utf-16be';
  // Without a BOM the head is read as Latin-1 (any byte is a character), which Buffer does
  // itself: iconv-lite is loaded only for a BOM's encoding.
  const text = (bom ? iconvLite().decode(head, bom, { stripBOM: true }) : head.toString('latin1')).trimStart();
  if (text === '' && head.length < 4096) return { kind: 'empty', encoding: bom };
  if (!text.startsWith('<')) return { kind: 'csv', encoding: bom };
  if (bom) return { kind: 'xml', encoding: bom };
  const declared = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']/.exec(text)?.[1];
  return { kind: 'xml', encoding: declared?.toLowerCase() ?? 'utf-8' };
}
