/**
 * Results of a pure computation kept by key, at most `limit` of them (the oldest dropped first):
 * for work whose inputs recur, such as parsing the same RRULE texts or expanding the same
 * assignments over the same weeks.
 */
export class BoundedMemo<V> {
  private readonly kept = new Map<string, V>();

  constructor(private readonly limit: number) {}

  get(key: string, compute: () => V): V {
    if (this.kept.has(key)) return this.kept.get(key) as V;
    const value = compute();
    if (this.kept.size >= this.limit) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, value);
    return value;
  }
}
