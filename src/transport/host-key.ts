// SSH host key fingerprints in the form OpenSSH prints them (`ssh-keygen -lf`, `ssh -v`):
// "SHA256:" + unpadded base64 of the SHA-256 of the public key blob. Pinning one in config is
// what protects the payment files from a man in the middle; this file only computes and
// compares, the SFTP store decides.
import { createHash } from 'node:crypto';

export interface HostKeyInfo {
  /** "SHA256:…" as ssh-keygen prints it. */
  fingerprint: string;
  /** The key type from the blob, e.g. "ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa". */
  keyType: string;
}

/** The fingerprint and key type of a raw public key blob as sent by the server. */
export function describeHostKey(blob: Buffer): HostKeyInfo {
  const digest = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
  // The blob starts with an SSH string: uint32 length, then the key type name.
  let keyType = 'unknown';
  if (blob.length >= 4) {
    const length = blob.readUInt32BE(0);
    if (length > 0 && length < 64 && blob.length >= 4 + length)
      keyType = blob.subarray(4, 4 + length).toString('latin1');
  }
  return { fingerprint: `SHA256:${digest}`, keyType };
}

/**
 * Normalises a configured pin to "SHA256:<base64 without padding>". Accepts the bare base64
 * part, with or without "SHA256:" and '=' padding. Returns undefined when it is not a SHA-256
 * fingerprint at all (e.g. an old MD5 "aa:bb:…" one), so the caller can say so.
 */
export function normalizeFingerprint(value: string): string | undefined {
  const bare = value
    .trim()
    .replace(/^SHA256:/i, '')
    .replace(/=+$/, '');
  // 32 bytes are 43 base64 characters without padding.
  if (!/^[A-Za-z0-9+/]{43}$/.test(bare)) return undefined;
  return `SHA256:${bare}`;
}
