// Where an atomic write puts its bytes before the rename: NAME.<tag>.part, with a tag drawn once
// per process. Two settle processes writing the same output at once (a timer run beside a run
// by hand) then never write into, rename or remove each other's half-written file; the last
// rename wins with a whole file. The tag is short because names derived from an inbox name
// must stay within the file systems' 255 bytes (MAX_INBOX_NAME_BYTES).
import { randomBytes } from 'node:crypto';

const PROCESS_TAG = randomBytes(3).toString('hex');

export function partPath(target: string): string {
  return `${target}.${PROCESS_TAG}.part`;
}
