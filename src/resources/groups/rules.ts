import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { nowUtc } from '../../core/time.js';
import { insertGroup } from './repository.js';

export async function createGroup(trx: Db, auth: AuthContext, name: string): Promise<number> {
  const id = await insertGroup(trx, auth.orgId, name, nowUtc());
  await logAction(trx, auth, 'group.created', id, {
    description: `created group ${name}`,
    after: { name },
  });
  return id;
}
