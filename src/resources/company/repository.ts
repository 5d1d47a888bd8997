import { orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import { sentFields } from '../../core/fields.js';
import type { CompanyProfileRow } from './table.js';

export const PROFILE_FIELDS = ['address', 'city', 'state', 'country', 'zip', 'phone', 'email', 'website'] as const;
export type ProfileValues = Partial<Record<(typeof PROFILE_FIELDS)[number], string | null>>;

/** The organization row with its contact details (absent until first written). */
export async function findCompany(db: Db, orgId: number) {
  const organization = await db
    .selectFrom('organization')
    .select(['id', 'name', 'timezone'])
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (!organization) throw notFound('Company');
  const profile = await orgRows(db, 'company_profile', orgId).executeTakeFirst();
  return { organization, profile };
}

export async function saveProfile(
  db: Db,
  orgId: number,
  existing: CompanyProfileRow | undefined,
  body: ProfileValues,
  now: string,
) {
  const values = sentFields(body, PROFILE_FIELDS);
  if (existing) {
    await db
      .updateTable('company_profile')
      .set({ ...values, updated_at: now })
      .where('organization_id', '=', orgId)
      .execute();
  } else {
    await db
      .insertInto('company_profile')
      .values({ ...values, organization_id: orgId, updated_at: now })
      .execute();
  }
}
