/**
 * The named fields of a request body that were sent, and only those: what a write may store.
 * Bodies keep fields their schema does not declare, so a body is never spread into a row
 * (an `organization_id` or any column name would be written); an undefined field stays unchanged.
 */
export function sentFields<T extends object, K extends keyof T>(body: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) {
    if (body[key] !== undefined) picked[key] = body[key];
  }
  return picked;
}

/** False for an update that sets no column (Kysely skips undefined values): a no-op, and an UPDATE needs a SET. */
export function hasChanges(values: object): boolean {
  return Object.values(values).some((value) => value !== undefined);
}
