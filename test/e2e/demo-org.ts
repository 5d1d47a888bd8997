import type { AuthContext } from '../../src/core/auth/context.js';
import { createCredential } from '../../src/core/auth/credentials.js';
import { withTransaction } from '../../src/core/db/transaction.js';
import { loadDemoSeeds } from '../../src/cli/seed.js';
import { createOrganization } from '../../src/resources/organizations/repository.js';
import { createDemoUsers } from '../../src/resources/users/seed.js';
import type { TestServer } from '../helpers/server.js';

/** The password `seed demo` gives every demo user. */
export const DEMO_PASSWORD = 'demo-password';

/** What `npm run cli -- seed demo` creates, in the test server's database. */
export async function seedDemoOrganization(server: TestServer, timezone = 'America/Chicago'): Promise<{ orgId: number; userIds: number[] }> {
  const db = server.app.db;
  const orgId = await createOrganization(db, { name: 'Demo Fire Department', timezone });
  const credential = await createCredential(db, server.config.secretKey, orgId, 'demo');
  const auth: AuthContext = { orgId, orgName: 'Demo Fire Department', timezone, clientId: credential.client_id, credentialId: 0 };
  const userIds = await withTransaction(db, async (trx) => {
    const ids = await createDemoUsers({ db: trx, auth });
    const ctx = { db: trx, auth, adminId: ids[0], userIds: ids, shared: {} };
    for (const { module } of await loadDemoSeeds()) await module.seedDemo(ctx);
    return ids;
  });
  return { orgId, userIds };
}
