import { seedDemoOrganization as seedDemo } from '../../src/cli/seed.js';
import type { TestServer } from '../helpers/server.js';

/** The password `seed demo` gives every demo user. */
export { DEMO_PASSWORD } from '../../src/resources/users/seed.js';

/** What `npm run cli -- seed demo` creates, in the test server's database. */
export async function seedDemoOrganization(
  server: TestServer,
  timezone = 'America/Chicago',
): Promise<{ orgId: number; userIds: number[] }> {
  const seeded = await seedDemo(server.app.db, server.config.secretKey, timezone);
  return { orgId: seeded.organization_id, userIds: seeded.userIds };
}
