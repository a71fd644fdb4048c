// MariaDB (InnoDB) may pick a statement as the victim of a deadlock when several settle
// processes write at once: multi-row INSERTs into one index lock the gaps between its keys (new
// keys at its end all share the last gap), and two of them can each wait on the other. The
// victim is rolled back whole, so running it again is what the server asks for. A transaction
// is run again by Database.transaction; this runs a statement that stands on its own again.
// SQLite has one writer at a time and never deadlocks.

/** How often a deadlock victim is run in all. */
export const DEADLOCK_ATTEMPTS = 5;

export function isDeadlock(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ER_LOCK_DEADLOCK';
}

/** Runs `statement`, again (after a short random pause) while MariaDB picks it as a deadlock victim. */
export async function againOnDeadlock<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) throw error;
      await pauseAfterDeadlock(attempt);
    }
  }
}

/** A random pause that grows with the attempt, so two victims do not meet again at once. */
export function pauseAfterDeadlock(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
}
