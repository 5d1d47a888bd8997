import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, orNotFound } from '../../core/errors.js';
import { sentFields } from '../../core/fields.js';
import { assertPeriod, nowUtc } from '../../core/time.js';
import { findCertificationOrInvalid, findCertificationOrThrow } from '../certifications/repository.js';
import type { DocumentType } from '../certifications/file-type.js';
import { findUserOrThrow } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import {
  deleteUserCertifications,
  findUserCertification,
  findUserCertificationRow,
  insertUserCertification,
  updateUserCertification,
} from './certification-repository.js';
import type { AddUserCertificationBody, ChangeUserCertificationBody } from './certification-schemas.js';

function assertDateOrder(issuedOn: string | null | undefined, expiresOn: string | null | undefined) {
  if (issuedOn && expiresOn)
    assertPeriod(issuedOn, expiresOn, { allowEqual: true, fields: { start: 'issue date', end: 'expiry date' } });
}

export async function findUserCertificationOrThrow(db: Db, orgId: number, userId: number, certificationId: number) {
  return orNotFound(findUserCertification(db, orgId, userId, certificationId), 'UserCertification');
}

export async function addUserCertification(trx: Db, auth: AuthContext, userId: number, body: AddUserCertificationBody) {
  const user = await findUserOrThrow(trx, auth.orgId, userId);
  const certification = await findCertificationOrInvalid(trx, auth.orgId, body.id);
  if (await findUserCertificationRow(trx, auth.orgId, userId, body.id)) {
    throw invalidParams(`User ${fullName(user)} already holds certification ${certification.name}.`);
  }
  assertDateOrder(body.issued_on, body.expires_on);
  const now = nowUtc();
  const values = {
    number: body.number ?? null,
    issued_on: body.issued_on ?? null,
    expires_on: body.expires_on ?? null,
    notes: body.notes ?? null,
  };
  await insertUserCertification(trx, {
    organization_id: auth.orgId,
    user_id: userId,
    certification_id: body.id,
    ...values,
    file_storage_name: null,
    file_content_type: null,
    file_size: null,
    file_uploaded_at: null,
    created_at: now,
    updated_at: now,
  });
  await logAction(trx, auth, 'user.certification_added', userId, {
    description: `added certification ${certification.name} to user ${fullName(user)}`,
    after: { certification_id: body.id, ...values },
  });
  return `Added certification ${certification.name} to user ${fullName(user)}.`;
}

export async function changeUserCertification(
  trx: Db,
  auth: AuthContext,
  userId: number,
  certificationId: number,
  body: ChangeUserCertificationBody,
) {
  const user = await findUserOrThrow(trx, auth.orgId, userId);
  const record = await findUserCertificationOrThrow(trx, auth.orgId, userId, certificationId);
  const changes = sentFields(body, ['number', 'issued_on', 'expires_on', 'notes']);
  assertDateOrder(
    changes.issued_on === undefined ? record.issued_on : changes.issued_on,
    changes.expires_on === undefined ? record.expires_on : changes.expires_on,
  );
  await updateUserCertification(trx, auth.orgId, record.id, { ...changes, updated_at: nowUtc() });
  await logAction(trx, auth, 'user.certification_updated', userId, {
    description: `updated certification ${record.name} of user ${fullName(user)}`,
    before: { number: record.number, issued_on: record.issued_on, expires_on: record.expires_on, notes: record.notes },
    after: changes,
  });
  return `Updated certification ${record.name} of user ${fullName(user)}.`;
}

/** Removes one record (or all with no certification id); returns the stored files to delete after commit. */
export async function removeUserCertifications(trx: Db, auth: AuthContext, userId: number, certificationId?: number) {
  const user = await findUserOrThrow(trx, auth.orgId, userId);
  let what = 'all certifications';
  if (certificationId !== undefined) {
    const record = await findUserCertificationOrThrow(trx, auth.orgId, userId, certificationId);
    what = `certification ${record.name}`;
  }
  const files = await deleteUserCertifications(trx, auth.orgId, userId, certificationId);
  await logAction(trx, auth, 'user.certification_removed', userId, {
    description: `removed ${what} from user ${fullName(user)}`,
    before: certificationId === undefined ? { all: true } : { certification_id: certificationId },
  });
  return { files, message: `Removed ${what} from user ${fullName(user)}.` };
}

/** Points the record at a newly stored file; returns the file it replaces (to delete after commit). */
export async function attachFile(
  trx: Db,
  auth: AuthContext,
  target: { userId: number; certificationId: number },
  file: { storageName: string; type: DocumentType; size: number },
) {
  const user = await findUserOrThrow(trx, auth.orgId, target.userId);
  await findCertificationOrThrow(trx, auth.orgId, target.certificationId);
  const record = await findUserCertificationOrThrow(trx, auth.orgId, target.userId, target.certificationId);
  const uploadedAt = nowUtc();
  await updateUserCertification(trx, auth.orgId, record.id, {
    file_storage_name: file.storageName,
    file_content_type: file.type.contentType,
    file_size: file.size,
    file_uploaded_at: uploadedAt,
    updated_at: uploadedAt,
  });
  await logAction(trx, auth, 'user.certification_file_uploaded', target.userId, {
    description: `uploaded a ${file.type.extension} file for certification ${record.name} of user ${fullName(user)}`,
    after: { certification_id: target.certificationId, content_type: file.type.contentType, size: file.size },
  });
  return { replaced: record.file_storage_name, name: record.name };
}
