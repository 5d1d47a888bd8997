import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { nowUtc } from '../../core/time.js';
import { findLabelOrThrow, insertLabel, nextLabelPosition, updateLabel } from './repository.js';
import type { LabelBody } from './schemas.js';
import { serializeLabel } from './serialize.js';

export async function createLabel(trx: Db, auth: AuthContext, body: LabelBody): Promise<number> {
  const position = body.position ?? (await nextLabelPosition(trx, auth.orgId));
  const values = { label: body.label, color: body.color, text_color: body.text_color, position };
  const id = await insertLabel(trx, auth.orgId, { ...values, created_at: nowUtc() });
  await logAction(trx, auth, 'label.created', id, {
    description: `created label ${body.label}`,
    after: values,
  });
  return id;
}

export async function changeLabel(trx: Db, auth: AuthContext, id: number, body: LabelBody): Promise<void> {
  const before = await findLabelOrThrow(trx, auth.orgId, id);
  const values = {
    label: body.label,
    color: body.color,
    text_color: body.text_color,
    position: body.position ?? before.position,
  };
  await updateLabel(trx, auth.orgId, id, values);
  await logAction(trx, auth, 'label.updated', id, {
    description: `changed label ${before.label}${before.label === body.label ? '' : ` to ${body.label}`}`,
    before: serializeLabel(before),
    after: values,
  });
}

/** Soft delete: shifts that carried the label keep their history. */
export async function deleteLabel(trx: Db, auth: AuthContext, id: number): Promise<string> {
  const label = await findLabelOrThrow(trx, auth.orgId, id);
  await updateLabel(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'label.deleted', id, {
    description: `deleted label ${label.label}`,
    before: serializeLabel(label),
  });
  return label.label;
}
