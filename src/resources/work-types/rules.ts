import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { hasChanges, sentFields } from '../../core/fields.js';
import { nowUtc } from '../../core/time.js';
import {
  findWorkSubtypeOrThrow,
  findWorkTypeOrInvalid,
  findWorkTypeOrThrow,
  insertWorkSubtype,
  insertWorkType,
  nextWorkTypePosition,
  updateWorkSubtype,
  updateWorkType,
} from './repository.js';
import type {
  CreateWorkSubtypeBody,
  CreateWorkTypeBody,
  UpdateWorkSubtypeBody,
  UpdateWorkTypeBody,
} from './schemas.js';

const DEFAULT_PRIMARY_COLOR = '#3B4650';
const DEFAULT_SECONDARY_COLOR = '#FFFFFF';

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** The columns a PATCH may change (excludes_from_callback is stored as 0/1). */
const WORK_TYPE_FIELDS = ['label', 'work_code', 'primary_color', 'secondary_color', 'position'] as const;
const WORK_SUBTYPE_FIELDS = ['work_type_id', 'label', 'work_code'] as const;

export async function createWorkType(trx: Db, auth: AuthContext, body: CreateWorkTypeBody): Promise<number> {
  const id = await insertWorkType(trx, {
    organization_id: auth.orgId,
    label: body.label,
    work_code: body.work_code ?? null,
    primary_color: body.primary_color ?? DEFAULT_PRIMARY_COLOR,
    secondary_color: body.secondary_color ?? DEFAULT_SECONDARY_COLOR,
    excludes_from_callback: body.excludes_from_callback ? 1 : 0,
    position: body.position ?? (await nextWorkTypePosition(trx, auth.orgId)),
    deleted_at: null,
  });
  await logAction(trx, auth, 'work_type.created', id, {
    description: `created work type ${body.label}.`,
    after: body,
  });
  return id;
}

/** Logs `<kind>.updated`: the row before, the fields sent, under the label sent or the one it had. */
function logUpdated(
  trx: Db,
  auth: AuthContext,
  kind: 'work_type' | 'work_subtype',
  id: number,
  change: { before: { label: string }; after: object; label: string | undefined },
) {
  const { before, after, label } = change;
  const description = `updated ${kind.replace('_', ' ')} ${label ?? before.label}.`;
  return logAction(trx, auth, `${kind}.updated`, id, { description, before, after });
}

export async function changeWorkType(trx: Db, auth: AuthContext, id: number, body: UpdateWorkTypeBody): Promise<void> {
  const before = await findWorkTypeOrThrow(trx, auth.orgId, id);
  const changes = { ...sentFields(body, WORK_TYPE_FIELDS), excludes_from_callback: flag(body.excludes_from_callback) };
  if (hasChanges(changes)) await updateWorkType(trx, auth.orgId, id, changes);
  await logUpdated(trx, auth, 'work_type', id, { before, after: changes, label: body.label });
}

/** Soft delete: shifts and misc hours that name it keep their history; its subtypes go with it. */
export async function deleteWorkType(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const before = await findWorkTypeOrThrow(trx, auth.orgId, id);
  const deletedAt = nowUtc();
  await updateWorkType(trx, auth.orgId, id, { deleted_at: deletedAt });
  await trx
    .updateTable('work_subtype')
    .set({ deleted_at: deletedAt })
    .where('organization_id', '=', auth.orgId)
    .where('work_type_id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
  await logAction(trx, auth, 'work_type.deleted', id, {
    description: `deleted work type ${before.label}.`,
    before,
  });
}

export async function createWorkSubtype(trx: Db, auth: AuthContext, body: CreateWorkSubtypeBody): Promise<number> {
  const workType = await findWorkTypeOrInvalid(trx, auth.orgId, body.work_type_id);
  const id = await insertWorkSubtype(trx, {
    organization_id: auth.orgId,
    work_type_id: workType.id,
    label: body.label,
    work_code: body.work_code ?? null,
    deleted_at: null,
  });
  await logAction(trx, auth, 'work_subtype.created', id, {
    description: `created work subtype ${body.label} of ${workType.label}.`,
    after: body,
  });
  return id;
}

export async function changeWorkSubtype(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: UpdateWorkSubtypeBody,
): Promise<void> {
  const before = await findWorkSubtypeOrThrow(trx, auth.orgId, id);
  if (body.work_type_id !== undefined) await findWorkTypeOrInvalid(trx, auth.orgId, body.work_type_id);
  const changes = sentFields(body, WORK_SUBTYPE_FIELDS);
  if (hasChanges(changes)) await updateWorkSubtype(trx, auth.orgId, id, changes);
  await logUpdated(trx, auth, 'work_subtype', id, { before, after: changes, label: body.label });
}

export async function deleteWorkSubtype(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const before = await findWorkSubtypeOrThrow(trx, auth.orgId, id);
  await updateWorkSubtype(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'work_subtype.deleted', id, {
    description: `deleted work subtype ${before.label}.`,
    before,
  });
}
