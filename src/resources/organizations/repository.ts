import type { Db } from '../../core/db/transaction.js';
import { withTransaction } from '../../core/db/transaction.js';
import { canonicalZone, isValidTimeZone, nowUtc } from '../../core/time.js';
import { insertReason } from '../availability-periods/repository.js';
import { insertDefaultWorkTypes } from '../work-types/repository.js';

export const DEFAULT_UNAVAILABILITY_REASON = 'Default';

export interface NewOrganization {
  name: string;
  timezone: string;
}

/**
 * Creates an organization with its default work types (Regular Time, Overtime, Callback, Trade) and
 * an unavailability reason "Default" (the samples' availability periods name one).
 */
export async function createOrganization(db: Db, input: NewOrganization): Promise<number> {
  if (!input.name.trim()) throw new Error('organization name must not be empty');
  // stored in its IANA spelling, whatever the case it was typed in
  const timezone = canonicalZone(input.timezone);
  if (!isValidTimeZone(timezone)) throw new Error(`unknown IANA time zone: ${input.timezone}`);
  return withTransaction(db, async (trx) => {
    const { id } = await trx
      .insertInto('organization')
      .values({ name: input.name.trim(), timezone, created_at: nowUtc() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertDefaultWorkTypes(trx, id);
    await insertReason(trx, id, DEFAULT_UNAVAILABILITY_REASON);
    return id;
  });
}

export async function findOrganization(db: Db, id: number) {
  return db.selectFrom('organization').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listOrganizations(db: Db) {
  return db.selectFrom('organization').selectAll().orderBy('id').execute();
}

/** The organization's name and zone (one that must exist: an offer's, a callback's). */
export function findOrganizationOrThrow(db: Db, id: number) {
  return db
    .selectFrom('organization')
    .select(['id', 'name', 'timezone'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
