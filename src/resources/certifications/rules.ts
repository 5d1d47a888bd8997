import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { badRequest, notFound } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import {
  findCertificationAnyState,
  findCertificationOrThrow,
  insertCertification,
  updateCertification,
} from './repository.js';
import type { ChangeCertificationBody, CreateCertificationBody } from './schemas.js';

export async function createCertification(trx: Db, auth: AuthContext, body: CreateCertificationBody): Promise<number> {
  await findUserOrInvalid(trx, auth.orgId, body.created_by, 'created by');
  const now = nowUtc();
  const values = { name: body.name, cert_id: body.cert_id, created_by: body.created_by };
  const id = await insertCertification(trx, {
    organization_id: auth.orgId,
    ...values,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  await logAction(trx, auth, 'certification.created', id, {
    description: `added certification ${body.name} [${body.cert_id}]`,
    actorUserId: body.created_by,
    after: values,
  });
  return id;
}

/** Only the fields sent change; returns the name after the change. */
export async function changeCertification(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: ChangeCertificationBody,
): Promise<string> {
  const before = await findCertificationOrThrow(trx, auth.orgId, id);
  const changes = {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.cert_id === undefined ? {} : { cert_id: body.cert_id }),
  };
  await updateCertification(trx, auth.orgId, id, { ...changes, updated_at: nowUtc() });
  await logAction(trx, auth, 'certification.updated', id, {
    description: `updated certification ${before.name}`,
    before: { name: before.name, cert_id: before.cert_id },
    after: changes,
  });
  return changes.name ?? before.name;
}

export async function deleteCertification(trx: Db, auth: AuthContext, id: number): Promise<string> {
  const certification = await findCertificationAnyState(trx, auth.orgId, id);
  if (!certification) throw notFound('Certification');
  if (certification.deleted_at) throw badRequest('Certification already deleted.');
  await updateCertification(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'certification.deleted', id, {
    description: `deleted certification ${certification.name}`,
  });
  return certification.name;
}
