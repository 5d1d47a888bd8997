import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { createCredential, listCredentials, revokeCredential } from '../core/auth/credentials.js';
import type { AuthContext } from '../core/auth/context.js';
import { createDatabase, type DatabaseHandle } from '../core/db/index.js';
import { migrateToLatest } from '../core/db/migrator.js';
import { withTransaction } from '../core/db/transaction.js';
import { createOrganization, findOrganization } from '../resources/organizations/repository.js';
import { createDemoUsers } from '../resources/users/seed.js';
import { loadDemoSeeds } from './seed.js';
import { BENCH_DEFAULTS, positiveInt, runBenchSeed } from './seed-bench.js';
import { registerOrgTransferCommands } from './org-transfer.js';
import { registerBackupCommands } from './backup.js';
import { registerUsersImportCommand } from './users-import.js';
import { registerApiImportCommand } from './api-import.js';

const config = loadConfig();

async function withDatabase<T>(fn: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = createDatabase(config);
  try {
    await migrateToLatest(handle.db);
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

function print(value: unknown, json: boolean, text: string) {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

function orgIdFrom(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1) throw new Error(`--org must be an organization id, got "${raw}"`);
  return id;
}

const program = new Command().name('crewplan').description('crewplan operator commands').showHelpAfterError();

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    const handle = createDatabase(config);
    try {
      const applied = await migrateToLatest(handle.db);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    } finally {
      await handle.close();
    }
  });

const org = program.command('org').description('organizations');
org
  .command('create')
  .description('create an organization with a first API credential')
  .requiredOption('--name <name>', 'organization name')
  .requiredOption('--timezone <tz>', 'IANA time zone, e.g. America/Chicago')
  .option('--json', 'print JSON')
  .action(async (options: { name: string; timezone: string; json?: boolean }) => {
    await withDatabase(async ({ db }) => {
      const organizationId = await createOrganization(db, { name: options.name, timezone: options.timezone });
      const credential = await createCredential(db, config.secretKey, organizationId, 'created with the organization');
      print(
        credential,
        !!options.json,
        `organization ${organizationId} created\nclient_id:     ${credential.client_id}\nclient_secret: ${credential.client_secret} (shown once)`,
      );
    });
  });

const credentials = program.command('credentials').description('API credential pairs');
credentials
  .command('create')
  .description('create an API credential pair for an organization')
  .requiredOption('--org <id>', 'organization id')
  .option('--name <name>', 'a note on what the credential is for')
  .option('--json', 'print JSON')
  .action(async (options: { org: string; name?: string; json?: boolean }) => {
    await withDatabase(async ({ db }) => {
      const organizationId = orgIdFrom(options.org);
      if (!(await findOrganization(db, organizationId))) throw new Error(`organization ${organizationId} does not exist`);
      const credential = await createCredential(db, config.secretKey, organizationId, options.name ?? null);
      print(credential, !!options.json, `client_id:     ${credential.client_id}\nclient_secret: ${credential.client_secret} (shown once)`);
    });
  });
credentials
  .command('list')
  .description('list the credentials of an organization (secrets are never shown again)')
  .requiredOption('--org <id>', 'organization id')
  .option('--json', 'print JSON')
  .action(async (options: { org: string; json?: boolean }) => {
    await withDatabase(async ({ db }) => {
      const rows = await listCredentials(db, orgIdFrom(options.org));
      const text = rows.map((r) => `${r.client_id}\t${r.revoked_at ? `revoked ${r.revoked_at}` : 'active'}\t${r.created_at}\t${r.name ?? ''}`).join('\n');
      print(rows, !!options.json, text || 'no credentials');
    });
  });
credentials
  .command('revoke')
  .description('revoke a credential and every token issued to it, at once')
  .argument('<client_id>')
  .option('--json', 'print JSON')
  .action(async (clientId: string, options: { json?: boolean }) => {
    await withDatabase(async ({ db }) => {
      const revoked = await revokeCredential(db, clientId);
      if (!revoked) throw new Error(`no credential with client id ${clientId}`);
      print({ client_id: clientId, revoked: true }, !!options.json, `revoked ${clientId}`);
    });
  });

const seed = program.command('seed').description('sample data');
seed
  .command('demo')
  .description('create a demo organization with a realistic month of schedule')
  .option('--json', 'print JSON')
  .option('--timezone <tz>', 'IANA time zone', 'America/Chicago')
  .action(async (options: { json?: boolean; timezone: string }) => {
    await withDatabase(async ({ db }) => {
      const organizationId = await createOrganization(db, { name: 'Demo Fire Department', timezone: options.timezone });
      const credential = await createCredential(db, config.secretKey, organizationId, 'demo');
      const auth: AuthContext = {
        orgId: organizationId,
        orgName: 'Demo Fire Department',
        timezone: options.timezone,
        clientId: credential.client_id,
        credentialId: 0,
      };
      const counts: Record<string, number> = {};
      await withTransaction(db, async (trx) => {
        const userIds = await createDemoUsers({ db: trx, auth });
        counts.users = userIds.length;
        const ctx = { db: trx, auth, adminId: userIds[0], userIds, shared: {} };
        for (const { module } of await loadDemoSeeds()) Object.assign(counts, (await module.seedDemo(ctx)) ?? {});
      });
      print({ ...credential, counts }, !!options.json, `demo organization ${organizationId}\nclient_id: ${credential.client_id}\nclient_secret: ${credential.client_secret}`);
    });
  });

seed
  .command('bench')
  .description('create a large organization for the benchmarks (npm run bench)')
  .option('--json', 'print JSON (and no progress bar)')
  .option('--users <n>', 'users', String(BENCH_DEFAULTS.users))
  .option('--assignments <n>', 'assignments', String(BENCH_DEFAULTS.assignments))
  .option('--months <n>', 'months of schedule', String(BENCH_DEFAULTS.months))
  .option('--time-offs <n>', 'time off entries', String(BENCH_DEFAULTS.timeOffs))
  .option('--logs <n>', 'system log entries', String(BENCH_DEFAULTS.logs))
  .option('--timezone <tz>', 'IANA time zone', BENCH_DEFAULTS.timezone)
  .action(async (options: { json?: boolean; users: string; assignments: string; months: string; timeOffs: string; logs: string; timezone: string }) => {
    await withDatabase(async (handle) => {
      const result = await runBenchSeed(handle, config, {
        json: !!options.json,
        users: positiveInt(options.users, '--users'),
        assignments: positiveInt(options.assignments, '--assignments'),
        months: positiveInt(options.months, '--months'),
        timeOffs: positiveInt(options.timeOffs, '--time-offs'),
        logs: positiveInt(options.logs, '--logs'),
        timezone: options.timezone,
      });
      print(result, !!options.json, `bench organization ${result.organization_id} in ${result.seconds}s: ${JSON.stringify(result.counts)}\nclient_id: ${result.client_id}\nclient_secret: ${result.client_secret}`);
    });
  });

const cli = { config, withDatabase, print, orgIdFrom };
registerOrgTransferCommands(org, cli);
registerBackupCommands(program, cli);
registerUsersImportCommand(program, cli);
registerApiImportCommand(program, cli);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
