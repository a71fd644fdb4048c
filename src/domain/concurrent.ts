// Work over a list with at most `limit` items in progress: a pool of workers that each take the
// next item as soon as their last one finished. Batches of `limit` with Promise.all wait for each
// batch's slowest item, so the bank's connections sit idle while one answer is late.

/**
 * fn over every item, at most `limit` at once; results in the items' order. After a failure no
 * new item starts, the ones in progress finish, and then the first failure is thrown — so a
 * caller's clean-up (releasing claims) never runs while an item is still working.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(Math.floor(limit), items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
