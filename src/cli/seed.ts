import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AuthContext } from '../core/auth/context.js';
import { createCredential } from '../core/auth/credentials.js';
import { withTransaction, type Db } from '../core/db/transaction.js';
import { createOrganization } from '../resources/organizations/repository.js';
import { createDemoUsers } from '../resources/users/seed.js';

/**
 * What a resource's `seed.ts` receives when `seed demo` runs. Seeds run in `seedOrder` order (lower
 * first) inside one transaction; each may read what earlier ones left in `shared`.
 */
export interface DemoSeedContext {
  db: Db;
  auth: AuthContext;
  /** The demo scheduler (an admin user). */
  adminId: number;
  /** Every demo user id, admin first. */
  userIds: number[];
  /** Ids a seed leaves for later seeds, e.g. `shared.assignmentIds`. */
  shared: Record<string, unknown>;
}

export interface DemoSeedModule {
  seedOrder: number;
  seedDemo(ctx: DemoSeedContext): Promise<Record<string, number> | void>;
}

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
  const auth: AuthContext = { orgId: organizationId, orgName: name, timezone, clientId: credential.client_id, credentialId: 0 };
  const counts: Record<string, number> = {};
  await withTransaction(db, async (trx) => {
    const userIds = await createDemoUsers({ db: trx, auth });
    counts.users = userIds.length;
    const ctx = { db: trx, auth, adminId: userIds[0], userIds, shared: {} };
    for (const { module } of await loadDemoSeeds()) Object.assign(counts, (await module.seedDemo(ctx)) ?? {});
  });
  return { ...credential, counts };
}
