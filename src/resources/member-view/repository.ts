import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { MemberUserView } from './schemas.js';

/** What the organization lets members see of coworkers in GET /users. */
export async function findMemberUserView(db: Db, orgId: number): Promise<MemberUserView> {
  const row = await db.selectFrom('organization').select('member_user_view').where('id', '=', orgId).executeTakeFirst();
  if (!row) throw notFound('Company');
  return row.member_user_view === 'all' ? 'all' : 'work_contact';
}

export async function updateMemberUserView(db: Db, orgId: number, view: MemberUserView): Promise<void> {
  await db.updateTable('organization').set({ member_user_view: view }).where('id', '=', orgId).execute();
}
