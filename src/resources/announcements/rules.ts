import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { sanitize } from '../../core/html.js';
import { nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import { findAnnouncementOrThrow, insertAnnouncement, updateAnnouncement } from './repository.js';
import type { AnnouncementBody } from './schemas.js';

/** The acting user named by the request (`admin_id`, else `user_id`), checked to exist. */
async function actingUserId(db: Db, orgId: number, body: Pick<AnnouncementBody, 'admin_id' | 'user_id'>) {
  if (body.admin_id !== undefined) return (await findUserOrInvalid(db, orgId, body.admin_id, 'admin id')).id;
  if (body.user_id !== undefined) return (await findUserOrInvalid(db, orgId, body.user_id, 'user id')).id;
  return null;
}

function cleanBody(html: string): string {
  const clean = sanitize(html).trim();
  if (!clean) throw invalidParams('The body field must contain text after removing disallowed HTML.');
  return clean;
}

const cleanTitle = (title: string | null | undefined) => (title?.trim() ? title.trim() : null);

export async function createAnnouncement(trx: Db, auth: AuthContext, body: AnnouncementBody): Promise<number> {
  // one 422 naming every failing field
  const [userId, clean] = await checkAll([
    () => actingUserId(trx, auth.orgId, body),
    () => cleanBody(body.body),
  ] as const);
  const now = nowUtc();
  const values = { title: cleanTitle(body.title), body: clean };
  const id = await insertAnnouncement(trx, {
    organization_id: auth.orgId,
    ...values,
    user_id: userId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  await logAction(trx, auth, 'announcement.created', id, {
    description: `posted announcement ${values.title ?? `#${id}`}.`,
    actorUserId: userId,
    after: values,
  });
  return id;
}

export async function changeAnnouncement(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: AnnouncementBody,
): Promise<void> {
  const before = await findAnnouncementOrThrow(trx, auth.orgId, id);
  const [userId, clean] = await checkAll([
    () => actingUserId(trx, auth.orgId, body),
    () => cleanBody(body.body),
  ] as const);
  const values = { title: body.title === undefined ? before.title : cleanTitle(body.title), body: clean };
  await updateAnnouncement(trx, auth.orgId, id, { ...values, updated_at: nowUtc() });
  await logAction(trx, auth, 'announcement.updated', id, {
    description: `updated announcement ${values.title ?? `#${id}`}.`,
    actorUserId: userId,
    before: { title: before.title, body: before.body },
    after: values,
  });
}

export async function deleteAnnouncement(
  trx: Db,
  auth: AuthContext,
  id: number,
  actor: Pick<AnnouncementBody, 'admin_id' | 'user_id'>,
) {
  const before = await findAnnouncementOrThrow(trx, auth.orgId, id);
  const userId = await actingUserId(trx, auth.orgId, actor);
  await updateAnnouncement(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'announcement.deleted', id, {
    description: `deleted announcement ${before.title ?? `#${id}`}.`,
    actorUserId: userId,
    before: { title: before.title, body: before.body },
  });
}
