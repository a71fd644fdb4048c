import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeHostKey, normalizeFingerprint } from '../../src/transport/index.js';

function sshString(text: string): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(Buffer.byteLength(text));
  return Buffer.concat([length, Buffer.from(text)]);
}

describe('host key fingerprints', () => {
  it('computes the OpenSSH form: SHA256 and unpadded base64 of the key blob, and reads the key type', () => {
    const blob = Buffer.concat([sshString('ssh-ed25519'), sshString('k'.repeat(32))]);
    const expected = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
    expect(describeHostKey(blob)).toEqual({ fingerprint: `SHA256:${expected}`, keyType: 'ssh-ed25519' });
    expect(describeHostKey(Buffer.from([1, 2])).keyType).toBe('unknown');
  });

  it('normalises pins with or without prefix and padding, and rejects other formats', () => {
    const bare = 'A'.repeat(42) + 'E';
    expect(normalizeFingerprint(bare)).toBe(`SHA256:${bare}`);
    expect(normalizeFingerprint(` SHA256:${bare}= `)).toBe(`SHA256:${bare}`);
    expect(normalizeFingerprint('sha256:' + bare)).toBe(`SHA256:${bare}`);
    expect(normalizeFingerprint('MD5:aa:bb:cc:dd')).toBeUndefined();
    expect(normalizeFingerprint('SHA256:tooshort')).toBeUndefined();
  });
});
