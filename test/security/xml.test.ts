// Promise: no XML settle reads can make it expand an entity or fetch a file (XXE, billion
// laughs, parameter entities), however the DTD is hidden (after a BOM, after megabytes of
// prolog, across a read-chunk border, in UTF-16 or UTF-7). The one XML reader settle has is
// the pain.001 intake reader (src/formats/pain001, used by `settle validate` and the pickup
// job); the bank speaks JSON and camt/pain.002 are only written. Each hostile file must be
// refused quickly with ERR_XML_DTD_FORBIDDEN and a location, and the content of the file an
// external entity points at must never appear in any output.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { validateFile } from '../../src/formats/intake/validate-file.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';
import { allFiles, validationOptions } from './helpers.js';

const MARKER = 'XXE-MARKER-6b1f93c2';
const NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';
const CHUNK = 64 * 1024; // src/formats/intake/byte-source.ts reads 64 KiB at a time
const DTD = 'ERR_XML_DTD_FORBIDDEN';

const doc = (msgId: string) =>
  `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr><MsgId>${msgId}</MsgId></GrpHdr></CstmrCdtTrfInitn></Document>\n`;

/** Every hostile file, by name; `secretFile` holds the marker an external entity points at. */
function hostileFiles(secretFile: string): Record<string, Buffer> {
  const url = `file://${secretFile}`;
  const laughs = [
    '<!ENTITY l0 "lol">',
    ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`),
  ].join('');
  // A prolog comment that puts "<!DOCTYPE" across the first 64 KiB chunk border.
  const declaration = '<?xml version="1.0"?>\n';
  const splitPad = CHUNK - declaration.length - '<!---->'.length - 4;
  return {
    'xxe.xml': Buffer.from(`<?xml version="1.0"?>\n<!DOCTYPE Document [<!ENTITY x SYSTEM "${url}">]>\n${doc('&x;')}`),
    // Several MB: a billion-laughs DTD followed by 3 MB of references to the top entity.
    'billion-laughs.xml': Buffer.from(
      `<?xml version="1.0"?>\n<!DOCTYPE Document [${laughs}]>\n${doc('&l9;'.repeat(750_000))}`,
    ),
    'parameter-entity.xml': Buffer.from(
      `<?xml version="1.0"?>\n<!DOCTYPE Document [<!ENTITY % p SYSTEM "${url}"> %p;]>\n${doc('x')}`,
    ),
    'after-bom.xml': Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`<?xml version="1.0"?>\n<!DOCTYPE Document [<!ENTITY x SYSTEM "${url}">]>\n${doc('&x;')}`),
    ]),
    'split-across-chunks.xml': Buffer.from(
      `${declaration}<!--${' '.repeat(splitPad)}-->\n<!DOCTYPE Document [<!ENTITY x SYSTEM "${url}">]>\n${doc('&x;')}`,
    ),
    // Megabytes of harmless prolog first: the check must not give up after the first chunk.
    'after-megabytes.xml': Buffer.from(
      `<?xml version="1.0"?>\n<!--${' '.repeat(3 * 1024 * 1024 + 17)}-->\n<!DOCTYPE Document [<!ENTITY x SYSTEM "${url}">]>\n${doc('&x;')}`,
    ),
    'utf16le.xml': Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode(
        `<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE Document [<!ENTITY x SYSTEM "${url}">]>\n${doc('&x;')}`,
        'utf-16le',
      ),
    ]),
    'utf16be.xml': Buffer.concat([
      Buffer.from([0xfe, 0xff]),
      iconv.encode(
        `<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE Document [<!ENTITY x SYSTEM "${url}">]>\n${doc('&x;')}`,
        'utf-16be',
      ),
    ]),
    // In UTF-7 the bytes never spell "<!DOCTYPE"; only the decoded text does.
    'utf7.xml': Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="UTF-7"?>\n'),
      iconv.encode(`<!DOCTYPE Document [<!ENTITY x SYSTEM "${url}">]>\n${doc('&x;')}`, 'utf-7'),
    ]),
  };
}

async function writeHostile(dir: string): Promise<{ names: string[]; secretFile: string }> {
  const secretFile = join(dir, 'secret-marker.txt');
  await writeFile(secretFile, `${MARKER}\n`);
  const files = hostileFiles(secretFile);
  const inputs = join(dir, 'inputs');
  await mkdir(inputs, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(inputs, name), bytes);
  return { names: Object.keys(files), secretFile };
}

describe('security: XML entities are never expanded', () => {
  it('the hostile files really are what they claim (multi-MB bomb, DOCTYPE across the chunk border, no "<!DOCTYPE" bytes in UTF-7)', () => {
    const files = hostileFiles('/x');
    expect(files['billion-laughs.xml']!.length).toBeGreaterThan(2 * 1024 * 1024);
    const split = files['split-across-chunks.xml']!.indexOf('<!DOCTYPE');
    expect(split).toBeLessThan(CHUNK);
    expect(split + '<!DOCTYPE'.length).toBeGreaterThan(CHUNK);
    expect(files['utf7.xml']!.includes('<!DOCTYPE')).toBe(false);
    expect(files['utf16le.xml']!.includes('<!DOCTYPE')).toBe(false);
  });

  it('every hostile pain.001 is refused with a located ERR_XML_DTD_FORBIDDEN in well under 2 s, nothing read from it', async () => {
    await withTempDir(async (dir) => {
      const { names } = await writeHostile(dir);
      for (const name of names) {
        const started = performance.now();
        const result = await validateFile(join(dir, 'inputs', name), { validation: validationOptions() });
        const elapsed = performance.now() - started;
        expect({ name, codes: result.issues.map((i) => i.code) }).toEqual({ name, codes: [DTD] });
        expect(result.issues[0]?.location.row, name).toEqual(expect.any(Number));
        expect(result.payments, name).toBe(0);
        expect(result.messageId, name).toBeUndefined();
        expect(result.valid, name).toBe(false);
        expect(elapsed, name).toBeLessThan(2000);
        expect(JSON.stringify(result)).not.toContain(MARKER);
      }
    });
  });

  it('`settle validate` refuses XXE and the multi-MB bomb with exit 1 and never prints the entity target', async () => {
    await withTempDir(async (dir) => {
      await writeHostile(dir);
      for (const name of ['xxe.xml', 'billion-laughs.xml']) {
        const result = await runSettle(['validate', join(dir, 'inputs', name), '--json'], { cwd: dir });
        expect({ name, code: result.code, stderr: result.stderr }).toEqual({ name, code: 1, stderr: '' });
        const json = JSON.parse(result.stdout) as { issues: { code: string; location: { row?: number } }[] };
        expect(json.issues.map((i) => i.code)).toEqual([DTD]);
        expect(json.issues[0]?.location.row).toEqual(expect.any(Number));
        expect(result.stdout + result.stderr).not.toContain(MARKER);
      }
    });
  });

  it('the pickup job moves every hostile file to error/ with a report naming the DTD, and the entity target appears in no file or output', async () => {
    await withTempDir(async (dir) => {
      const { names } = await writeHostile(dir);
      const inbox = join(dir, 'acme/inbox');
      await mkdir(inbox, { recursive: true });
      for (const name of names) await writeFile(join(inbox, name), await readFile(join(dir, 'inputs', name)));
      await writeFile(
        join(dir, 'settle.yaml'),
        `dataDir: ${dir}/data\ncompanies:\n  - id: acme\n    name: ACME AS\n    organisationNumber: "999999999"\n    root: ${dir}/acme\n    intake:\n      stableFor: 1s\n`,
      );
      const result = await runSettle(['--config', join(dir, 'settle.yaml'), 'run', 'pickup'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(await readdir(inbox)).toEqual([]);
      const errors = await readdir(join(dir, 'acme/error'));
      for (const name of names) {
        expect(errors).toContain(name);
        const report = await readFile(join(dir, 'acme/error', `${name}.errors.txt`), 'utf8');
        expect(report, name).toContain(DTD);
        expect(result.stdout).toContain(`${name}: rejected, 0 payment(s)`);
      }
      expect(result.stdout + result.stderr).not.toContain(MARKER);
      // Every file settle wrote (reports, moved inputs, the SQLite database), except the target itself.
      for (const file of await allFiles(dir)) {
        if (file.endsWith('secret-marker.txt')) continue;
        expect((await readFile(file)).includes(MARKER), file).toBe(false);
      }
      // No payment file was accepted from any of them.
      expect(await readdir(join(dir, 'acme/archive')).catch(() => [])).toEqual([]);
    });
  });
});
