// The whole board of the install, every configured company (`settle health`): read through the
// same store query as the console's Board page (jobs/board/board.ts), page after page, so a bureau of
// any size is a few queries per thousand companies. Whether each company is onboarded comes
// from the same rows (src/domain/onboarding.ts), with what is missing and the commands that fix it.
import { readBoard, type BoardSort } from '../../jobs/board/index.js';
import { companyBanks } from '../config/index.js';
import { onboardingOf, type Onboarding } from '../domain/onboarding.js';
import { FALLBACK_LOCALE } from '../i18n/index.js';
import type { BoardCompany } from '../store/index.js';
import type { App } from './app.js';

/** Companies one read of the board takes (the store's largest page). */
const PER_READ = 1000;

export interface WholeBoard {
  /** Every company, those that need attention first (or by name, as asked). */
  rows: BoardCompany[];
  /** Each company's onboarding, in configuration order. */
  onboarding: Onboarding[];
}

/** By name, the names sort as the install's language (top-level `locale`) sorts them. */
export async function readWholeBoard(
  app: Pick<App, 'config' | 'store' | 'clock'>,
  sort: BoardSort = 'attention',
): Promise<WholeBoard> {
  const { config } = app;
  const now = app.clock.now();
  const rows: BoardCompany[] = [];
  const byName = {
    names: new Map(config.companies.map((c) => [c.id, c.name])),
    locale: config.locale ?? FALLBACK_LOCALE,
  };
  for (let page = 1; ; page++) {
    const board = await readBoard(app.store, {
      companies: config.companies.map((c) => c.id),
      now,
      warnBeforeMs: config.alerts.warnBefore,
      linkWarnBeforeMs: config.alerts.linkWarnBefore,
      sort,
      byName,
      page,
      pageSize: PER_READ,
    });
    rows.push(...board.rows);
    if (page >= board.pages) break;
  }
  const byId = new Map(rows.map((r) => [r.company, r]));
  const onboarding = config.companies.map((c) => {
    const row = byId.get(c.id);
    return onboardingOf(
      { id: c.id, organisationNumber: c.organisationNumber, bankIds: companyBanks(c).map((b) => b.bankId) },
      { liveConsents: row?.liveConsents ?? 0, enabledAccount: row?.enabledAccount ?? false },
    );
  });
  return { rows, onboarding };
}
