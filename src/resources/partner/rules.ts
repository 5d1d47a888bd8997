import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { hasChanges, sentFields } from '../../core/fields.js';
import { nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import {
  deletePartnerUser,
  findPartnerUserOrThrow,
  insertPartnerUser,
  mappingTaken,
  updatePartnerUser,
} from './repository.js';
import type { ChangePartnerUserBody, CreatePartnerUserBody } from './schemas.js';

async function assertServiceUserFree(trx: Db, orgId: number, serviceUserId: number, exceptPartnerId?: number) {
  await findUserOrInvalid(trx, orgId, serviceUserId, 'service user id');
  if (await mappingTaken(trx, orgId, 'service_user_id', serviceUserId, exceptPartnerId)) {
    throw invalidParams('The service user id has already been taken.');
  }
}

export async function mapPartnerUser(trx: Db, auth: AuthContext, body: CreatePartnerUserBody) {
  // one 422 naming every failing field
  await checkAll([
    async () => {
      if (await mappingTaken(trx, auth.orgId, 'partner_user_id', body.id))
        throw invalidParams('The id has already been taken.');
    },
    () => assertServiceUserFree(trx, auth.orgId, body.service_user_id),
  ] as const);
  await insertPartnerUser(trx, {
    organization_id: auth.orgId,
    partner_user_id: body.id,
    service_user_id: body.service_user_id,
    partner_customer_id: body.partner_customer_id,
    created_at: nowUtc(),
  });
  const mapping = await findPartnerUserOrThrow(trx, auth.orgId, body.id);
  await logAction(trx, auth, 'partner_user.mapped', body.id, {
    description: `mapped partner user ${body.id} to ${fullName(mapping)}`,
    after: body,
  });
}

export async function changePartnerUser(
  trx: Db,
  auth: AuthContext,
  partnerUserId: number,
  body: ChangePartnerUserBody,
) {
  const before = await findPartnerUserOrThrow(trx, auth.orgId, partnerUserId);
  if (body.service_user_id !== undefined)
    await assertServiceUserFree(trx, auth.orgId, body.service_user_id, partnerUserId);
  const changes = sentFields(body, ['service_user_id', 'partner_customer_id']);
  if (hasChanges(changes)) await updatePartnerUser(trx, auth.orgId, partnerUserId, changes);
  await logAction(trx, auth, 'partner_user.updated', partnerUserId, {
    description: `changed the mapping of partner user ${partnerUserId}`,
    before: { service_user_id: before.service_user_id, partner_customer_id: before.partner_customer_id },
    after: changes,
  });
}

export async function unmapPartnerUser(trx: Db, auth: AuthContext, partnerUserId: number) {
  const mapping = await findPartnerUserOrThrow(trx, auth.orgId, partnerUserId);
  await deletePartnerUser(trx, auth.orgId, partnerUserId);
  await logAction(trx, auth, 'partner_user.unmapped', partnerUserId, {
    description: `removed the mapping of partner user ${partnerUserId} (${fullName(mapping)})`,
    before: { service_user_id: mapping.service_user_id, partner_customer_id: mapping.partner_customer_id },
  });
}
