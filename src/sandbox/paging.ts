// Cursor paging for every list. The cursor is opaque to clients (base64url of an offset); the
// page size is small on purpose so clients must follow _links.next until it is null.
import { badRequest } from './problems.js';
import type { Link, Sandbox } from './sandbox.js';

export interface Page<T> {
  items: T[];
  links: { self: Link; next: Link | null; previous: Link | null };
}

export function paginate<T>(sb: Sandbox, items: readonly T[], path: string, query: Record<string, unknown>): Page<T> {
  const size = sb.options.pageSize;
  const cursor = query.cursor;
  let offset = 0;
  if (cursor !== undefined) {
    const decoded =
      typeof cursor === 'string' ? /^o:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
    if (!decoded?.[1]) throw badRequest('cursor is not a cursor this API issued.');
    offset = Number(decoded[1]);
  }
  const href = (at: number): Link => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (k === 'cursor' || v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
    }
    if (at > 0) params.set('cursor', Buffer.from(`o:${at}`).toString('base64url'));
    const qs = params.toString();
    return sb.link(`${path}${qs ? `?${qs}` : ''}`);
  };
  return {
    items: items.slice(offset, offset + size),
    links: {
      self: href(offset),
      next: offset + size < items.length ? href(offset + size) : null,
      previous: offset > 0 ? href(Math.max(0, offset - size)) : null,
    },
  };
}
