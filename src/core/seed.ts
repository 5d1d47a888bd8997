import type { AuthContext } from './auth/context.js';
import type { Db } from './db/transaction.js';

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
  seedDemo(ctx: DemoSeedContext): Promise<Record<string, number> | undefined>;
}
