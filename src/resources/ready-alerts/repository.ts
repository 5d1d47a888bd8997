import type { Insertable } from 'kysely';
import { orgRows, sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { ReadyAlertDeliveryRow, ReadyAlertDeliveryTable, ReadyAlertRow, ReadyAlertTable } from './table.js';

export interface Recipient {
  id: number;
  emails: string;
}

function activeUsers(db: Db, orgId: number) {
  return db
    .selectFrom('user_account')
    .select(['user_account.id', 'user_account.emails'])
    .where('user_account.organization_id', '=', orgId)
    .where('user_account.deleted_at', 'is', null)
    .where('user_account.active', '=', 1);
}

export function allUsers(db: Db, orgId: number): Promise<Recipient[]> {
  return activeUsers(db, orgId).orderBy('user_account.id').execute();
}

export function usersByIds(db: Db, orgId: number, ids: number[]): Promise<Recipient[]> {
  return activeUsers(db, orgId).where('user_account.id', 'in', ids).orderBy('user_account.id').execute();
}

/** Users whose `role` is one of the given names, compared without case. */
export function usersByRoles(db: Db, orgId: number, roles: string[]): Promise<Recipient[]> {
  return activeUsers(db, orgId)
    .where((eb) =>
      eb(
        eb.fn('lower', ['user_account.role']),
        'in',
        roles.map((role) => role.toLowerCase()),
      ),
    )
    .orderBy('user_account.id')
    .execute();
}

export function usersOnLists(db: Db, orgId: number, listIds: number[]): Promise<Recipient[]> {
  return activeUsers(db, orgId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_callback_list')
          .select('user_callback_list.id')
          .where('user_callback_list.organization_id', '=', orgId)
          .whereRef('user_callback_list.user_id', '=', 'user_account.id')
          .where('user_callback_list.list_id', 'in', listIds),
      ),
    )
    .orderBy('user_account.id')
    .execute();
}

export function usersInGroups(db: Db, orgId: number, groupIds: number[]): Promise<Recipient[]> {
  return activeUsers(db, orgId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_group_member')
          .select('user_group_member.id')
          .where('user_group_member.organization_id', '=', orgId)
          .whereRef('user_group_member.user_id', '=', 'user_account.id')
          .where('user_group_member.group_id', 'in', groupIds),
      ),
    )
    .orderBy('user_account.id')
    .execute();
}

export async function insertAlert(db: Db, values: Insertable<ReadyAlertTable>): Promise<number> {
  const { id } = await db.insertInto('ready_alert').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertDeliveries(db: Db, rows: Insertable<ReadyAlertDeliveryTable>[]): Promise<void> {
  const CHUNK = 200;
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db
      .insertInto('ready_alert_delivery')
      .values(rows.slice(start, start + CHUNK))
      .execute();
  }
}

export async function findAlertOrThrow(db: Db, orgId: number, id: number): Promise<ReadyAlertRow> {
  return orgRows(db, 'ready_alert', orgId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('ReadyAlert'));
}

export function listDeliveries(db: Db, orgId: number, alertId: number): Promise<ReadyAlertDeliveryRow[]> {
  return orgRows(db, 'ready_alert_delivery', orgId).where('alert_id', '=', alertId).orderBy('id').execute();
}

export async function hasPendingEmails(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('ready_alert_delivery')
    .select('id')
    .where('state', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** E-mails still to send: of one alert, or (after a restart) of any alert. */
export function pendingEmails(db: Db, filter: { orgId: number; alertId: number } | undefined, limit: number) {
  return db
    .selectFrom('ready_alert_delivery')
    .innerJoin('ready_alert', sameOrg('ready_alert.id', 'ready_alert_delivery.alert_id'))
    .innerJoin('organization', 'organization.id', 'ready_alert_delivery.organization_id')
    .select([
      'ready_alert_delivery.id',
      'ready_alert_delivery.organization_id',
      'ready_alert_delivery.address',
      'ready_alert.body',
      'organization.name as organization_name',
    ])
    .where('ready_alert_delivery.state', '=', 'pending')
    .$if(filter !== undefined, (qb) =>
      qb
        .where('ready_alert_delivery.organization_id', '=', filter!.orgId)
        .where('ready_alert_delivery.alert_id', '=', filter!.alertId),
    )
    .orderBy('ready_alert_delivery.id')
    .limit(limit)
    .execute();
}

export async function setDeliveryState(
  db: Db,
  orgId: number,
  id: number,
  values: { state: 'sent' | 'failed'; error: string | null; updated_at: string },
): Promise<void> {
  await db
    .updateTable('ready_alert_delivery')
    .set(values)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}
