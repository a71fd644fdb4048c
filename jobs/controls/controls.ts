// A company's payment controls as pickup and `settle controls test` use them (docs/controls.md):
// the `controls` keys resolved into the domain's settings, the known-creditor-accounts file
// read and checked, and the load audited. A fraudster who can edit the YAML can raise a limit or
// add an account to the known file, so every load whose limits, rules or file differ from the
// last audited one is written to the audit trail with the checksums, before any line is checked.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CompanyConfig } from '../../src/config/index.js';
import { normalizeIban } from '../../src/domain/account-id.js';
import type { Clock } from '../../src/domain/clock.js';
import {
  DAY_NAMES,
  parseKnownAccounts,
  type ControlSettings,
  type ControlSetup,
  type KnownAccount,
  type Limits,
} from '../../src/domain/controls/index.js';
import { SettleError } from '../../src/domain/errors.js';
import { today, toLocalDate } from '../../src/domain/local-date.js';
import type { AuditTrail } from '../../src/store/index.js';
import { auditReason } from '../../src/domain/audit-reason.js';

/** The audit action of a changed load, and its subject type (the subject id is the company). */
export const CONTROLS_LOADED = 'controls.load';
const SUBJECT = 'company-controls';

/** The domain's settings from the company's `controls` keys (goLive defaults to reconcile.since). */
export function controlSettings(company: CompanyConfig): ControlSettings {
  const c = company.controls;
  const goLive = c.goLive ?? company.reconcile.since;
  const accountLimits: Record<string, Limits> = {};
  for (const [iban, account] of Object.entries(c.accounts)) accountLimits[normalizeIban(iban)] = account.limits;
  return {
    changedAccount: c.changedAccount,
    newAccount: c.newAccount,
    ...(goLive ? { goLive: toLocalDate(goLive) } : {}),
    limits: c.limits,
    accountLimits,
    ...(c.hours
      ? {
          hours: {
            from: c.hours.from,
            to: c.hours.to,
            days: c.hours.days.map((d) => DAY_NAMES.indexOf(d)),
          },
        }
      : {}),
  };
}

export interface LoadedControls {
  setup: ControlSetup;
  /** SHA-256 over the settings and the known-accounts file's bytes. */
  checksum: string;
  knownAccountsSha256?: string;
}

/** Reads the company's controls; the known-accounts file path is relative to the working folder. */
export async function loadControls(
  company: CompanyConfig,
  at: { clock: Clock; timeZone: string },
): Promise<LoadedControls> {
  const settings = controlSettings(company);
  const path = company.controls.knownAccounts;
  let known: KnownAccount[] = [];
  let knownAccountsSha256: string | undefined;
  if (path !== undefined) {
    const bytes = await readFile(resolve(path)).catch((error: NodeJS.ErrnoException) => {
      throw new SettleError(
        'ERR_CONTROLS_KNOWN_ACCOUNTS',
        `companies.${company.id}.controls.knownAccounts: ${path} cannot be read (${error.code ?? error.message})`,
      );
    });
    const parsed = parseKnownAccounts(bytes.toString('utf8'), path);
    if (!parsed.ok)
      throw new SettleError(
        'ERR_CONTROLS_KNOWN_ACCOUNTS',
        `companies.${company.id}.controls.knownAccounts: ${parsed.problems.slice(0, 5).join('; ')}`,
      );
    known = parsed.accounts;
    knownAccountsSha256 = createHash('sha256').update(bytes).digest('hex');
  }
  const checksum = createHash('sha256')
    .update(JSON.stringify({ settings, knownAccounts: path ?? null, knownAccountsSha256: knownAccountsSha256 ?? null }))
    .digest('hex');
  return {
    setup: {
      settings,
      known,
      timeZone: company.timeZone ?? at.timeZone,
      today: today(at.clock, company.timeZone ?? at.timeZone),
    },
    checksum,
    ...(knownAccountsSha256 ? { knownAccountsSha256 } : {}),
  };
}

/**
 * Loads the company's controls and writes the load to the audit trail when its checksum differs
 * from the last one recorded for the company (the first load included), with what it holds.
 */
export async function loadAuditedControls(
  company: CompanyConfig,
  at: { clock: Clock; timeZone: string; audit: Pick<AuditTrail, 'append' | 'list'>; origin: string },
): Promise<ControlSetup> {
  const loaded = await loadControls(company, at);
  const subject = { type: SUBJECT, id: company.id };
  const last = (await at.audit.list({ subject })).filter((e) => e.action === CONTROLS_LOADED).at(-1);
  const previous = last?.details?.checksum as string | undefined;
  if (previous !== loaded.checksum) {
    const { settings, known } = loaded.setup;
    await at.audit.append({
      actor: 'settle',
      action: CONTROLS_LOADED,
      subject,
      ...(previous === undefined ? auditReason.controlsFirstLoad() : auditReason.controlsChanged()),
      origin: at.origin,
      details: {
        checksum: loaded.checksum,
        previousChecksum: previous ?? null,
        settings,
        knownAccounts: {
          file: company.controls.knownAccounts ?? null,
          sha256: loaded.knownAccountsSha256 ?? null,
          accounts: known.length,
        },
      },
    });
  }
  return loaded.setup;
}
