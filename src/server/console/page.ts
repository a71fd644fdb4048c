// The contract between the console's shell (sign-in, sessions, CSRF, CSP, layout, routing) and
// its pages. A page loads what it shows through the store's read models and returns its body
// rendered by the template engine (src/html: `Html`, every outside value escaped there); the
// shell wraps it in the layout, checks the person's roles against the one table of ../access.ts
// (by the route's path) before calling it, and verifies the CSRF token before any action runs.
import type { BankClient } from '../../bank/index.js';
import type { CompanyConfig } from '../../config/index.js';
import type { Role } from '../../domain/roles.js';
import type { Clock } from '../../domain/clock.js';
import type { Logger } from '../../log/index.js';
import type { Html } from '../../html/index.js';
import type { Locale, MessageKey } from '../../i18n/index.js';
import type { Store } from '../../store/index.js';

/** The signed-in person, with roles per company from the configuration's people lists. */
export interface ConsoleUser {
  /** Stable id: the OIDC subject (`oidc:<issuer>#<sub>`) or `local:<username>`. */
  id: string;
  /** Who this login is across sign-in methods (src/domain/person.ts); four eyes compares these. */
  person: string;
  name: string;
  email?: string;
  rolesByCompany: ReadonlyMap<string, ReadonlySet<Role>>;
  /** One of console.auditors: reads the whole audit trail, whatever their roles in companies. */
  auditor?: boolean;
}

/** What a page or an action needs from the running install. */
export interface ConsoleDeps {
  store: Store;
  clock: Clock;
  /** Company ids with each one's time zone, in configuration order. */
  companies: readonly {
    id: string;
    name: string;
    timeZone: string;
    /** The language of the company's files and notices; people's own choice comes first. */
    locale?: Locale;
    /** The bank's resource group and the configured banks: what onboarding commands name. */
    organisationNumber: string;
    bankIds: readonly string[];
    /** payments.payrollAccounts: lines from these debtor accounts are payroll, like SALA lines. */
    payrollAccounts?: readonly string[];
    /**
     * Where the approve job sends a basket's approval link: by e-mail (an SMTP server and
     * approvers with addresses), to the approvers' folder, both, or nowhere (then only the console
     * and `settle approvals list --link` give it).
     */
    approvalLink?: { email: boolean; folder?: string };
  }[];
  /** alerts.warnBefore: how long before expiry consents and approval links are shown as needing a person. */
  warnBeforeMs?: number;
  /** alerts.linkWarnBefore: the same for approval links, which live at most 7 days. */
  linkWarnBeforeMs?: number;
  /**
   * What the operator's cancellations need beyond the store: the companies' configuration (four
   * eyes, the bank's resource group) and the bank client. Without it they answer 503.
   */
  operations?: { companies: readonly CompanyConfig[]; bank(): BankClient; logger: Logger };
}

export interface PageRequest {
  user: ConsoleUser;
  /** The company chosen in the URL (`?company=`), already checked against the user's roles. */
  company: string;
  query: URLSearchParams;
  params: Readonly<Record<string, string>>;
  /** To put into every form the page renders (pages/parts.tsx's CsrfField). */
  csrfToken: string;
}

export interface PageResult {
  title: string;
  /** The page's body, rendered by src/html's `render` (which escapes every value from outside). */
  body: Html;
  status?: number;
  /**
   * Sent instead of the page (a recorded report): never shown inside the console's layout, and
   * under a sandboxing policy, so its HTML does not run under the console's origin. Content
   * given as pieces is sent as they come (a recorded report's parts, read as the reader takes
   * them); a piece that fails aborts the response. `sizeBytes`, the content's size in UTF-8
   * where it is known, is sent as its Content-Length. `gone` names the page to answer instead
   * when the first piece fails because the content was deleted meanwhile (undefined: the
   * failure is an error).
   */
  download?: {
    fileName: string;
    mediaType: string;
    content: string | AsyncIterable<string>;
    sizeBytes?: number;
    gone?: (error: unknown) => PageResult | undefined;
  };
  /** Sent elsewhere instead (303): the board of someone with one company is their Today. */
  redirect?: string;
}

export interface ConsolePage {
  /** fastify route path, e.g. `/console/payments/:id`. */
  path: string;
  /** Shown in the navigation when set: the entry's sentence in the catalogue. */
  nav?: MessageKey;
  /**
   * The page reads every company the person has a role in, not the chosen one alone (the
   * board): in the navigation only for someone with more than one.
   */
  acrossCompanies?: true;
  load(deps: ConsoleDeps, req: PageRequest): Promise<PageResult>;
}

/** Where a change came from, for the audit trail: who, and from which address. */
export interface ActionOrigin {
  actor: string;
  address: string;
}

export interface ActionRequest extends PageRequest {
  form: Readonly<Record<string, string>>;
  origin: ActionOrigin;
}

/** How the audit trail names where a console change came from: `console@<address>`. */
export function auditOrigin(origin: ActionOrigin): string {
  return `console@${origin.address}`;
}

/**
 * What an action answers. `audited: true` says the action wrote its own, specific audit entry
 * for the change it made (with who, what, when and auditOrigin), so the router adds no generic
 * one: one entry per change. Refusals and failures leave it out and get the router's entry.
 * `refusedRole` says the action refused the person for a role they lack (`roleRefusal`): the
 * router counts it like its own refusals, one entry per person, route, company and minute, so
 * hammering an action that refuses cannot grow the trail either.
 */
export type ActionResult = (
  { redirect: string } | { status: number; title: string; body: Html; refusedRole?: Role }
) & {
  audited?: true;
};

export interface ConsoleAction {
  /** POST route path, e.g. `/console/findings/:id/ack`. */
  path: string;
  handle(deps: ConsoleDeps, req: ActionRequest): Promise<ActionResult>;
}
