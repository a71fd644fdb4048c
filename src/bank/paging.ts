// Cursor paging as an async iterator: fetch a page, yield its items, follow the next link until
// there is none. The next link may sit at `_links.next` or inside the list object (the
// transactions quirk, facts §2.6), may be null, a Link or a bare URL; a bare `nextCursor` is
// accepted too. When the link carries a `cursor`, the original request is repeated with that
// cursor (the bank's own example link spells the date parameter differently from the API,
// facts §10.7, so its other parameters are not trusted); a link without one is followed as is
// when it points at the bank.
import { invalid } from './readers.js';
import type { BankHttp, HttpRequest } from './http.js';
import { asObject, asString, readLink } from './normalize.js';

export interface Page<T> {
  items: T[];
  /** The next link's href, or a bare cursor. */
  next?: { href: string } | { cursor: string };
}

/** Where the next link is: `_links.next` at the top, or inside one of the named list objects. */
export function nextOf(body: unknown, nested: readonly string[] = []): Page<never>['next'] {
  const o = asObject(body);
  if (!o) return undefined;
  for (const holder of [o, ...nested.map((n) => asObject(o[n]))]) {
    if (!holder) continue;
    const link = readLink(asObject(holder._links)?.next) ?? readLink(asObject(holder.links)?.next);
    if (link) return { href: link.href };
    const cursor = asString(holder.nextCursor) ?? asString(asObject(holder.paging)?.nextCursor);
    if (cursor) return { cursor };
  }
  return undefined;
}

export async function* paginate<T>(
  http: BankHttp,
  start: HttpRequest,
  read: (body: unknown) => Page<T>,
): AsyncGenerator<T, void, undefined> {
  // Every page, the first and those its links lead to, is read under the page size limit.
  const first: HttpRequest = { ...start, answer: 'page' };
  let req: HttpRequest | undefined = first;
  const seen = new Set<string>();
  while (req) {
    const response = await http.send(req);
    const page = read(response.body);
    yield* page.items;
    req = nextRequest(http, first, page.next);
    if (req) {
      const key = req.url ?? JSON.stringify(req.query);
      // A bank that hands back the same cursor would loop forever; stop with an error instead.
      if (seen.has(key))
        throw invalid('page links', `the next link repeats an earlier page (${req.path ?? req.url ?? ''})`);
      seen.add(key);
    }
  }
}

function nextRequest(http: BankHttp, first: HttpRequest, next: Page<never>['next']): HttpRequest | undefined {
  if (!next) return undefined;
  if ('cursor' in next) return { ...first, query: { ...first.query, cursor: next.cursor } };
  const base = new URL(http.baseUrl + '/');
  const url = new URL(next.href, base);
  const cursor = url.searchParams.get('cursor');
  if (cursor) return { ...first, query: { ...first.query, cursor } };
  if (url.origin !== base.origin)
    throw invalid('page links', `the next link points away from the bank (${url.origin})`);
  const { query: _query, path: _path, ...rest } = first;
  return { ...rest, url: url.toString() };
}
