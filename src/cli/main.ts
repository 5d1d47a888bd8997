import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { createCredential, listCredentials, revokeCredential } from '../core/auth/credentials.js';
import type { AuthContext } from '../core/auth/context.js';
import { createDatabase, type DatabaseHandle } from '../core/db/index.js';
import { migrateToLatest } from '../core/db/migrator.js';
import { withTransaction } from '../core/db/transaction.js';
import { createOrganization, findOrganization } from '../resources/organizations/repository.js';
import { DEMO_PASSWORD, DEMO_USERS } from '../resources/users/seed.js';
import { seedDemoOrganization } from './seed.js';
import { BENCH_DEFAULTS, positiveInt, runBenchSeed } from './seed-bench.js';
import { registerOrgTransferCommands } from './org-transfer.js';
import { registerBackupCommands } from './backup.js';
import { registerUsersImportCommand } from './users-import.js';
import { registerApiImportCommand } from './api-import.js';
import { registerLogCommands } from './log.js';
import { registerSetPasswordCommand } from './user-password.js';
import { checkCliUser, createCliUser, describeUser, promptPassword, signInUrl, type CliUser } from './users.js';

// A command waits up to a minute for a busy server's write lock rather than failing after five seconds.
const config = loadConfig(undefined, { sqliteBusyTimeoutMs: 60_000 });

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

/** The CLI's own entries in the system log. */
function cliAuth(organization: { id: number; name: string; timezone: string }): AuthContext {
  return {
    orgId: organization.id,
    orgName: organization.name,
    timezone: organization.timezone,
    clientId: 'cli',
    credentialId: 0,
  };
}

