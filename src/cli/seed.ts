import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AuthContext } from '../core/auth/context.js';
import { createCredential } from '../core/auth/credentials.js';
import { type Db, withTransaction } from '../core/db/transaction.js';
import type { DemoSeedModule } from '../core/seed.js';
import { createOrganization } from '../resources/organizations/repository.js';
import { createDemoUsers } from '../resources/users/seed.js';

const RESOURCES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources');

export async function loadDemoSeeds(): Promise<Array<{ name: string; module: DemoSeedModule }>> {
  const seeds: Array<{ name: string; module: DemoSeedModule }> = [];
  for (const name of await readdir(RESOURCES_DIR)) {
    for (const file of ['seed.ts', 'seed.js']) {
      const path = join(RESOURCES_DIR, name, file);
      if (!existsSync(path)) continue;
      seeds.push({ name, module: (await import(pathToFileURL(path).href)) as DemoSeedModule });
      break;
    }
  }
  return seeds.sort((a, b) => a.module.seedOrder - b.module.seedOrder || a.name.localeCompare(b.name));
}

/** `seed demo`: a demo organization with a first credential and every resource's demo records, in one transaction. */
export async function seedDemoOrganization(db: Db, secretKey: Buffer, timezone: string) {
  const name = 'Demo Fire Department';
  const organizationId = await createOrganization(db, { name, timezone });
  const credential = await createCredential(db, secretKey, organizationId, 'demo');
  const auth: AuthContext = {
    orgId: organizationId,
    orgName: name,
    timezone,
    clientId: credential.client_id,
    credentialId: 0,
  };
  const counts: Record<string, number> = {};
  const userIds = await withTransaction(db, async (trx) => {
    const ids = await createDemoUsers({ db: trx, auth });
    counts.users = ids.length;
    const ctx = { db: trx, auth, adminId: ids[0], userIds: ids, shared: {} };
    for (const { module } of await loadDemoSeeds()) Object.assign(counts, (await module.seedDemo(ctx)) ?? {});
    return ids;
  });
  return { ...credential, counts, userIds };
}
