// The bureau's board as the console's Board page and `settle health` read it: one home for what
// "last night" and "expiring" mean there, so both show the same figures from the same store
// query (src/store/board-views.ts). Last night is the 24 hours before now, as the dead-man
// deadlines count a night (src/domain/deadline.ts); its steps are the nightly chain's.
//
// By name, the companies are sorted here with the reader's language's collator (bokmål puts
// æ, ø, å after z; English sorts them as a and o): the configuration is in memory already, and
// no database collates every language alike. Their places go into the one grouped query as its
// positions, which it orders and pages by (src/store/board-views.ts).
import { format, type Locale } from '../../src/i18n/index.js';
import type { BoardFilter, BoardPage, Store } from '../../src/store/index.js';
import { STEP_NAMES } from '../nightly/index.js';

/** alerts.warnBefore's and alerts.linkWarnBefore's defaults, for callers without a configuration. */
export const DEFAULT_WARN_BEFORE_MS = 7 * 86_400_000;
export const DEFAULT_LINK_WARN_BEFORE_MS = 86_400_000;
const NIGHT_MS = 86_400_000;

/** What a board is sorted by: what needs attention first (the default), or the companies' names. */
export type BoardSort = 'attention' | 'name';
export const BOARD_SORTS: readonly BoardSort[] = ['attention', 'name'];

/** The names to sort by and the language whose order they follow. */
export interface BoardNames {
  /** Each company's name by id (a company without one sorts by its id). */
  names: ReadonlyMap<string, string>;
  locale: Locale;
}

export interface BoardRead {
  /** The companies the reader may see, in configuration order. */
  companies: readonly string[];
  now: Date;
  /** alerts.warnBefore: consents expiring within it are counted. */
  warnBeforeMs?: number;
  /** alerts.linkWarnBefore: approval links expiring within it are counted. */
  linkWarnBeforeMs?: number;
  filter?: BoardFilter;
  /** By name needs `byName`. */
  sort?: BoardSort;
  byName?: BoardNames;
  page?: number;
  pageSize?: number;
}

/** The companies in their names' order in the language; equal names keep configuration order. */
export function companiesByName(companies: readonly string[], { names, locale }: BoardNames): string[] {
  const compare = format.collator(locale).compare;
  const name = (id: string) => names.get(id) ?? id;
  return [...companies].sort((a, b) => compare(name(a), name(b)));
}

export function readBoard(store: Pick<Store, 'board'>, read: BoardRead): Promise<BoardPage> {
  const at = (ms: number) => new Date(read.now.getTime() + ms);
  const byName = read.sort === 'name' && read.byName !== undefined;
  return store.board.page({
    companies: byName ? companiesByName(read.companies, read.byName!) : read.companies,
    order: byName ? 'position' : 'attention',
    steps: STEP_NAMES,
    now: read.now,
    nightSince: at(-NIGHT_MS),
    consentHorizon: at(read.warnBeforeMs ?? DEFAULT_WARN_BEFORE_MS),
    linkHorizon: at(read.linkWarnBeforeMs ?? DEFAULT_LINK_WARN_BEFORE_MS),
    ...(read.filter === undefined ? {} : { filter: read.filter }),
    ...(read.page === undefined ? {} : { page: read.page }),
    ...(read.pageSize === undefined ? {} : { pageSize: read.pageSize }),
  });
}
