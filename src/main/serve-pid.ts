// The pid file of `settle serve` (<dataDir>/serve.pid): how `settle reload` finds the running
// service to send it SIGHUP. Only the process that wrote it removes it, so an instance started
// after it (its pid in the file) keeps its own. Under systemd, ExecReload signals $MAINPID and
// needs no file.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function servePidFile(dataDir: string): string {
  return join(dataDir, 'serve.pid');
}

export function writeServePid(dataDir: string): () => void {
  const file = servePidFile(dataDir);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${process.pid}\n`, { mode: 0o644 });
  return () => {
    if (readServePid(dataDir) === process.pid) rmSync(file, { force: true });
  };
}

/** The pid in the file, or undefined when there is none (or it holds no number). */
export function readServePid(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(servePidFile(dataDir), 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
