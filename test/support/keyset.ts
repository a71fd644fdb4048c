// Reads a keyset-paged list to its end, page by page, as a person following "next" links would.
import type { Paged, PageQuery } from '../../src/store/index.js';

export async function allPages<T>(
  load: (q: PageQuery) => Promise<Paged<T>>,
  limit: number,
): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let after: string | undefined;
  let pages = 0;
  do {
    const page = await load({ limit, ...(after ? { after } : {}) });
    rows.push(...page.rows);
    after = page.next;
    pages++;
    if (pages > 1000) throw new Error('paging does not end');
  } while (after);
  return { rows, pages };
}
