// The bureau's board as the console's Board page and `settle health` read it: one home for what
// "last night" and "expiring" mean there, so both show the same figures from the same store
// query (src/store/board-views.ts). Last night is the 24 hours before now, as the dead-man
// deadlines count a night (src/domain/deadline.ts); its steps are the nightly chain's.
import type { BoardFilter, BoardPage, Store } from '../../src/store/index.js';
import { STEP_NAMES } from '../nightly/index.js';

/** alerts.warnBefore's and alerts.linkWarnBefore's defaults, for callers without a configuration. */
export const DEFAULT_WARN_BEFORE_MS = 7 * 86_400_000;
export const DEFAULT_LINK_WARN_BEFORE_MS = 86_400_000;
const NIGHT_MS = 86_400_000;

export interface BoardRead {
  /** The companies the reader may see, in configuration order. */
  companies: readonly string[];
  now: Date;
  /** alerts.warnBefore: consents expiring within it are counted. */
  warnBeforeMs?: number;
  /** alerts.linkWarnBefore: approval links expiring within it are counted. */
  linkWarnBeforeMs?: number;
  filter?: BoardFilter;
  page?: number;
  pageSize?: number;
}

export function readBoard(store: Pick<Store, 'board'>, read: BoardRead): Promise<BoardPage> {
  const at = (ms: number) => new Date(read.now.getTime() + ms);
  return store.board.page({
    companies: read.companies,
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
