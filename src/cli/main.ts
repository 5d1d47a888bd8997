import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { addressConfigured, type Config, isPostgresUrl, loadConfig, secretKeyIsFile, storageFrom } from '../config.js';
import { canonicalZone } from '../core/time.js';
import { checkStorage, describeDatabase, lastServerUrl, publicUrl, StartupError, startupMessage } from '../startup.js';
import { createCredential, listCredentials, revokeCredential } from '../core/auth/credentials.js';
import { cliAuth } from './context.js';
import { createDatabase, type DatabaseHandle } from '../core/db/index.js';
import { migrateToLatest } from '../core/db/migrator.js';
import { withTransaction } from '../core/db/transaction.js';
import { createOrganization, findOrganization } from '../resources/organizations/repository.js';
import { DEMO_PASSWORD, DEMO_USERS } from '../resources/users/seed.js';
import { moveFilesIn } from '../resources/user-memberships/file-store.js';
import { seedDemoOrganization } from './seed.js';
import { BENCH_DEFAULTS, positiveInt, runBenchSeed } from './seed-bench.js';
import { registerOrgTransferCommands } from './org-transfer.js';
import { registerBackupCommands } from './backup.js';
import { registerUsersImportCommand } from './users-import.js';
import { registerApiImportCommand } from './api-import.js';
import { registerLogCommands } from './log.js';
import { registerCallbackCommands } from './callbacks.js';
import { registerMailCommands } from './mail-catch.js';
import { registerSetPasswordCommand } from './user-password.js';
import { checkCliUser, createCliUser, describeUser, promptPassword, type CliUser } from './users.js';

/** The server's settings, read as the server reads them; a folder is created only as the server would. */
function cliConfig(): Readonly<Config> {
  try {
    checkStorage(storageFrom(), {
      create: process.argv.slice(2).includes('--create'),
      secretKeyFile: secretKeyIsFile(),
    });
    // A command waits up to a minute for a busy server's write lock rather than failing after five seconds.
    return loadConfig(undefined, { sqliteBusyTimeoutMs: 60_000 });
  } catch (error) {
    process.stderr.write(`error: ${startupMessage(error, undefined)}\n`);
    process.exit(1);
  }
}

const config = cliConfig();
/** The database every command names: its output says which one it opened, and when the command created it. */
const database =
  isPostgresUrl(config.databaseUrl) || existsSync(config.sqlitePath)
    ? describeDatabase(config)
    : `${describeDatabase(config)} (new: created by this command)`;

/** Set once a command has opened the database: its error then names the database too. */
let opened = false;

