import type { Insertable, Updateable } from 'kysely';
import { orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { AnnouncementRow, AnnouncementTable } from './table.js';

export async function findAnnouncementOrThrow(db: Db, orgId: number, id: number): Promise<AnnouncementRow> {
  return orgRows(db, 'announcement', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow(() => notFound('Announcement'));
}

/** Newest first; one row more than asked tells whether a next page exists. */
export async function listAnnouncementPage(db: Db, orgId: number, offset: number, limit: number) {
  const rows = await orgRows(db, 'announcement', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit + 1)
    .execute();
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

export async function insertAnnouncement(db: Db, values: Insertable<AnnouncementTable>): Promise<number> {
  const { id } = await db.insertInto('announcement').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateAnnouncement(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<AnnouncementTable>,
): Promise<void> {
  await updateOrgRow(db, 'announcement', orgId, id, values);
}
