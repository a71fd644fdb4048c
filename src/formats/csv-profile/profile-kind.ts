// The kinds of CSV profile settle reads, named in one place: a profile says which it is with
// `kind:` (absent: payments), and every command that loads a profile by name asks this first,
// so a profile of the other kind is refused with what it is and what it is for, never with the
// other schema's "kind: unknown key".
import { SettleError } from '../../domain/errors.js';

export const PROFILE_KINDS = {
  payments: 'payment files: pickup, settle validate, settle controls test (company intake.profile)',
  receivables: 'open receivables: reconcile, settle validate (company reconcile.receivablesProfile)',
} as const;

export type ProfileKind = keyof typeof PROFILE_KINDS;

const KIND_LINE = /^kind:[ \t]*["']?([^"'\s#]*)["']?[ \t]*(?:#.*)?$/m;

/** The kind a profile's YAML text declares, read without its schema; an unknown kind is refused. */
export function profileKindOf(text: string, file: string): ProfileKind {
  const declared = KIND_LINE.exec(text)?.[1];
  if (declared === undefined || declared === '') return 'payments';
  if (declared in PROFILE_KINDS) return declared as ProfileKind;
  throw new SettleError(
    'ERR_PROFILE_INVALID',
    `${file}: kind "${declared}" is not a profile kind settle reads (${Object.keys(PROFILE_KINDS).join(', ')})`,
  );
}

/** Refuses a profile of another kind than the command needs, saying what each is for. */
export function expectProfileKind(text: string, file: string, wanted: ProfileKind): void {
  const kind = profileKindOf(text, file);
  if (kind === wanted) return;
  throw new SettleError(
    'ERR_PROFILE_INVALID',
    `${file} is a ${kind} profile (${PROFILE_KINDS[kind]}); here a ${wanted} profile is needed (${PROFILE_KINDS[wanted]})`,
  );
}
