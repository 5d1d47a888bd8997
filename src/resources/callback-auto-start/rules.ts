import type { AuthContext } from '../../core/auth/context.js';
import { writeLog } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import { findAssignmentsByIds } from '../assignments/repository.js';
import { listNames } from '../lists/repository.js';
import { findUserOrInvalid } from '../users/repository.js';
import { replaceAutoStart } from './repository.js';
import type { AutoStartBody } from './schemas.js';

/** Checks the admin, the assignments (once each) and the lists, then replaces the setting. */
export async function replaceAutoStartSettings(trx: Db, auth: AuthContext, body: AutoStartBody): Promise<void> {
  const { orgId } = auth;
  const assignmentIds = body.lists.map((l) => l.assignment_id);
  const listIds = [...new Set(body.lists.map((l) => l.list_id))];
  // one 422 naming every failing field
  const [admin] = await checkAll([
    () => findUserOrInvalid(trx, orgId, body.initiated_by, 'initiated by'),
    () => {
      if (new Set(assignmentIds).size !== assignmentIds.length)
        throw invalidParams('The lists name an assignment more than once.');
    },
    async () => {
      const assignments = await findAssignmentsByIds(trx, orgId, assignmentIds);
      const missing = assignmentIds.filter((id) => !assignments.has(id));
      if (missing.length) throw invalidParams(`The lists assignment ids ${missing.join(', ')} do not exist.`);
    },
    async () => {
      const known = new Set((await listNames(trx, orgId, listIds)).map((l) => l.id));
      const unknown = listIds.filter((id) => !known.has(id));
      if (unknown.length) throw invalidParams(`The lists list ids ${unknown.join(', ')} do not exist.`);
    },
  ] as const);
  await replaceAutoStart(
    trx,
    {
      organization_id: orgId,
      enabled: body.enabled ? 1 : 0,
      within_days: body.within_days,
      initiated_by: admin.id,
      lease_until: null,
      updated_at: nowUtc(),
    },
    body.lists,
  );
  await writeLog(trx, auth, {
    action: 'callback_auto_start.updated',
    description:
      `${body.enabled ? 'turned on' : 'turned off'} callbacks started by themselves for vacancies ` +
      `within ${body.within_days} days on ${body.lists.length} assignment(s).`,
    actorUserId: admin.id,
    entityType: 'organization',
    entityId: orgId,
    after: body,
  });
}
