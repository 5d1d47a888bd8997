import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';
import { describeOperation, loadOperations, type JsonSchema } from './openapi.js';

/**
 * A JSON null where the spec allows one clears the field to null. Ajv's type coercion turns null
 * into "" (or 0) through the first branch of `string | null`; input schemas list null first
 * (`NullableInput` in src/core/schemas.ts) so that null stays null.
 */

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server?.close());

describe('PATCH /users/{user_id} with null values', () => {
  it('clears nullable text and date fields to null, not ""', async () => {
    const userId = await org.createUser({
      employee_id: 'E-17',
      role: 'Captain',
      date_of_birth: '1980-04-02',
      date_of_hire: '2010-05-01',
    });
    const patched = await org.patch(`/users/${userId}`, {
      employee_id: null,
      role: null,
      date_of_birth: null,
      date_of_hire: null,
    });
    expect(patched.status).toBe(200);
    const user = await org.get(`/users/${userId}`);
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ employee_id: null, role: null, date_of_birth: null, date_of_hire: null });
  });

  it('keeps a null on create too', async () => {
    const userId = await org.createUser({ employee_id: null, avatar_url: null });
    const user = await org.get(`/users/${userId}`);
    expect(user.body).toMatchObject({ employee_id: null, avatar_url: null });
  });
});

describe('POST /assignments with "rrule": null', () => {
  const station = { name: 'Station 9', start: '2026-03-02 08:00:00', end: '2026-03-03 08:00:00', positions_to_fill: 1 };

  it('creates an assignment that does not recur', async () => {
    const created = await org.post('/assignments', { ...station, rrule: null });
    expect(created.status).toBe(201);
    const assignment = await org.get(`/assignments/${created.body.id}`);
    expect(assignment.status).toBe(200);
    expect(assignment.body.rrule).toBeNull();
  });

  it('makes a recurring assignment non-recurring on PATCH', async () => {
    const created = await org.post('/assignments', { ...station, rrule: 'FREQ=WEEKLY' });
    expect(created.status).toBe(201);
    expect((await org.get(`/assignments/${created.body.id}`)).body.rrule).toBe('FREQ=WEEKLY');
    const patched = await org.patch(`/assignments/${created.body.id}`, { rrule: null });
    expect(patched.status).toBe(200);
    expect((await org.get(`/assignments/${created.body.id}`)).body.rrule).toBeNull();
  });
});

/** Where a schema offers null after another type: Ajv would coerce a null into that type first. */
function nullTriedLate(schema: JsonSchema | undefined, where: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const here =
    Array.isArray(schema.anyOf) && schema.anyOf.findIndex((branch: JsonSchema) => branch?.type === 'null') > 0
      ? [where]
      : [];
  const nested = Object.entries(schema).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? nullTriedLate(value as JsonSchema, key === 'properties' || key === 'anyOf' ? where : `${where}.${key}`)
      : [],
  );
  return [...here, ...nested];
}

describe('a one-element array sent for a nullable field', () => {
  it('is refused with 422, never taken as the value or passed to the database', async () => {
    const types = await org.get('/work_types');
    const workTypeId = (types.body[0] as { id: number }).id;
    const text = await org.post('/work_subtypes', { work_type_id: workTypeId, label: 'Array code', work_code: ['to'] });
    expect(text.status, text.text).toBe(422);
    expect(text.body.error).toBe('invalid_params');
    const userId = await org.createUser();
    const date = await org.patch(`/users/${userId}`, { date_of_birth: ['1980-04-02'] });
    expect(date.status, date.text).toBe(422);
  });
});

describe('every request schema of /v1/openapi.json', () => {
  it('offers null before any other type, so that a null input stays null', async () => {
    const operations = await loadOperations(server);
    const late = operations.flatMap((op) => [
      ...nullTriedLate(op.body, `${describeOperation(op)} body`),
      ...[...op.queryParams, ...op.pathParams].flatMap((p) =>
        nullTriedLate(p.schema, `${describeOperation(op)} ${p.name}`),
      ),
    ]);
    expect(late).toEqual([]);
    expect(operations.length).toBeGreaterThan(100);
  });
});
