import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import { offLimitRuleOf } from '../../scheduling/index.js';
import { assertGroupLabelsExist } from '../assignments/repository.js';
import { findActiveQualifiersOrInvalid } from '../qualifiers/repository.js';
import { listTimeOffTypes } from '../time-off-types/repository.js';
import { deleteOffLimitRow, findOffLimitOrThrow, insertOffLimit, updateOffLimit } from './repository.js';
import type { ChangeOffLimitBody, CreateOffLimitBody, OffLimitResponse } from './schemas.js';
import type { OffLimitRow } from './table.js';

export const serializeOffLimit = (row: OffLimitRow): OffLimitResponse => ({
  ...offLimitRuleOf(row),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** The scopes' ids name things of the organization: one 422 naming every one that does not. */
async function assertScopes(trx: Db, orgId: number, body: ChangeOffLimitBody) {
  await checkAll([
    () => (body.assignment_group_id ? assertGroupLabelsExist(trx, orgId, [body.assignment_group_id]) : undefined),
    () => (body.qualifier_id ? findActiveQualifiersOrInvalid(trx, orgId, [body.qualifier_id]) : undefined),
    async () => {
      if (!body.time_off_type_ids?.length) return;
      const known = new Set((await listTimeOffTypes(trx, orgId)).map((t) => t.id));
      const unknown = body.time_off_type_ids.filter((id) => !known.has(id));
      if (unknown.length) throw invalidParams(`The time off type ids ${unknown.join(', ')} name no time off type.`);
    },
  ] as const);
}

const columnsOf = (body: ChangeOffLimitBody) => ({
  ...(body.name !== undefined ? { name: body.name } : {}),
  ...(body.max_off !== undefined ? { max_off: body.max_off } : {}),
  ...(body.action !== undefined ? { action: body.action } : {}),
  ...(body.platoon !== undefined ? { platoon: body.platoon || null } : {}),
  ...(body.assignment_group_id !== undefined ? { assignment_group_id: body.assignment_group_id || null } : {}),
  ...(body.qualifier_id !== undefined ? { qualifier_id: body.qualifier_id || null } : {}),
  ...(body.time_off_type_ids !== undefined
    ? { time_off_type_ids: JSON.stringify([...new Set(body.time_off_type_ids)]) }
    : {}),
});

export async function createOffLimit(trx: Db, auth: AuthContext, body: CreateOffLimitBody): Promise<number> {
  await assertScopes(trx, auth.orgId, body);
  const now = nowUtc();
  const values = {
    organization_id: auth.orgId,
    platoon: null,
    assignment_group_id: null,
    qualifier_id: null,
    time_off_type_ids: '[]',
    ...columnsOf(body),
    name: body.name,
    max_off: body.max_off,
    action: body.action,
    created_at: now,
    updated_at: now,
  };
  const id = await insertOffLimit(trx, values);
  await logAction(trx, auth, 'off_limit.created', id, {
    description: `created the off limit ${body.name}: at most ${body.max_off} off (${body.action}).`,
    after: { ...values, organization_id: undefined },
  });
  return id;
}

export async function changeOffLimit(trx: Db, auth: AuthContext, id: number, body: ChangeOffLimitBody) {
  const before = await findOffLimitOrThrow(trx, auth.orgId, id);
  const columns = columnsOf(body);
  if (Object.keys(columns).length === 0) return; // no known field sent: nothing changes
  await assertScopes(trx, auth.orgId, body);
  const changes = { ...columns, updated_at: nowUtc() };
  await updateOffLimit(trx, auth.orgId, id, changes);
  await logAction(trx, auth, 'off_limit.updated', id, {
    description: `changed the off limit ${changes.name ?? before.name}.`,
    before,
    after: changes,
  });
}

export async function deleteOffLimit(trx: Db, auth: AuthContext, id: number) {
  const before = await findOffLimitOrThrow(trx, auth.orgId, id);
  await deleteOffLimitRow(trx, auth.orgId, id);
  await logAction(trx, auth, 'off_limit.deleted', id, { description: `removed the off limit ${before.name}.`, before });
}
