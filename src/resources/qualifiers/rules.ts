import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, conflict, invalidParams } from '../../core/errors.js';
import { hasChanges, sentFields } from '../../core/fields.js';
import { nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import { findQualifierOrThrow, insertQualifier, updateQualifier } from './repository.js';
import type { ChangeQualifierBody, CreateQualifierBody } from './schemas.js';
import { qualifierTitle } from './serialize.js';
import type { QualifierRow } from './table.js';
import { assertActiveListsExist } from '../lists/repository.js';

/** The columns a PATCH may change. */
const QUALIFIER_FIELDS = ['name', 'shortcode', 'color', 'text_color', 'title_id', 'partner_credential_id'] as const;

async function checkReferences(trx: Db, orgId: number, body: { title_id?: number | null; admin_id?: number }) {
  // one 422 naming every failing field
  await checkAll([
    () => (body.admin_id !== undefined ? findUserOrInvalid(trx, orgId, body.admin_id, 'admin id') : undefined),
    () => (body.title_id ? assertActiveListsExist(trx, orgId, [body.title_id]) : undefined),
  ] as const);
}

export async function createQualifier(trx: Db, auth: AuthContext, body: CreateQualifierBody): Promise<number> {
  await checkReferences(trx, auth.orgId, body);
  const values = {
    name: body.name,
    shortcode: body.shortcode ?? null,
    color: body.color ?? null,
    text_color: body.text_color ?? null,
    title_id: body.title_id ?? null,
    partner_credential_id: body.partner_credential_id ?? null,
  };
  const id = await insertQualifier(trx, {
    organization_id: auth.orgId,
    name: values.name,
    shortcode: values.shortcode,
    color: values.color,
    text_color: values.text_color,
    title_id: values.title_id,
    partner_credential_id: values.partner_credential_id,
    created_by: body.admin_id ?? null,
    created_at: nowUtc(),
    modified_by: null,
    modified_at: null,
    deleted_by: null,
    deleted_at: null,
  });
  await logAction(trx, auth, 'qualifier.created', id, {
    description: `created qualifier ${qualifierTitle(values)}`,
    actorUserId: body.admin_id,
    after: values,
  });
  return id;
}

export async function changeQualifier(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: ChangeQualifierBody,
): Promise<void> {
  const before = await findQualifierOrThrow(trx, auth.orgId, id);
  await checkReferences(trx, auth.orgId, body);
  const adminId = body.admin_id;
  const changes = sentFields(body, QUALIFIER_FIELDS);
  if (hasChanges(changes))
    await updateQualifier(trx, auth.orgId, id, { ...changes, modified_by: adminId ?? null, modified_at: nowUtc() });
  await logAction(trx, auth, 'qualifier.updated', id, {
    description: `changed qualifier ${qualifierTitle(before)}`,
    actorUserId: adminId,
    before,
    after: changes,
  });
}

export async function deleteQualifier(trx: Db, auth: AuthContext, id: number, adminId?: number): Promise<QualifierRow> {
  const qualifier = await findQualifierOrThrow(trx, auth.orgId, id);
  if (qualifier.deleted_at) throw conflict(`Qualifier ${qualifierTitle(qualifier)} is already deleted.`);
  if (adminId !== undefined) await findUserOrInvalid(trx, auth.orgId, adminId, 'admin id');
  await updateQualifier(trx, auth.orgId, id, { deleted_at: nowUtc(), deleted_by: adminId ?? null });
  await logAction(trx, auth, 'qualifier.deleted', id, {
    description: `deleted qualifier ${qualifierTitle(qualifier)}`,
    actorUserId: adminId,
  });
  return qualifier;
}

export function isTruthy(value: boolean | number | string): boolean {
  if (typeof value === 'string') return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
  return value === true || (typeof value === 'number' && value !== 0);
}

export async function restoreQualifier(
  trx: Db,
  auth: AuthContext,
  id: number,
  adminId?: number,
): Promise<QualifierRow> {
  const qualifier = await findQualifierOrThrow(trx, auth.orgId, id);
  if (!qualifier.deleted_at) throw conflict(`Qualifier ${qualifierTitle(qualifier)} is not deleted, cannot restore.`);
  if (adminId !== undefined) await findUserOrInvalid(trx, auth.orgId, adminId, 'admin id');
  await updateQualifier(trx, auth.orgId, id, {
    deleted_at: null,
    deleted_by: null,
    modified_by: adminId ?? null,
    modified_at: nowUtc(),
  });
  await logAction(trx, auth, 'qualifier.restored', id, {
    description: `restored qualifier ${qualifierTitle(qualifier)}`,
    actorUserId: adminId,
  });
  return qualifier;
}

export function assertUndelete(value: boolean | number | string): void {
  if (!isTruthy(value)) throw invalidParams(['The undelete field must be true.']);
}
