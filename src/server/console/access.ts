// Who may open which console page and use which action: one table, by role. The router reads it
// to refuse (403, audited), the layout to build the navigation, the landing (`/console/`) to
// send each person to where their work starts, and the pages to leave out the forms and buttons
// a person may not use. docs/console.md ("Roles") prints the same table for people.
//
// Why not every page for every role: a viewer (an accountant dropping files, a manager looking)
// reads files, payments and what waits for approval, not the reconciliation and the bank's
// accounts; an approver needs what they approve and where it came from. Finance and payroll read
// the reconciliation; only operators run the install (audit trail, cancellations).
import type { Role } from '../../domain/roles.js';

/** The things a person does in the console, each one or more POST actions. */
export type Capability =
  | 'decide-findings' // acknowledge, reopen, confirm, reject, in bulk, assign
  | 'sign-off' // close a period
  | 'show-approval-link' // the single-use approval link, on request
  | 'operate' // resolve unknown bulks, release or drop held lines, cancel payments, confirm or decline a cancellation
  | 'verify-audit'; // walk the whole audit trail, record a checkpoint

export const TODAY = '/console/';
const APPROVALS = '/console/approvals';

/** What every role reads: where the money goes and what waits for whom. */
const READ = [
  TODAY,
  '/console/board',
  '/console/files',
  '/console/files/:id',
  '/console/payments',
  '/console/payments/:id',
  APPROVALS,
  '/console/approvals/:id',
  '/console/reports/:id',
] as const;

/** The reconciliation and what it reads: finance's and payroll's work. */
const RECONCILE = ['/console/reconciliation', '/console/statements', '/console/periods/:period/:format'] as const;

/** The money held at pickup or unknown at the bank. */
const MONEY_AT_RISK = ['/console/bulks', '/console/held'] as const;

/** The bank's side: consents and accounts. */
const BANKS = ['/console/banks'] as const;

const RUN_INSTALL = ['/console/audit', '/console/cancellations', '/console/payments/:id/cancel'] as const;

export interface RoleAccess {
  /** Where `/console/` sends someone whose roles start here (the first of LANDING_ORDER they have). */
  landing: string;
  pages: readonly string[];
  may: readonly Capability[];
}

export const ACCESS: Readonly<Record<Role, RoleAccess>> = {
  viewer: { landing: TODAY, pages: READ, may: [] },
  approver: { landing: APPROVALS, pages: READ, may: ['show-approval-link'] },
  finance: {
    landing: TODAY,
    pages: [...READ, ...RECONCILE, ...MONEY_AT_RISK, ...BANKS],
    may: ['decide-findings', 'sign-off'],
  },
  payroll: { landing: TODAY, pages: [...READ, ...RECONCILE, ...MONEY_AT_RISK], may: [] },
  // The approval link is the approver's alone: an operator does not approve payments.
  operator: {
    landing: TODAY,
    pages: [...READ, ...RECONCILE, ...MONEY_AT_RISK, ...BANKS, ...RUN_INSTALL],
    may: ['decide-findings', 'sign-off', 'operate', 'verify-audit'],
  },
};

/** console.auditors: install-wide, in any company, whatever their roles there. */
export const AUDITOR_ACCESS: Pick<RoleAccess, 'pages' | 'may'> = {
  pages: ['/console/audit'],
  may: ['verify-audit'],
};

/** Which role's landing wins for someone with several: the broadest work first. */
const LANDING_ORDER: readonly Role[] = ['operator', 'finance', 'payroll', 'approver', 'viewer'];

/** The capability each POST action needs, by its route path. An action missing here is refused to everyone. */
export const ACTION_NEEDS: Readonly<Record<string, Capability>> = {
  '/console/findings/:id/ack': 'decide-findings',
  '/console/findings/:id/reopen': 'decide-findings',
  '/console/findings/:id/confirm': 'decide-findings',
  '/console/findings/:id/reject': 'decide-findings',
  '/console/findings/bulk': 'decide-findings',
  '/console/findings/:id/assign': 'decide-findings',
  '/console/periods/signoff': 'sign-off',
  '/console/approvals/:id/link': 'show-approval-link',
  '/console/bulks/:id/resolve': 'operate',
  '/console/held/:id/release': 'operate',
  '/console/held/:id/drop': 'operate',
  '/console/payments/:id/cancel': 'operate',
  '/console/cancellations/:id/confirm': 'operate',
  '/console/cancellations/:id/decline': 'operate',
  '/console/audit/verify': 'verify-audit',
  '/console/audit/checkpoint': 'verify-audit',
};

/** Whether an install-wide auditor gets in by that alone (in any company, roles or not). */
export function auditorsMay(route: { page: string } | { action: string }): boolean {
  if ('page' in route) return AUDITOR_ACCESS.pages.includes(route.page);
  const needs = ACTION_NEEDS[route.action];
  return needs !== undefined && AUDITOR_ACCESS.may.includes(needs);
}

/** Who asks: their roles in the chosen company, and whether they are an install-wide auditor. */
export interface Asker {
  roles: Iterable<Role>;
  auditor?: boolean | undefined;
}

export function mayOpen(who: Asker, path: string): boolean {
  if (who.auditor === true && AUDITOR_ACCESS.pages.includes(path)) return true;
  return [...who.roles].some((r) => ACCESS[r].pages.includes(path));
}

export function mayDo(who: Asker, capability: Capability): boolean {
  if (who.auditor === true && AUDITOR_ACCESS.may.includes(capability)) return true;
  return [...who.roles].some((r) => ACCESS[r].may.includes(capability));
}

/** Whether the person may send the POST action at this route path. */
export function mayPost(who: Asker, path: string): boolean {
  const needs = ACTION_NEEDS[path];
  return needs !== undefined && mayDo(who, needs);
}

/** The roles that may open a page or use a capability: what a refusal names. */
export function rolesFor(what: { page: string } | { capability: Capability }): Role[] {
  return (Object.keys(ACCESS) as Role[]).filter((r) =>
    'page' in what ? mayOpen({ roles: [r] }, what.page) : mayDo({ roles: [r] }, what.capability),
  );
}

/** Where `/console/` sends the person first. */
export function landingOf(roles: Iterable<Role>): string {
  const mine = new Set(roles);
  const first = LANDING_ORDER.find((r) => mine.has(r));
  return first ? ACCESS[first].landing : TODAY;
}
