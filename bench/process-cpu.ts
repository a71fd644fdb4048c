// CPU time of processes from /proc, for benches whose work is spread over several processes on
// the same two cores (settle, the sandbox bank, MariaDB): how much of the machine a run used,
// beside its wall time. NaN where /proc is not there (not Linux).
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = 100;

/** The fields of /proc/<pid>/stat after the command's closing parenthesis (the command may hold spaces). */
function statFields(pid: number | 'self'): string[] | undefined {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** CPU (user + system) a process has used so far. */
export function processCpuMs(pid: number | undefined): number {
  const fields = pid === undefined ? undefined : statFields(pid);
  // utime and stime are the 14th and 15th fields of the whole line: the 12th and 13th after the command.
  return fields === undefined ? Number.NaN : ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** CPU (user + system) of this process's children that have exited and been waited for, theirs included. */
export function exitedChildrenCpuMs(): number {
  const fields = statFields('self');
  return fields === undefined ? Number.NaN : ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}

/** The process id of a running program by its command name (e.g. "mariadbd"), when there is one. */
export function pidOf(command: string): number | undefined {
  if (!existsSync('/proc')) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === command) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}
