import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../helpers/server.js';
import { createdId, firstWorkTypeId, loadOperations, sampleFromSchema, type Operation } from './openapi.js';

/**
 * 50 identical requests at once that may succeed only once: exactly one success, the rest 4xx,
 * never a 5xx. Routes that do not exist yet are detected from /v1/openapi.json and the test is skipped.
 */

const PARALLEL = 50;

let server: TestServer;
let org: TestOrg;
let operations: Operation[];

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  operations = await loadOperations(server);
});
afterAll(() => server?.close());

const hasRoute = (method: string, path: string) => operations.some((op) => op.method === method && op.path === path);

function tally(responses: ApiResponse[]) {
  const statuses = responses.map((r) => r.status);
  return {
    successes: statuses.filter((s) => s >= 200 && s < 300).length,
    clientErrors: statuses.filter((s) => s >= 400 && s < 500).length,
    serverErrors: responses.filter((r) => r.status >= 500).map((r) => r.text),
  };
}

/** Every refusal is in the spec's error format. */
function expectErrorBodies(responses: ApiResponse[]) {
  for (const response of responses.filter((r) => r.status >= 400)) {
    expect(response.body).toEqual({ status: response.status, error: expect.any(String), error_message: expect.anything() });
  }
}

describe('PUT /users with the same username 50 times at once', () => {
  it('creates the user once and refuses the rest with a 4xx', async () => {
    const body = { username: 'race_user', first_name: 'Race', last_name: 'User', mail: 'race@example.com', password: 'secret-password' };
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => org.put('/users', body)));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    const users = await org.get('/users');
    expect(users.body.filter((u: { username: string }) => u.username === 'race_user')).toHaveLength(1);
  });
});

describe('POST /signup_events/{id}/users at once', () => {
  const skip = () => !hasRoute('POST', '/v1/signup_events/{id}/users');

  async function createEvent(employeesNeeded: number): Promise<number> {
    const admin = await org.createUser();
    const response = await org.post('/signup_events', {
      admin_id: admin,
      title: 'Race event',
      start: '2030-03-02 08:00:00',
      end: '2030-03-02 16:00:00',
      employees_needed: employeesNeeded,
      work_type_id: await firstWorkTypeId(server, org),
    });
    expect(response.status).toBe(201);
    return response.body.id as number;
  }

  it('signs the same user up once', async (context) => {
    if (skip()) context.skip();
    const eventId = await createEvent(5);
    const userId = await org.createUser();
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => org.post(`/signup_events/${eventId}/users`, { user_id: userId })));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
  });

  it('gives the last slot to exactly one of 50 different users', async (context) => {
    if (skip()) context.skip();
    const eventId = await createEvent(1);
    const userIds: number[] = [];
    for (let i = 0; i < PARALLEL; i += 1) userIds.push(await org.createUser());
    const responses = await Promise.all(userIds.map((userId) => org.post(`/signup_events/${eventId}/users`, { user_id: userId })));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    const signedUp = await org.get(`/signup_events/${eventId}/users`);
    expect(signedUp.status).toBe(200);
    expect(JSON.stringify(signedUp.body).match(/"id":/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
  });
});

describe('POST /assignments/{id}/finalization for the same date at once', () => {
  const skip = () => !hasRoute('POST', '/v1/assignments/{id}/finalization') || !hasRoute('POST', '/v1/assignments');

  it('finalizes once and refuses the rest with a 4xx', async (context) => {
    if (skip()) context.skip();
    const admin = await org.createUser();
    const create = operations.find((op) => op.method === 'POST' && op.path === '/v1/assignments')!;
    const ids = { userId: admin, workTypeId: await firstWorkTypeId(server, org) };
    const assignment = await org.post('/assignments', sampleFromSchema(create.body, ids));
    expect(assignment.status, assignment.text).toBeLessThan(300);
    const assignmentId = createdId(assignment.body);
    const body = { date: '2026-03-02', admin_id: admin };
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => org.post(`/assignments/${assignmentId}/finalization`, body)));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
  });
});
