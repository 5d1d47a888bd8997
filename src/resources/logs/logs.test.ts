import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { writeLog } from '../../core/audit.js';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
const created: number[] = [];

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone: 'America/Los_Angeles' });
  other = await server.newOrg();
  for (let i = 0; i < 120; i += 1) created.push(await org.createUser({ first_name: `Log${i}` }));
  await other.createUser();
});
afterAll(() => server.close());

const entryShape = {
  log_id: expect.stringMatching(/^\d+$/),
  created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/),
  event_description: expect.any(String),
  user: { id: null, name: expect.stringMatching(/^API client /), href: null },
};

/**
 * Reads a page until it comes from memory, token and body (no statement, no token read: on
 * PostgreSQL the change listener connects on its own time), so that what follows tests the cache.
 */
async function untilCached(path: string): Promise<ApiResponse> {
  const { stats } = server.app.dbHandle;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const [queries, tokenReads] = [stats.queries, stats.tokenReads];
    const response = await org.get(path);
    expect(response.status).toBe(200);
    if (stats.queries === queries && stats.tokenReads === tokenReads) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${path} was never served from memory`);
}

describe('GET /logs', () => {
  it('returns 50 entries, newest first, in the spec shape', async () => {
    const response = await org.get('/logs');
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(50);
    expect(response.body.data[0]).toEqual(entryShape);
    expect(response.body.data[0].event_description).toMatch(/created user Log119 Last\d+/);
    const ids = response.body.data.map((e: { log_id: string }) => Number(e.log_id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(response.body.pagination.prev).toBeNull();
    // Pagination links carry `limit` (spec, Limits), 50 by default.
    expect(response.body.pagination.next).toMatch(/\/v1\/logs\?limit=50&before_id=\d+$/);
    expect(response.body.next).toBe(response.body.pagination.next);
    expect(response.body.data[0].created).toMatch(/-0[78]00$/);
  });

  it('pages through every entry once, and back', async () => {
    const seen: string[] = [];
    let url: string | null = `${server.url}/v1/logs`;
    let pages = 0;
    let last: any;
    while (url) {
      const response: ApiResponse = await org.get(url);
      seen.push(...response.body.data.map((e: { log_id: string }) => e.log_id));
      url = response.body.pagination.next;
      last = response.body;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect(last.data).toHaveLength(20);
    expect(new URL(last.pagination.prev).searchParams.get('limit')).toBe('50');
    const before = server.queryCount();
    const back = await org.get(last.pagination.prev);
    // a keyset page and both of its links in one statement
    expect(server.queryCount() - before).toBe(1);
    expect(back.body.data).toHaveLength(50);
    const again = server.queryCount();
    expect((await org.get(last.pagination.prev)).body).toEqual(back.body);
    expect(server.queryCount() - again).toBe(0); // read again with nothing new: from the response cache
    expect(Number(back.body.data[49].log_id)).toBe(Number(last.data[0].log_id) + 1);
    // the middle page, reached backwards, links both ways; the first page, reached backwards, has no prev
    expect(back.body.pagination.prev).not.toBeNull();
    expect(back.body.pagination.next).not.toBeNull();
    const first = await org.get(back.body.pagination.prev);
    expect(first.body.data.map((e: { log_id: string }) => e.log_id)).toEqual(seen.slice(0, 50));
    expect(first.body.pagination.prev).toBeNull();
    expect(first.body.pagination.next).not.toBeNull();
    const deep = await org.get(`/logs?before_id=${last.data[0].log_id}`);
    expect(deep.body.pagination.prev).not.toBeNull();
  });

  it('filters by `after` and never shows another organization', async () => {
    const future = await org.get('/logs', { query: { after: '2999-01-01' } });
    expect(future.body).toEqual({ data: [], pagination: { prev: null, next: null }, prev: null, next: null });
    const past = await org.get('/logs', { query: { after: '2000-01-01 00:00:00' } });
    expect(past.body.data).toHaveLength(50);
    const otherLogs = await other.get('/logs');
    expect(otherLogs.body.data).toHaveLength(1);
  });

  it('keeps `after` and `limit` through the pages both ways, with the same entries as without the filter', async () => {
    const unfiltered = (await org.get('/logs', { query: { limit: 100 } })).body.data.map(
      (e: { log_id: string }) => e.log_id,
    );
    const page1 = await org.get('/logs', { query: { after: '2000-01-01 00:00:00', limit: 40 } });
    expect(new URL(page1.body.next).searchParams.get('after')).toBe('2000-01-01 00:00:00');
    const page2 = await org.get(page1.body.next);
    const ids = [...page1.body.data, ...page2.body.data].map((e: { log_id: string }) => e.log_id);
    expect(ids).toEqual(unfiltered.slice(0, 80));
    const back = await org.get(page2.body.prev);
    expect(back.body.data.map((e: { log_id: string }) => e.log_id)).toEqual(ids.slice(0, 40));
    expect(back.body.prev).toBeNull();
    const emptyBeyond = await org.get('/logs', { query: { after: '2999-01-01', before_id: Number(ids[10]) } });
    expect(emptyBeyond.body).toEqual({ data: [], pagination: { prev: null, next: null }, prev: null, next: null });
  });

  it('shows at once an entry another server process wrote, with no request of its own', async () => {
    const first = await untilCached('/logs');
    // a second server on the same database, as in a deployment of several processes; its callback runner
    // writes entries outside any request (no revision raised, no write counted by this process)
    const second = await startServer({
      sqlitePath: server.config.sqlitePath,
      dataDir: server.config.dataDir,
      pgSchema: server.config.pgSchema,
    });
    try {
      const auth = {
        orgId: org.orgId,
        orgName: 'Log test',
        timezone: org.timezone,
        clientId: 'runner',
        credentialId: 0,
      };
      await writeLog(second.app.db, auth, { action: 'test.other_process', description: 'wrote from elsewhere' });
    } finally {
      await second.close();
    }
    const after = await org.get('/logs');
    expect(after.body.data[0].event_description).toMatch(/wrote from elsewhere$/);
    expect(after.body.data[1]).toEqual(first.body.data[0]);
  });

  it('shows at once an entry this process wrote outside any request (a background task)', async () => {
    const first = await untilCached('/logs?limit=5');
    const auth = { orgId: org.orgId, orgName: 'Log test', timezone: org.timezone, clientId: 'worker', credentialId: 0 };
    await writeLog(server.app.db, auth, { action: 'test.background', description: 'wrote in the background' });
    const after = await org.get('/logs?limit=5');
    expect(after.body.data[0].event_description).toMatch(/wrote in the background$/);
    expect(after.body.data[1]).toEqual(first.body.data[0]);
  });

  it('rejects a bad `after` and a bad limit', async () => {
    expect((await org.get('/logs', { query: { after: 'yesterday' } })).status).toBe(422);
    expect((await org.get('/logs', { query: { limit: 0 } })).status).toBe(422);
    expect((await org.get('/logs', { query: { limit: 201 } })).status).toBe(422);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/logs');
  });
});
