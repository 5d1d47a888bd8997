import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { firstEmail } from '../../core/mail.js';
import { nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import {
  allUsers,
  insertAlert,
  insertDeliveries,
  usersByIds,
  usersByRoles,
  usersInGroups,
  usersOnLists,
  type Recipient,
} from './repository.js';
import type { ReadyAlertBody } from './schemas.js';
import type { ReadyAlertDeliveryTable } from './table.js';
import type { Insertable } from 'kysely';
import { assertGroupsExist } from '../groups/repository.js';
import { assertActiveListsExist } from '../lists/repository.js';

const FIELD_BY_TYPE = { title: 'title id', group: 'group id', user: 'user id' } as const;

function integerIds(ids: Array<number | string>, field: string): number[] {
  return ids.map((id) => {
    const value = typeof id === 'number' ? id : /^\d{1,10}$/.test(id.trim()) ? Number(id.trim()) : NaN;
    if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647)
      throw invalidParams(`The selected ${field} is invalid.`);
    return value;
  });
}

function assertAllFound(ids: number[], found: Set<number>, field: string): void {
  if (ids.some((id) => !found.has(id))) throw invalidParams(`The selected ${field} is invalid.`);
}

/** Who receives the alert, by its type; ids naming nothing of the organization are a 422. */
export async function resolveRecipients(
  db: Db,
  orgId: number,
  type: ReadyAlertBody['type'],
  rawIds: Array<number | string>,
) {
  if (type === 'all') return allUsers(db, orgId);
  if (type === 'classification') return usersByRoles(db, orgId, [...new Set(rawIds.map((id) => String(id).trim()))]);
  const field = FIELD_BY_TYPE[type];
  const ids = [...new Set(integerIds(rawIds, field))];
  if (type === 'title') {
    await assertActiveListsExist(db, orgId, ids);
    return usersOnLists(db, orgId, ids);
  }
  if (type === 'group') {
    await assertGroupsExist(db, orgId, ids);
    return usersInGroups(db, orgId, ids);
  }
  const users = await usersByIds(db, orgId, ids);
  assertAllFound(ids, new Set(users.map((user) => user.id)), field);
  return users;
}

function deliveryRows(orgId: number, alertId: number, recipients: Recipient[], email: boolean, now: string) {
  const rows: Insertable<ReadyAlertDeliveryTable>[] = [];
  const base = { organization_id: orgId, alert_id: alertId, error: null, created_at: now, updated_at: now };
  for (const recipient of recipients) {
    rows.push({ ...base, user_id: recipient.id, channel: 'app', address: null, state: 'recorded' });
    if (!email) continue;
    const address = firstEmail(recipient.emails);
    rows.push(
      address
        ? { ...base, user_id: recipient.id, channel: 'email', address, state: 'pending' }
        : {
            ...base,
            user_id: recipient.id,
            channel: 'email',
            address: null,
            state: 'skipped',
            error: 'The user has no e-mail address.',
          },
    );
  }
  return rows;
}

/** Records the alert and one delivery per recipient and channel; e-mails are sent after commit. */
export async function sendReadyAlert(trx: Db, auth: AuthContext, body: ReadyAlertBody) {
  const ids = body.type === 'all' ? [] : (body.ids ?? []);
  // one 422 naming every failing field
  const [sender, recipients] = await checkAll([
    () => findUserOrInvalid(trx, auth.orgId, body.user_id),
    () => {
      if (body.type !== 'all' && ids.length === 0) throw invalidParams('The ids field is required unless type is all.');
      return resolveRecipients(trx, auth.orgId, body.type, ids);
    },
  ] as const);
  const now = nowUtc();
  const email = body.email ?? false;
  const id = await insertAlert(trx, {
    organization_id: auth.orgId,
    type: body.type,
    target_ids: body.type === 'all' ? null : JSON.stringify(ids),
    body: body.body,
    sender_id: sender.id,
    email: email ? 1 : 0,
    created_at: now,
  });
  await insertDeliveries(trx, deliveryRows(auth.orgId, id, recipients, email, now));
  await logAction(trx, auth, 'ready_alert.sent', id, {
    description:
      `sent a ready alert (${body.type}) to ${recipients.length} ` +
      `${recipients.length === 1 ? 'user' : 'users'}${email ? ' with e-mail' : ''}.`,
    actorUserId: sender.id,
    after: {
      type: body.type,
      ids: body.type === 'all' ? null : ids,
      body: body.body,
      email,
      recipients: recipients.map((r) => r.id),
    },
  });
  return { id, recipients: recipients.length, email };
}
