/**
 * A Map that forgets everything when it reaches its size: enough for the repeats of one file.
 * The last key asked for is answered first without the Map: a file's lines mostly repeat the
 * line before (one debtor account, currency and date), and comparing two short strings costs
 * less than hashing a new one for the lookup.
 */
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  private lastKey: K | undefined;
  private lastValue: V | undefined;
  constructor(private readonly max = 4096) {}
  get(key: K): V | undefined {
    if (key === this.lastKey) return this.lastValue;
    const value = this.map.get(key);
    if (value !== undefined) {
      this.lastKey = key;
      this.lastValue = value;
    }
    return value;
  }
  set(key: K, value: V): void {
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, value);
    this.lastKey = key;
    this.lastValue = value;
  }
}
