// Prepared statements kept per SQLite connection. knex's better-sqlite3 client prepares each
// query's SQL anew (parse and plan), and the payment path runs the same statements for every
// bulk: a move's SELECT, INSERT … SELECT and UPDATE, the request's read, BEGIN and COMMIT — some
// with a thousand placeholders. The client only ever calls `run` or `all` on a statement (never
// `iterate`, which would keep it busy), and SQLite re-prepares a statement by itself when the
// schema changed, so a kept statement is as good as a new one.

/** The one method of a better-sqlite3 connection that knex's client calls in `_query`. */
export interface PreparingConnection {
  prepare(sql: string): unknown;
}

/** Distinct SQL texts kept per connection: id lists of every length make texts without end. */
export const STATEMENTS_PER_CONNECTION = 200;

const wrappers = new WeakMap<PreparingConnection, PreparingConnection>();

/** The connection as knex's client sees it, with `prepare` answered from its cache. */
export function cachingConnection(connection: PreparingConnection): PreparingConnection {
  let wrapper = wrappers.get(connection);
  if (wrapper === undefined) {
    const kept = new Map<string, unknown>();
    wrapper = {
      prepare(sql: string): unknown {
        let statement = kept.get(sql);
        if (statement === undefined) {
          statement = connection.prepare(sql);
          // Oldest first out (a Map iterates in insertion order); a hit moves to the end.
          if (kept.size >= STATEMENTS_PER_CONNECTION) kept.delete(kept.keys().next().value as string);
        } else kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      },
    };
    wrappers.set(connection, wrapper);
  }
  return wrapper;
}
