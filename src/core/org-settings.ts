import type { Updateable } from 'kysely';
import type { AuthContext } from './auth/context.js';
import { writeLog } from './audit.js';
import { type Db, withTransaction } from './db/transaction.js';
import type { OrganizationTable } from './db/types.js';
import { hasChanges } from './fields.js';

/** Writes the organization's setting columns given; an undefined one stays unchanged, none writes nothing. */
export async function updateOrganizationSettings(
  db: Db,
  orgId: number,
  columns: Updateable<OrganizationTable>,
): Promise<void> {
  if (hasChanges(columns)) await db.updateTable('organization').set(columns).where('id', '=', orgId).execute();
}

/**
 * A settings PATCH on the organization (fatigue rules, trade limits, the work period): in one transaction
 * the settings before, the write, the log entry (`<action>`, "updated <what> (<fields>)…") and the
 * settings as they now stand, which it returns.
 */
export async function changeOrganizationSettings<Settings, Changes extends object>(
  db: Db,
  auth: AuthContext,
  changes: Changes,
  setting: {
    action: string;
    /** the log's words after "updated": e.g. `the fatigue rules (max_period_hours).` */
    describe: (fields: string) => string;
    find: (db: Db, orgId: number) => Promise<Settings>;
    update: (db: Db, orgId: number, changes: Changes) => Promise<void>;
  },
): Promise<Settings> {
  return withTransaction(db, async (trx) => {
    const before = await setting.find(trx, auth.orgId);
    await setting.update(trx, auth.orgId, changes);
    await writeLog(trx, auth, {
      action: setting.action,
      description: `updated ${setting.describe(Object.keys(changes).join(', ') || 'nothing')}`,
      entityType: 'organization',
      entityId: auth.orgId,
      before,
      after: changes,
    });
    return setting.find(trx, auth.orgId);
  });
}