async function withDatabase<T>(fn: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  let handle: DatabaseHandle | undefined;
  try {
    handle = createDatabase(config);
    await migrateToLatest(handle.db);
    // certification files uploaded before migration 1451, from this data directory into the database
    await moveFilesIn(handle.db, config.dataDir);
  } catch (error) {
    await handle?.close();
    throw new StartupError(startupMessage(error, config), { cause: error });
  }
  opened = true;
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

/** JSON alone on stdout with --json (the database on stderr); text with the database's line otherwise. */
function print(value: unknown, json: boolean, text: string) {
  if (json) {
    process.stderr.write(`database: ${database}\n`);
    process.stdout.write(`${JSON.stringify(value)}\n`);
  } else process.stdout.write(`${text}\ndatabase: ${database}\n`);
}

/**
 * The web app's address: PUBLIC_BASE_URL, or PORT (and HOST) as configured here, or the address the last
 * server started on this database recorded; undefined when none says it.
 */
async function signInAddress(db: DatabaseHandle['db']): Promise<string | undefined> {
  const base = addressConfigured() ? publicUrl(config) : await lastServerUrl(db);
  return base && `${base}/app`;
}

const UNKNOWN_SIGN_IN =
  'sign-in address unknown: no server has started on this database yet and PUBLIC_BASE_URL and PORT are ' +
  'unset here; start the server with this DATABASE_URL and CREWPLAN_DATA_DIR';

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

const program = new Command()
  .name('crewplan')
  .description('crewplan operator commands')
  .option('--create', 'create a missing data directory or SQLite folder (other than the default ./data)')
  .showHelpAfterError();

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    let handle: DatabaseHandle | undefined;
    try {
      handle = createDatabase(config);
      const applied = await migrateToLatest(handle.db);
      process.stdout.write(
        applied.length ? `applied to ${database}: ${applied.join(', ')}\n` : `${database} is up to date\n`,
      );
    } catch (error) {
      throw new StartupError(startupMessage(error, config), { cause: error });
    } finally {
      await handle?.close();
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
        const timezone = canonicalZone(options.timezone);
        const created = await withTransaction(db, async (trx) => {
          const organizationId = await createOrganization(trx, { name: options.name, timezone });
          const credential = await createCredential(
            trx,
            config.secretKey,
            organizationId,
            'created with the organization',
          );
          const auth = cliAuth({ id: organizationId, name: options.name.trim(), timezone });
          const adminId = admin ? await createCliUser(trx, auth, admin) : undefined;
          return { credential, adminId };
        });
        const { credential, adminId } = created;
        const url = await signInAddress(db);
        const lines = [
          `organization ${credential.organization_id} created`,
          `client_id:     ${credential.client_id}`,
          `client_secret: ${credential.client_secret} (shown once)`,
        ];
        if (admin && url)
          lines.push(
            `sign in at ${url} with organization number ${credential.organization_id}, username ${admin.username}`,
          );
        else if (admin) lines.push(UNKNOWN_SIGN_IN);
        if (options.json && admin && !url) process.stderr.write(`${UNKNOWN_SIGN_IN}\n`);
        const json =
          adminId === undefined ? credential : { ...credential, admin_user_id: adminId, sign_in_url: url ?? null };
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
        const url = await signInAddress(db);
        if (options.json && !url) process.stderr.write(`${UNKNOWN_SIGN_IN}\n`);
        print(
          {
            organization_id: organizationId,
            user_id: id,
            username: newUser.username,
            role: newUser.role,
            sign_in_url: url ?? null,
          },
          !!options.json,
          `user ${id} created: ${describeUser(newUser)}\n` +
            (url ? `sign in at ${url} with organization number ${organizationId}` : UNKNOWN_SIGN_IN),
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
      const timezone = canonicalZone(options.timezone);
      const { userIds, counts, ...credential } = await seedDemoOrganization(db, config.secretKey, timezone);
      const organizationId = credential.organization_id;
      const users = DEMO_USERS.map(({ username, role }) => ({ username, role }));
      const url = await signInAddress(db);
      const others = userIds.length - users.length;
      print(
        { ...credential, counts, sign_in_url: url ?? null, users, password: DEMO_PASSWORD },
        !!options.json,
        [
          `demo organization ${organizationId} (Demo Fire Department)`,
          `client_id:     ${credential.client_id}`,
          `client_secret: ${credential.client_secret}`,
          url
            ? `sign in at ${url} with organization number ${organizationId} and password ${DEMO_PASSWORD} as:`
            : `${UNKNOWN_SIGN_IN}; with organization number ${organizationId} and password ${DEMO_PASSWORD} as:`,
          ...users.map((u) => `  ${describeUser(u)}`),
          `The other ${others} demo users have no password: they are on the schedule but cannot sign in.`,
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

const cli = { config, database, withDatabase, print, orgIdFrom };
registerOrgTransferCommands(org, cli);
registerBackupCommands(program, cli);
registerUsersImportCommand(program, cli);
registerApiImportCommand(program, cli);
registerLogCommands(program, cli);
registerCallbackCommands(program, cli);
registerMailCommands(program);
registerSetPasswordCommand(program, cli);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (opened) process.stderr.write(`database: ${database}\n`);
  if (config.logLevel === 'debug' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
}
