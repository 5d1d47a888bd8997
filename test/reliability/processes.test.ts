import { afterEach, describe, expect, it } from 'vitest';
import { scratchDatabase, type ScratchDatabase } from './databases.js';
import {
  accessToken,
  client,
  createOrgWithCli,
  environment,
  type Reply,
  runFile,
  START_TIMEOUT_MS,
  startServerProcess,
  stopAll,
} from './server-processes.js';
import { CLI_ENTRY } from '../helpers/entries.js';

/**
 * Several processes on one database, started together as an operator would: the entry of
 * `npm start` (the compiled dist/server.js) and of `npm run cli`. A fresh database each time, so the
 * processes race on the migrations too. Every child is bounded by a timeout and stopped after.
 */

const PARALLEL = 50;

let database: ScratchDatabase | undefined;

afterEach(async () => {
  await stopAll();
  await database?.cleanup();
  database = undefined;
});

function tally(replies: Reply[]) {
  return {
    successes: replies.filter((r) => r.status >= 200 && r.status < 300).length,
    clientErrors: replies.filter((r) => r.status >= 400 && r.status < 500).length,
    serverErrors: replies.filter((r) => r.status >= 500).map((r) => JSON.stringify(r.body)),
  };
}

describe.skipIf(process.env.TEST_DATABASE_URL)(
  'a server and a CLI command started at once on a fresh SQLite file',
  () => {
    it('both come up: one applies the migrations, the other waits for them', async () => {
      database = await scratchDatabase();
      const db = database;
      const [{ url }, credential] = await Promise.all([startServerProcess(db), createOrgWithCli(db)]);
      const api = client(url, await accessToken(url, credential));
      const user = await api('PUT', '/users', {
        username: 'after_start',
        first_name: 'After',
        last_name: 'Start',
        mail: 'a@example.com',
        password: 'secret-password',
      });
      expect(user.status).toBe(201);
    }, 180_000);
  },
);

/** `npm run cli -- users create`: a write of another process, in a transaction of its own. */
async function createUserWithCli(db: ScratchDatabase, orgId: number, username: string): Promise<void> {
  await runFile(
    process.execPath,
    [
      CLI_ENTRY,
      'users',
      'create',
      '--org',
      String(orgId),
      '--username',
      username,
      '--password',
      'secret-password',
      '--json',
    ],
    { env: environment(db), timeout: START_TIMEOUT_MS },
  );
}

describe.skipIf(process.env.TEST_DATABASE_URL)('CLI writes while the server writes, on one SQLite file', () => {
  it('the server waits for the CLI (and the CLI for the server): no 5xx, every CLI command succeeds', async () => {
    database = await scratchDatabase();
    const db = database;
    const { url } = await startServerProcess(db);
    const credential = await createOrgWithCli(db);
    const api = client(url, await accessToken(url, credential));
    const orgId = credential.organization_id;
    let cliDone = false;
    const replies: Reply[] = [];
    // the server writes without a pause until every CLI command has finished
    const serverWrites = (async () => {
      for (let round = 0; !cliDone; round += 1) {
        replies.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              api('PUT', '/users', {
                username: `server_${round}_${i}`,
                first_name: 'Server',
                last_name: `Write ${i}`,
                mail: `server_${round}_${i}@example.com`,
                password: 'secret-password',
              }),
            ),
          )),
        );
      }
    })();
    const cliUsers = Array.from({ length: 6 }, (_, i) => `cli_${i}`);
    const cli = await Promise.allSettled(cliUsers.map((name) => createUserWithCli(db, orgId, name)));
    cliDone = true;
    await serverWrites;
    expect(cli.filter((result) => result.status === 'rejected').map((result) => String(result.reason))).toEqual([]);
    expect(replies.length).toBeGreaterThan(0);
    const refused = JSON.stringify(replies.filter((r) => r.status >= 400).map((r) => [r.status, r.body]));
    expect(tally(replies), `refused: ${refused}`).toEqual({
      successes: replies.length,
      clientErrors: 0,
      serverErrors: [],
    });
    const users = (await api('GET', '/users')).body as Array<{ username: string }>;
    const names = new Set(users.map((u) => u.username));
    expect(cliUsers.filter((name) => !names.has(name))).toEqual([]);
    expect(users.length).toBe(replies.length + cliUsers.length);
  }, 240_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'three server processes started at once on a fresh PostgreSQL schema',
  () => {
    it('all come up, and the races driven through all three still have one winner', async () => {
      database = await scratchDatabase();
      const db = database;
      const urls = (await Promise.all([startServerProcess(db), startServerProcess(db), startServerProcess(db)])).map(
        (p) => p.url,
      );
      const credential = await createOrgWithCli(db);
      const apis = await Promise.all(urls.map(async (url) => client(url, await accessToken(url, credential))));
      const api = apis[0]!;
      const through = (i: number) => apis[i % apis.length]!;

      const newUser = async (name: string) =>
        (
          await api('PUT', '/users', {
            username: name,
            first_name: 'Crew',
            last_name: name,
            mail: `${name}@example.com`,
            password: 'secret-password',
          })
        ).body.user_id as number;
      const adminId = await newUser('admin');
      const userId = await newUser('crew');
      const typeId = (await api('POST', '/time_off_types', { label: 'Vacation' })).body.id as number;
      expect(
        (
          await api('POST', `/users/${userId}/timeoff/accrual/bank`, {
            time_off_type_id: typeId,
            hours: 100,
            admin_id: adminId,
          })
        ).status,
      ).toBe(201);
      const request = await api('POST', '/time_offs', {
        user_id: userId,
        admin_ids: [adminId],
        start_date: '2031-05-05 08:00:00',
        end_date: '2031-05-05 16:00:00',
        time_off_type_id: typeId,
      });
      expect(request.status).toBe(201);

      // 25 approvals against 25 denials, spread over the three processes
      const decisions = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          through(i)('POST', `/time_offs/${request.body.id}/${i % 2 === 0 ? 'approve' : 'deny'}`, {
            admin_id: adminId,
          }),
        ),
      );
      expect(tally(decisions)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
      const approved = decisions.findIndex((r) => r.status === 200) % 2 === 0;
      const ledger = (await api('GET', `/users/${userId}/timeoff/accrual/transactions`)).body.map(
        (row: { kind: string; hours: number }) => [row.kind, row.hours],
      );
      expect(ledger).toEqual(
        approved
          ? [
              ['manual', 100],
              ['time_off', -8],
            ]
          : [['manual', 100]],
      );

      // 50 overlapping shifts for one user
      const assignment = await api('POST', '/assignments', {
        name: 'Engine',
        start: '2031-01-01 07:00:00',
        end: '2031-01-01 08:00:00',
        positions_to_fill: 1,
      });
      expect(assignment.status).toBe(201);
      const workTypes = (await api('GET', '/work_types')).body as Array<{ id: number }>;
      const shifts = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          through(i)('POST', '/shifts', {
            assignment_id: assignment.body.id ?? assignment.body.assignment?.id,
            user_id: userId,
            date: '2031-07-01',
            start: `2031-07-01 08:${String(i).padStart(2, '0')}:00`,
            end: '2031-07-01 16:00:00',
            work_type_id: workTypes[0]!.id,
          }),
        ),
      );
      expect(tally(shifts)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
      expect((await api('GET', `/shifts?user_id=${userId}`)).body).toHaveLength(1);
    }, 240_000);
  },
);
