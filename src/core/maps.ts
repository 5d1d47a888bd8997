/* Maps built from lists, as the engine and the schedule's rendering group their items. */

/** Items grouped by keys, in their order. */
export function groupBy<T, K>(items: T[], keysOf: (item: T) => K[]): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    for (const key of keysOf(item)) {
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
  }
  return groups;
}

/** A copy of `map` without the keys of `without`, then with `entries` set over it. */
export function withEntries<K, V>(
  map: Map<K, V>,
  entries: Iterable<readonly [K, V]>,
  without: Iterable<K> = [],
): Map<K, V> {
  const copy = new Map(map);
  for (const key of without) copy.delete(key);
  for (const [key, value] of entries) copy.set(key, value);
  return copy;
}
