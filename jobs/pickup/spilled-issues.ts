// The issues of a picked-up file beyond the 1,000 its result keeps (validateFile's maxIssues),
// kept in a work file beside the downloaded copy, one JSON line each, so the file's JSON report
// lists every issue (report-json.ts streams them after the kept ones). A refused million-line
// file can have a million issues: in memory that was the size the limit avoids; here only a
// chunk at a time is held. Written and read with synchronous calls: validation hands the issues
// over one by one from a synchronous callback, and the report's JSON takes its entries from a
// synchronous iterable (ByteChunks). The work file exists only once an issue is past the limit.
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import type { Issue } from '../../src/domain/issue.js';
import { issueJson, type IntakeJson } from '../../src/formats/intake/index.js';

type IssueEntry = IntakeJson['issues'][number];

/** Characters gathered before they go to the work file, and bytes read back at once. */
const CHUNK = 1 << 16;

export class SpilledIssues {
  /** Issues in the work file. */
  count = 0;
  private fd: number | undefined;
  private pending = '';

  constructor(private readonly path: string) {}

  /** One issue past the limit, as its JSON entry (which quotes no value of the file). */
  add(issue: Issue): void {
    this.pending += `${JSON.stringify(issueJson(issue))}\n`;
    this.count++;
    if (this.pending.length >= CHUNK) this.flush();
  }

  /** The issues in the order they came, read back a chunk at a time; none when there were none. */
  *entries(): Generator<IssueEntry> {
    this.flush();
    if (this.fd === undefined) return;
    const buffer = Buffer.alloc(CHUNK);
    let rest = '';
    for (let position = 0; ;) {
      const read = readSync(this.fd, buffer, 0, CHUNK, position);
      if (read === 0) break;
      position += read;
      // Read a byte a character (latin1), since a chunk may end inside a UTF-8 character; each
      // line goes back to its bytes and is decoded whole (no byte of a UTF-8 character is '\n').
      const text = rest + buffer.toString('latin1', 0, read);
      const lines = text.split('\n');
      rest = lines.pop()!;
      for (const line of lines) yield JSON.parse(Buffer.from(line, 'latin1').toString('utf8')) as IssueEntry;
    }
  }

  /** Closes and deletes the work file (also when the report was never written). */
  remove(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.path, { force: true });
  }

  private flush(): void {
    if (this.pending === '') return;
    this.fd ??= openSync(this.path, 'w+');
    const bytes = Buffer.from(this.pending);
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written);
    this.pending = '';
  }
}
