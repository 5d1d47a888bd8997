import { deleteOrgRows, orgColumns } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { orNotFound } from '../../core/errors.js';

function mappingQuery(db: Db, orgId: number) {
  return db
    .selectFrom('partner_user')
    .innerJoin('user_account', 'user_account.id', 'partner_user.service_user_id')
    .select([
      'partner_user.id as row_id',
      'partner_user.partner_user_id',
      'partner_user.service_user_id',
      'partner_user.partner_customer_id',
      'partner_user.organization_id',
      'user_account.first_name',
      'user_account.last_name',
    ])
    .where('partner_user.organization_id', '=', orgId)
    .where('user_account.organization_id', '=', orgId)
    .where('user_account.deleted_at', 'is', null);
}

export type PartnerMapping = Awaited<ReturnType<typeof listPartnerUsers>>[number];

export function listPartnerUsers(db: Db, orgId: number) {
  return mappingQuery(db, orgId).orderBy('partner_user.partner_user_id').execute();
}

export async function findPartnerUserOrThrow(db: Db, orgId: number, partnerUserId: number) {
  return orNotFound(
    mappingQuery(db, orgId).where('partner_user.partner_user_id', '=', partnerUserId).executeTakeFirst(),
    'PartnerUser',
  );
}

export async function mappingTaken(
  db: Db,
  orgId: number,
  column: 'partner_user_id' | 'service_user_id',
  value: number,
  exceptPartnerId?: number,
) {
  const row = await orgColumns(db, 'partner_user', orgId, ['id'])
    .where(column, '=', value)
    .$if(exceptPartnerId !== undefined, (qb) => qb.where('partner_user_id', '!=', exceptPartnerId!))
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertPartnerUser(
  db: Db,
  values: {
    organization_id: number;
    partner_user_id: number;
    service_user_id: number;
    partner_customer_id: number;
    created_at: string;
  },
) {
  await db.insertInto('partner_user').values(values).execute();
}

export async function updatePartnerUser(
  db: Db,
  orgId: number,
  partnerUserId: number,
  values: { service_user_id?: number; partner_customer_id?: number },
) {
  await db
    .updateTable('partner_user')
    .set(values)
    .where('organization_id', '=', orgId)
    .where('partner_user_id', '=', partnerUserId)
    .execute();
}

export async function deletePartnerUser(db: Db, orgId: number, partnerUserId: number) {
  await deleteOrgRows(db, 'partner_user', orgId).where('partner_user_id', '=', partnerUserId).execute();
}
