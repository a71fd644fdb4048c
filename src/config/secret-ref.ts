// Secrets never live in the YAML that goes into git. A secret key in the YAML names where the
// value is: `{ env: NAME }`, `{ file: /path }`, or `{ credential: NAME }` (a systemd credential,
// read from $CREDENTIALS_DIRECTORY). Environment overrides (env.ts) may also give a value
// directly or through a `*_FILE` variable.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const secretRefSchema = z.union([
  z.strictObject({ env: z.string().min(1) }),
  z.strictObject({ file: z.string().min(1) }),
  z.strictObject({ credential: z.string().regex(/^[A-Za-z0-9_.-]+$/) }),
]);
export type SecretRef = z.infer<typeof secretRefSchema>;

/** A secret field as written in YAML: a reference only. A literal string is refused with advice. */
export const secretField = z
  .unknown()
  .superRefine((value, ctx) => {
    if (typeof value === 'string') {
      ctx.addIssue({
        code: 'custom',
        message:
          'secrets are not written in the configuration file; use { env: NAME }, { file: PATH } or { credential: NAME }',
      });
      return;
    }
    const parsed = secretRefSchema.safeParse(value);
    if (!parsed.success)
      ctx.addIssue({ code: 'custom', message: 'expected { env: NAME }, { file: PATH } or { credential: NAME }' });
  })
  .transform((value) => value as SecretRef);

export type SecretResult = { ok: true; value: string } | { ok: false; message: string };

/** Reads the value a reference points at. Messages name the source, never the value. */
export function resolveSecret(ref: SecretRef, env: NodeJS.ProcessEnv): SecretResult {
  if ('env' in ref) {
    const value = env[ref.env];
    return value ? { ok: true, value } : { ok: false, message: `environment variable ${ref.env} is not set` };
  }
  const path = 'file' in ref ? ref.file : credentialPath(ref.credential, env.CREDENTIALS_DIRECTORY);
  if (path === undefined)
    return {
      ok: false,
      message: `systemd credential "${'credential' in ref ? ref.credential : ''}" requested but CREDENTIALS_DIRECTORY is not set`,
    };
  try {
    return { ok: true, value: readFileSync(path, 'utf8').replace(/\r?\n$/, '') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    if ('credential' in ref && code === 'ENOENT')
      return {
        ok: false,
        message: `systemd credential "${ref.credential}" is not loaded: put the secret in /etc/settle/credentials/${ref.credential} (the sample units load that folder) and restart`,
      };
    return { ok: false, message: `secret file ${path} cannot be read (${code})` };
  }
}

/**
 * A credential's file: `NAME` as loaded one by one (`LoadCredential=NAME:…`), else `settle_NAME`
 * as the sample units load the whole /etc/settle/credentials folder (`LoadCredential=settle:…`),
 * which keeps every secret optional. When neither exists, the plain name is reported.
 */
function credentialPath(name: string, directory: string | undefined): string | undefined {
  if (!directory) return undefined;
  const plain = join(directory, name);
  const prefixed = join(directory, `settle_${name}`);
  return !existsSync(plain) && existsSync(prefixed) ? prefixed : plain;
}
