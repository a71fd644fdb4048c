// "Is the file already there with the same bytes?" decides whether a move that finds its
// target occupied is a harmless repeat (a crash between rename and bookkeeping) or a clash.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** True when both files have the same size and SHA-256; `open` yields a fresh stream per path. */
export async function sameContent(
  sizes: [number, number],
  open: (which: 0 | 1) => Promise<Readable>,
): Promise<boolean> {
  if (sizes[0] !== sizes[1]) return false;
  const first = await sha256(await open(0));
  const second = await sha256(await open(1));
  return first === second;
}
