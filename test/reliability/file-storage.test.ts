import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/core/db/index.js';
import { scratchDatabase, type ScratchDatabase } from './databases.js';
import {
  accessToken,
  type Client,
  client,
  createOrgWithCli,
  environment,
  runFile,
  type ServerProcess,
  START_TIMEOUT_MS,
  startServerProcess,
  stop,
  stopAll,
} from './server-processes.js';
import { CLI_ENTRY } from '../helpers/entries.js';

/**
 * Uploaded certification files live in the database (migration 1451): servers that share the database and
 * nothing else (each its own data directory) serve each other's files, and files uploaded before 1451 under
 * a data directory are moved in when a server next starts with it.
 */

let database: ScratchDatabase | undefined;
const folders: string[] = [];

afterEach(async () => {
  await stopAll();
  await database?.cleanup();
  database = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A PDF (recognised by its first bytes) of `size` bytes, random after its header: several chunks of 256 KiB. */
function pdf(size: number): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
}

/** A user holding a certification, through the API: the path of its file. */
async function certificationFile(api: Client): Promise<string> {
  const user = await api('PUT', '/users', {
    username: 'medic',
    first_name: 'Pat',
    last_name: 'Medic',
    mail: 'medic@example.com',
    password: 'medic-password',
  });
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  const certification = await api('POST', '/certifications', {
    name: 'Paramedic',
    cert_id: 'PM',
    created_by: user.body.id,
  });
  expect(certification.status, JSON.stringify(certification.body)).toBe(201);
  const held = await api('POST', `/users/${user.body.id}/certifications`, { id: certification.body.id });
  expect(held.status, JSON.stringify(held.body)).toBe(201);
  return `/v1/users/${user.body.id}/certifications/${certification.body.id}/file`;
}

async function upload(server: ServerProcess, token: string, path: string, data: Buffer) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/pdf' },
    body: new Uint8Array(data),
  });
  expect(response.status).toBe(200);
}

async function download(server: ServerProcess, token: string, path: string) {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return {
    status: response.status,
    length: response.headers.get('content-length'),
    data: Buffer.from(await response.arrayBuffer()),
  };
}

/** Another data directory, empty: the second server shares only the database with the first. */
function otherDataDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'crewplan-files-'));
  folders.push(folder);
  return folder;
}

describe('certification files in the database', () => {
  it('a file uploaded through one server is downloaded through another, byte for byte', async () => {
    database = await scratchDatabase();
    const first = await startServerProcess(database);
    // the same database (on SQLite its file, named by DATABASE_URL), another data directory
    const second = await startServerProcess(database, {
      CREWPLAN_DATA_DIR: otherDataDir(),
      ...(database.databaseUrl ? {} : { DATABASE_URL: database.sqlitePath }),
    });
    const credential = await createOrgWithCli(database);
    const token = await accessToken(first.url, credential);
    const path = await certificationFile(client(first.url, token));
    const data = pdf(700_000);
    await upload(first, token, path, data);
    const read = await download(second, token, path);
    expect({ status: read.status, length: read.length }).toEqual({ status: 200, length: String(data.length) });
    expect(read.data.equals(data)).toBe(true);
    // a replacement uploaded through the second is what the first serves
    const replacement = pdf(300_000);
    await upload(second, token, path, replacement);
    expect((await download(first, token, path)).data.equals(replacement)).toBe(true);
    expect(existsSync(join(database.dataDir, 'certifications'))).toBe(false);
  }, 300_000);

  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    'a SQLite backup holds the files: another server serves them from it',
    async () => {
      database = await scratchDatabase();
      const server = await startServerProcess(database);
      const credential = await createOrgWithCli(database);
      const token = await accessToken(server.url, credential);
      const path = await certificationFile(client(server.url, token));
      const data = pdf(500_000);
      await upload(server, token, path, data);
      const copy = join(otherDataDir(), 'backup.sqlite');
      await runFile(process.execPath, [CLI_ENTRY, 'backup', '--to', copy], {
        env: environment(database),
        timeout: START_TIMEOUT_MS,
      });
      const restored = await startServerProcess(database, { CREWPLAN_DATA_DIR: otherDataDir(), DATABASE_URL: copy });
      const read = await download(restored, token, path);
      expect(read.status).toBe(200);
      expect(read.data.equals(data)).toBe(true);
    },
    300_000,
  );

  it(
    'a file uploaded before migration 1451 under the data dir is moved into the database at start',
    async () => {
      database = await scratchDatabase();
      let server = await startServerProcess(database);
      const credential = await createOrgWithCli(database);
      const token = await accessToken(server.url, credential);
      const path = await certificationFile(client(server.url, token));
      const data = pdf(400_000);
      await upload(server, token, path, data);
      await stop(server.child);
      // as an upload before 1451 left it: the bytes under <data dir>/certifications/, none in the database
      const handle = createDatabase({
        databaseUrl: database.databaseUrl,
        sqlitePath: database.sqlitePath,
        sqliteSynchronous: 'FULL',
        pgSchema: database.pgSchema,
        pgPoolSize: 1,
      });
      try {
        const { file_storage_name: name } = await handle.db
          .selectFrom('user_certification')
          .select('file_storage_name')
          .where('file_storage_name', 'is not', null)
          .executeTakeFirstOrThrow();
        await handle.db.deleteFrom('stored_file_chunk').where('name', '=', name!).execute();
        mkdirSync(join(database.dataDir, 'certifications'), { mode: 0o700 });
        writeFileSync(join(database.dataDir, 'certifications', name!), data, { mode: 0o600 });
        server = await startServerProcess(database);
        const read = await download(server, token, path);
        expect(read.status).toBe(200);
        expect(read.data.equals(data)).toBe(true);
        expect(existsSync(join(database.dataDir, 'certifications', name!))).toBe(false);
      } finally {
        await handle.close();
      }
    },
    START_TIMEOUT_MS * 2,
  );
});
