import type { ExpressionBuilder } from 'kysely';
import { jsonArrayFrom, parseJsonArray } from '../core/db/json.js';
import type { Db } from '../core/db/transaction.js';
import type { Database } from '../core/db/types.js';
import type { Qualification, Qualifications } from './staffing.js';

/*
 * What a person is qualified for: their user qualifiers, and each current certification whose
 * `cert_id` is a qualifier's shortcode (case ignored) grants that qualifier from `issued_on` to
 * `expires_on` (docs/schedule.md). Both come as JSON array columns of a user row, so a loader that
 * reads users (the schedule's) gets them in the same statement.
 */

type UserEb = ExpressionBuilder<Database & { user_account: Database['user_account'] }, 'user_account'>;

export function qualificationColumns(db: Db, eb: UserEb, orgId: number) {
  return [
    jsonArrayFrom(
      db,
      eb
        .selectFrom('user_qualifier as uq')
        .innerJoin('qualifier as uqq', (join) =>
          join.onRef('uqq.id', '=', 'uq.qualifier_id').onRef('uqq.organization_id', '=', 'uq.organization_id'),
        )
        .select('uq.qualifier_id')
        .where('uq.organization_id', '=', orgId)
        .whereRef('uq.user_id', '=', 'user_account.id')
        .where('uqq.deleted_at', 'is', null),
    ).as('qualifier_ids'),
    jsonArrayFrom(
      db,
      eb
        .selectFrom('user_certification as uc')
        .innerJoin('certification as c', (join) =>
          join.onRef('c.id', '=', 'uc.certification_id').onRef('c.organization_id', '=', 'uc.organization_id'),
        )
        .innerJoin('qualifier as cq', (join) =>
          join
            .onRef('cq.organization_id', '=', 'uc.organization_id')
            .on((e) => e(e.fn('lower', ['cq.shortcode']), '=', e.fn('lower', ['c.cert_id']))),
        )
        .select(['cq.id as qualifier_id', 'uc.issued_on', 'uc.expires_on'])
        .where('uc.organization_id', '=', orgId)
        .whereRef('uc.user_id', '=', 'user_account.id')
        .where('c.deleted_at', 'is', null)
        .where('cq.deleted_at', 'is', null),
    ).as('certified'),
  ] as const;
}

/** The two columns of qualificationColumns read back. */
export function qualificationOf(row: { qualifier_ids: unknown; certified: unknown }): Qualification {
  return {
    qualifierIds: parseJsonArray<{ qualifier_id: number }>(row.qualifier_ids).map((q) => Number(q.qualifier_id)),
    certifications: parseJsonArray<{ qualifier_id: number; issued_on: string | null; expires_on: string | null }>(
      row.certified,
    ).map((c) => ({
      ...c,
      qualifier_id: Number(c.qualifier_id),
    })),
  };
}

/** The qualifications of the users (every active user of the organization when none are named). One statement. */
export async function loadQualifications(db: Db, orgId: number, userIds?: number[]): Promise<Qualifications> {
  const rows = await db
    .selectFrom('user_account')
    .select('user_account.id')
    .select((eb) => qualificationColumns(db, eb, orgId))
    .where('user_account.organization_id', '=', orgId)
    .$if(userIds !== undefined, (qb) => qb.where('user_account.id', 'in', userIds!.length ? userIds! : [0]))
    .execute();
  return new Map(rows.map((row) => [row.id, qualificationOf(row)]));
}