/** A password option, or a prompt on a terminal when it was left out. */
async function passwordFrom(given: string | undefined, option: string): Promise<string> {
  if (given !== undefined) return given;
  if (!process.stdin.isTTY) throw new Error(`${option} is required when the input is not a terminal.`);
  const first = await promptPassword('Password: ');
  if ((await promptPassword('Password again: ')) !== first) throw new Error('The two passwords differ.');
  return first;
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
  .description('create an organization with a first API credential and, with --admin-username, its first administrator')
  .requiredOption('--name <name>', 'organization name')
  .requiredOption('--timezone <tz>', 'IANA time zone, e.g. America/Chicago')
  .option('--admin-username <username>', 'first user, role Administrator: signs in to the web app')
  .option('--admin-password <password>', 'their password (asked for on a terminal when left out)')
  .option('--json', 'print JSON')
  .action(
    async (options: {
      name: string;
      timezone: string;
      adminUsername?: string;
      adminPassword?: string;
      json?: boolean;
    }) => {
      if (options.adminPassword !== undefined && options.adminUsername === undefined)
        throw new Error('--admin-password needs --admin-username.');
      let admin: CliUser | undefined;
      if (options.adminUsername !== undefined) {
        admin = {
          username: options.adminUsername,
          password: await passwordFrom(options.adminPassword, '--admin-password'),
          role: 'Administrator',
        };
        checkCliUser(admin, { username: '--admin-username', password: '--admin-password' });
      }
      await withDatabase(async ({ db }) => {
        const created = await withTransaction(db, async (trx) => {
          const organizationId = await createOrganization(trx, { name: options.name, timezone: options.timezone });
          const credential = await createCredential(
            trx,
            config.secretKey,
            organizationId,
            'created with the organization',
          );
          const auth = cliAuth({ id: organizationId, name: options.name.trim(), timezone: options.timezone });
          const adminId = admin ? await createCliUser(trx, auth, admin) : undefined;
          return { credential, adminId };
        });
        const { credential, adminId } = created;
        const lines = [
          `organization ${credential.organization_id} created`,
          `client_id:     ${credential.client_id}`,
          `client_secret: ${credential.client_secret} (shown once)`,
        ];
        if (admin)
          lines.push(
            `sign in at ${signInUrl(config)} with organization number ${credential.organization_id}, ` +
              `username ${admin.username}`,
          );
        const json =
          adminId === undefined
            ? credential
            : { ...credential, admin_user_id: adminId, sign_in_url: signInUrl(config) };
        print(json, !!options.json, lines.join('\n'));
      });
    },
  );

const user = program.command('users').alias('user').description('users of an organization');
user
  .command('create')
  .description('create a user who can sign in to the web app')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--username <username>', 'sign-in name, unique in the organization')
  .option('--password <password>', 'password, 12 characters at least (asked for on a terminal when left out)')
  .option('--role <role>', 'role; Admin, Administrator and Scheduler act on the whole organization', 'Employee')
  .option('--first-name <name>', 'first name (default: the username)')
  .option('--last-name <name>', 'last name (default: the role)')
  .option('--json', 'print JSON')
  .action(
    async (options: {
      org: string;
      username: string;
      password?: string;
      role: string;
      firstName?: string;
      lastName?: string;
      json?: boolean;
    }) => {
      const organizationId = orgIdFrom(options.org);
      const newUser: CliUser = {
        username: options.username,
        password: await passwordFrom(options.password, '--password'),
        role: options.role,
        firstName: options.firstName,
        lastName: options.lastName,
      };
      checkCliUser(newUser);
      await withDatabase(async ({ db }) => {
        const organization = await findOrganization(db, organizationId);
        if (!organization) throw new Error(`organization ${organizationId} does not exist`);
        const id = await withTransaction(db, (trx) => createCliUser(trx, cliAuth(organization), newUser));
        print(
          {
            organization_id: organizationId,
            user_id: id,
            username: newUser.username,
            role: newUser.role,
            sign_in_url: signInUrl(config),
          },
          !!options.json,
          `user ${id} created: ${describeUser(newUser)}\nsign in at ${signInUrl(config)} with organization ` +
            `number ${organizationId}`,
        );
      });
    },
  );

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
      if (!(await findOrganization(db, organizationId)))
        throw new Error(`organization ${organizationId} does not exist`);
      const credential = await createCredential(db, config.secretKey, organizationId, options.name ?? null);
      print(
        credential,
        !!options.json,
        `client_id:     ${credential.client_id}\nclient_secret: ${credential.client_secret} (shown once)`,
      );
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
      const text = rows
        .map(
          (r) =>
            `${r.client_id}\t${r.revoked_at ? `revoked ${r.revoked_at}` : 'active'}\t${r.created_at}\t${r.name ?? ''}`,
        )
        .join('\n');
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
      const { userIds: _, counts, ...credential } = await seedDemoOrganization(db, config.secretKey, options.timezone);
      const organizationId = credential.organization_id;
      const users = DEMO_USERS.map(({ username, role }) => ({ username, role }));
      print(
        { ...credential, counts, sign_in_url: signInUrl(config), users, password: DEMO_PASSWORD },
        !!options.json,
        [
          `demo organization ${organizationId} (Demo Fire Department)`,
          `client_id:     ${credential.client_id}`,
          `client_secret: ${credential.client_secret}`,
          `sign in at ${signInUrl(config)} with organization number ${organizationId} and password ` +
            `${DEMO_PASSWORD} as:`,
          ...users.map((u) => `  ${describeUser(u)}`),
        ].join('\n'),
      );
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
  .action(
    async (options: {
      json?: boolean;
      users: string;
      assignments: string;
      months: string;
      timeOffs: string;
      logs: string;
      timezone: string;
    }) => {
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
        print(
          result,
          !!options.json,
          `bench organization ${result.organization_id} in ${result.seconds}s: ` +
            `${JSON.stringify(result.counts)}\nclient_id: ${result.client_id}\nclient_secret: ` +
            `${result.client_secret}`,
        );
      });
    },
  );

const cli = { config, withDatabase, print, orgIdFrom };
registerOrgTransferCommands(org, cli);
registerBackupCommands(program, cli);
registerUsersImportCommand(program, cli);
registerApiImportCommand(program, cli);
registerLogCommands(program, cli);
registerSetPasswordCommand(program, cli);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
