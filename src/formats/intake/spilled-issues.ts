// The issues of a file beyond the 1,000 its result keeps (validateFile's maxIssues, told to
// `moreIssues`), kept in a work file as the text its report lists them in, so a report can list
// every issue: pickup's NAME.errors.json (a JSON entry each, jsonListEntry) and `settle validate`
// (its JSON, or its listing's lines). A refused million-line file can have a million issues: in
// memory that was the size the limit avoids; here only a chunk at a time is held. Each issue is
// made into its text once, when it comes; the report copies the stored bytes as they are.
// Written and read with synchronous calls: validation hands the issues over one by one from a
// synchronous callback, and a report's JSON takes its pieces from a synchronous iterable
// (ByteChunks). The work file exists only once an issue is past the limit, and has no name from
// then on: it is unlinked as soon as it is open (the tmpfile idiom), so it goes with the process
// however that ends (Ctrl-C on `settle validate` of a big file, a crash), leaving nothing behind.
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import type { Issue } from '../../domain/issue.js';

/** Characters gathered before they go to the work file, and bytes read back at once. */
const CHUNK = 1 << 16;

export class SpilledIssues {
  /** Issues in the work file. */
  count = 0;
  private fd: number | undefined;
  private pending = '';

  /**
   * `path`: where the work file is made (any file there is replaced). `form`: an issue as the
   * report lists it, told the issues in the order they come.
   */
  constructor(
    private readonly path: string,
    private readonly form: (issue: Issue) => string,
  ) {}

  /** One issue past the limit. */
  add(issue: Issue): void {
    this.pending += this.form(issue);
    this.count++;
    if (this.pending.length >= CHUNK) this.flush();
  }

  /**
   * The stored text of the issues in the order they came, as UTF-8 bytes a chunk at a time,
   * each chunk cut wherever it falls (inside an issue, or inside a character); none when there
   * were none. Read from the start each time it is asked.
   */
  *chunks(): Generator<Buffer> {
    this.flush();
    if (this.fd === undefined) return;
    for (let position = 0; ;) {
      // A new buffer each time: the one given out may still be waiting to be written.
      const buffer = Buffer.allocUnsafe(CHUNK);
      const read = readSync(this.fd, buffer, 0, CHUNK, position);
      if (read === 0) break;
      position += read;
      yield buffer.subarray(0, read);
    }
  }

  /** Closes the work file, which frees its space (also when no report was written). */
  remove(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private flush(): void {
    if (this.pending === '') return;
    this.fd ??= this.open();
    const bytes = Buffer.from(this.pending);
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written);
    this.pending = '';
  }

  /**
   * A file of its own (one left under the name is removed, and a link in its place is not
   * followed: 'wx'), its name removed once it is open: the descriptor keeps it until closed.
   */
  private open(): number {
    rmSync(this.path, { force: true });
    const fd = openSync(this.path, 'wx+', 0o600);
    rmSync(this.path);
    return fd;
  }
}
