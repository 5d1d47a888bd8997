import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';
import { createRecords, pathValues, type CreatedRecords } from './factories.js';
import { describeOperation, fillPath, loadOperations, sampleQuery, type Operation } from './openapi.js';

/**
 * docs/decisions/0016-request-input-forms.md: a PATCH that names no field the route knows is a no-op answering 200,
 * and fields a route does not declare never reach a column. Generated from /v1/openapi.json: every
 * PATCH of a record is sent an empty body and a body of undeclared column names; the record must
 * read the same afterwards.
 */

let server: TestServer;
let org: TestOrg;
let operations: Operation[];
let records: CreatedRecords;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  operations = await loadOperations(server);
  records = await createRecords(server, org, operations);
});
afterAll(() => server?.close());

/** Column names every table has: a body naming them must not write them. */
const UNDECLARED = {
  organization_id: 2_000_000_000,
  id: 2_000_000_000,
  deleted_at: '2026-01-01T00:00:00Z',
  created_at: '1999-01-01T00:00:00Z',
  'not a column': 1,
};

async function readRecord(path: string, op: Operation) {
  const get = operations.find((o) => o.method === 'GET' && o.path === op.path);
  if (!get) return undefined;
  const response = await org.get(path, { query: sampleQuery(get, records.ids) });
  return { status: response.status, body: response.body };
}

/** Routes that change fields one by one: a body without any of their fields is a no-op answering 200. */
const FIELD_WISE = [
  'PATCH /v1/lists/{id}',
  'PATCH /v1/qualifiers/{id}',
  'PATCH /v1/work_types/{id}',
  'PATCH /v1/work_subtypes/{id}',
  'PUT /v1/visual_cycles/{id}',
  'PATCH /v1/partner/users/{id}',
  'PATCH /v1/users/{user_id}',
  'PATCH /v1/recurring_shifts/{id}',
  'PATCH /v1/assignments/{id}',
  'PATCH /v1/time_off_types/{id}',
  'PUT /v1/certifications/{id}',
  'PATCH /v1/rotations/{id}',
  'PATCH /v1/unavailability_reasons/{id}',
  'PATCH /v1/accrual_profiles/{id}',
  'PATCH /v1/accrual_tracks/{id}',
  'PUT /v1/users/{user_id}/certifications/{id}',
  'PATCH /v1/users/{user_id}/time_offs/{id}',
];

describe('PATCH or PUT of a record with no known field', () => {
  it('answers 200 (field-wise routes) or 422 naming a required field, and leaves the record as it was', async () => {
    const writes = operations.filter((op) => ['PATCH', 'PUT'].includes(op.method) && op.pathParams.length > 0);
    const problems: string[] = [];
    const answeredOk = new Set<string>();
    for (const op of writes) {
      const values = pathValues(op.path, records.records);
      if (!values) continue;
      const path = fillPath(op.path, values);
      for (const body of [{}, UNDECLARED]) {
        const before = await readRecord(path, op);
        const response = await org.request(op.method, path, body);
        const after = await readRecord(path, op);
        const label = `${describeOperation(op)} ${JSON.stringify(body)} → ${response.status} ${response.text.slice(0, 160)}`;
        if (response.status === 200) answeredOk.add(describeOperation(op));
        const requiredField =
          response.status === 422 && response.body.error_message.every((m: string) => / field is required\.$/.test(m));
        if (response.status !== 200 && !requiredField) problems.push(`${label} (expected 200 or a required field)`);
        if (JSON.stringify(after) !== JSON.stringify(before)) problems.push(`${label} (the record changed)`);
      }
    }
    expect(problems).toEqual([]);
    expect([...answeredOk]).toEqual(expect.arrayContaining(FIELD_WISE));
  });
});
