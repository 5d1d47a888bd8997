import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../helpers/server.js';
import { createRecords, pathValues, UNREACHABLE, type CreatedRecords } from './factories.js';
import {
  describeOperation,
  fillPath,
  loadOperations,
  sampleFromSchema,
  sampleQuery,
  writeCount,
  type Operation,
  type SampleIds,
} from './openapi.js';

/**
 * Tenant isolation matrix, generated from /v1/openapi.json: organization B calls every route
 * that has an id in its path with organization A's records. B must get exactly what it gets for
 * a record that does not exist (a 404 in the spec's format), and nothing of A's may change.
 */

const MISSING_ID = 2_000_000_000;

let server: TestServer;
let orgA: TestOrg;
let orgB: TestOrg;
let operations: Operation[];
let recordsA: CreatedRecords;
let recordsB: CreatedRecords;

beforeAll(async () => {
  server = await startServer();
  [orgA, orgB] = [await server.newOrg({ name: 'Org A' }), await server.newOrg({ name: 'Org B' })];
  operations = await loadOperations(server);
  recordsA = await createRecords(server, orgA, operations);
  recordsB = await createRecords(server, orgB, operations);
  for (const [name, records] of [
    ['A', recordsA],
    ['B', recordsB],
  ] as const) {
    if (records.failed.length > 0)
      console.info(
        `[isolation] no factory could create a record of ${name}: ${records.failed.join(', ')} (routes skipped)`,
      );
  }
});
afterAll(() => server?.close());

const idOperations = () => operations.filter((op) => op.pathParams.some((p) => p.name !== 'date'));
/** Deletes run last, so that a leaking delete cannot hide a leak of another method. */
const byMethodDeleteLast = (a: Operation, b: Operation) =>
  Number(a.method === 'DELETE') - Number(b.method === 'DELETE');

/**
 * Bodies for routes whose schema-made sample the route refuses before it looks the record up, so
 * that the lookup itself is what answers.
 */
const VALID_BODIES: Record<string, (ids: SampleIds) => unknown> = {
  'PUT /v1/assignments/{id}/groups': (ids) => ({ group_ids: [ids.assignment_group_id] }),
  'PUT /v1/qualifiers/{id}': () => ({ undelete: true }),
  /** Without `time_off_type_id` in the body, the path's `id` names the type. */
  'POST /v1/users/{user_id}/timeoff/accrual/bank/{id}': (ids) => ({ hours: 1, admin_id: ids.userId }),
};

/** Routes that take a file (the OpenAPI document declares no JSON body for them). */
const UPLOADS = new Set(['POST /v1/users/{user_id}/certifications/{id}/file']);
/** A PDF's first bytes: what the certification upload recognises. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n');

async function callAsB(op: Operation, values: Record<string, string | number>): Promise<ApiResponse> {
  const path = fillPath(op.path, values);
  if (UPLOADS.has(describeOperation(op))) {
    // the raw file with its own content type
    const response = await fetch(`${server.url}${path}`, {
      method: op.method,
      headers: { authorization: `Bearer ${orgB.token}`, 'content-type': 'application/pdf' },
      body: PDF,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
  }
  const valid = VALID_BODIES[describeOperation(op)];
  const body = valid
    ? valid(recordsB.ids)
    : op.body
      ? sampleFromSchema(op.body, recordsB.ids)
      : ['POST', 'PUT', 'PATCH'].includes(op.method)
        ? {}
        : undefined;
  return orgB.request(op.method, path, body, { query: sampleQuery(op, recordsB.ids) });
}

/** What A sees of every record it owns, through every GET route with an id. */
async function snapshotOfA(): Promise<Record<string, unknown>> {
  const snapshot: Record<string, unknown> = {};
  for (const op of idOperations().filter((o) => o.method === 'GET')) {
    const values = pathValues(op.path, recordsA.records);
    if (!values) continue;
    const response = await orgA.get(fillPath(op.path, values), { query: sampleQuery(op, recordsA.ids) });
    snapshot[describeOperation(op)] = { status: response.status, body: response.body };
  }
  return snapshot;
}

/** What A sees through every GET route without an id (lists, settings, schedules). */
async function listsOfA(): Promise<Record<string, unknown>> {
  const snapshot: Record<string, unknown> = {};
  for (const op of operations.filter(
    (o) => o.method === 'GET' && o.pathParams.length === 0 && o.path.startsWith('/v1/') && o.path !== '/v1/logs',
  )) {
    const response = await orgA.get(op.path, { query: sampleQuery(op, recordsA.ids, true) });
    snapshot[describeOperation(op)] = { status: response.status, body: response.body };
  }
  return snapshot;
}

describe('routes with an id in the path (from /v1/openapi.json)', () => {
  it('answers organization B for A’s records exactly as for missing records, and changes nothing of A', async () => {
    const before = await snapshotOfA();
    const writesBefore = await writeCount(server);
    const skipped: string[] = [];
    const failures: string[] = [];
    /** Bodies the schema-made sample could not satisfy: the same refusal as for a missing record. */
    const refusedBeforeLookup: string[] = [];
    let checked = 0;
    let reached = 0;

    for (const op of idOperations().sort(byMethodDeleteLast)) {
      const values = pathValues(op.path, recordsA.records);
      if (!values) {
        if (!(describeOperation(op) in UNREACHABLE)) skipped.push(describeOperation(op));
        continue;
      }
      const missing = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, k === 'date' ? v : MISSING_ID]));
      const [forOwnedByA, forMissing] = [await callAsB(op, values), await callAsB(op, missing)];
      checked += 1;
      const label = `${describeOperation(op)} → ${forOwnedByA.status} ${forOwnedByA.text.slice(0, 160)}`;
      if (forOwnedByA.status !== forMissing.status || forOwnedByA.text !== forMissing.text) {
        failures.push(
          `${label} (differs from a missing record: ${forMissing.status} ${forMissing.text.slice(0, 160)})`,
        );
      } else if (forOwnedByA.status === 404 && forOwnedByA.body?.error === 'not found') {
        reached += 1;
      } else if (op.method === 'GET' || forOwnedByA.status < 400 || forOwnedByA.status >= 500) {
        failures.push(`${label} (expected 404)`);
      } else {
        refusedBeforeLookup.push(`${describeOperation(op)} (${forOwnedByA.status})`);
      }
    }

    console.info(
      `[isolation] ${checked} routes checked, ${reached} answered 404; skipped (no record factory): ${skipped.join(', ') || 'none'}`,
    );
    if (refusedBeforeLookup.length > 0)
      console.info(
        `[isolation] same 4xx as for a missing record, before the lookup: ${refusedBeforeLookup.join(', ')}`,
      );
    expect(failures).toEqual([]);
    // every route with an id is reached: a new family needs a factory (factories.ts), a body the
    // sample cannot satisfy needs an entry in VALID_BODIES
    expect(skipped, 'routes with no record of A to call them with').toEqual([]);
    expect(refusedBeforeLookup, 'routes that refused B before looking the record up').toEqual([]);
    expect(await writeCount(server)).toBe(writesBefore);
    expect(await snapshotOfA()).toEqual(before);
    expect(reached).toBeGreaterThan(checked / 2);
  });

  it('answers B naming its own record with A’s linked record (two ids in the path) as with a missing one', async () => {
    const before = await snapshotOfA();
    const writesBefore = await writeCount(server);
    const nested = idOperations().filter((op) => op.pathParams.filter((p) => p.name !== 'date').length >= 2);
    expect(nested.map(describeOperation)).toEqual(
      expect.arrayContaining([
        'DELETE /v1/shifts/{id}/labels/{labelId}',
        'DELETE /v1/assignments/{id}/groups/{group_id}',
      ]),
    );
    const failures: string[] = [];
    for (const op of nested.sort(byMethodDeleteLast)) {
      const [own, ofA] = [pathValues(op.path, recordsB.records), pathValues(op.path, recordsA.records)];
      if (!own || !ofA) {
        if (describeOperation(op) in UNREACHABLE) continue;
        failures.push(`${describeOperation(op)} (no record to call it with)`);
        continue;
      }
      for (const name of Object.keys(own).filter((n) => n !== 'date')) {
        const [withA, withMissing] = [
          await callAsB(op, { ...own, [name]: ofA[name] }),
          await callAsB(op, { ...own, [name]: MISSING_ID }),
        ];
        const label = `${describeOperation(op)} with A's ${name} → ${withA.status} ${withA.text.slice(0, 160)}`;
        // an error may name the id it was given ("User #12 not found"): that is all it may say
        const [textA, textMissing] = [
          withA.text.replace(new RegExp(`\\b${ofA[name]}\\b`, 'g'), '<id>'),
          withMissing.text.replace(new RegExp(`\\b${MISSING_ID}\\b`, 'g'), '<id>'),
        ];
        if (withA.status !== withMissing.status || textA !== textMissing)
          failures.push(
            `${label} (differs from a missing ${name}: ${withMissing.status} ${withMissing.text.slice(0, 160)})`,
          );
        else if (withA.status < 400 || withA.status >= 500) failures.push(`${label} (expected a 4xx)`);
      }
    }
    expect(failures).toEqual([]);
    expect(await writeCount(server)).toBe(writesBefore);
    expect(await snapshotOfA()).toEqual(before);
  });

  it('answers a path id that is not an id (abc, 0, -1, 1.5, too large) exactly as a missing record, a 404 naming the model', async () => {
    const writesBefore = await writeCount(server);
    const failures: string[] = [];
    let notFound = 0;
    let checked = 0;
    for (const op of idOperations().sort(byMethodDeleteLast)) {
      const own = pathValues(op.path, recordsB.records);
      if (!own) continue;
      for (const name of Object.keys(own).filter((n) => n !== 'date')) {
        const missing = await callAsB(op, { ...own, [name]: MISSING_ID });
        const missingText = missing.text.replace(new RegExp(`\\b${MISSING_ID}\\b`, 'g'), '<id>');
        for (const malformed of ['abc', '0', '-1', '1.5', '99999999999', '1e3']) {
          const answer = await callAsB(op, { ...own, [name]: malformed });
          checked += 1;
          // a message may name the id it looked for: the one that names no record is 0
          const text = answer.text.replace(/#0\b|\b0 (?=not found)/g, (m) => m.replace('0', '<id>'));
          if (answer.status !== missing.status || text !== missingText) {
            failures.push(
              `${describeOperation(op)} with ${name}=${malformed} → ${answer.status} ${answer.text.slice(0, 160)} (missing: ${missing.status} ${missing.text.slice(0, 160)})`,
            );
          } else if (answer.status === 404) notFound += 1;
        }
      }
    }
    expect(failures).toEqual([]);
    expect(notFound).toBeGreaterThan(checked / 2);
    expect(await writeCount(server)).toBe(writesBefore);
    const user = await orgB.get('/users/abc');
    expect(user.body).toEqual({ status: 404, error: 'not found', error_message: 'No query results for model [User].' });
  });

  it('covers every route whose path names a user with a real user of A', async () => {
    const userRoutes = idOperations().filter((op) => op.pathParams.length === 1 && op.pathParams[0].name === 'user_id');
    expect(userRoutes.map(describeOperation)).toEqual(
      expect.arrayContaining(['GET /v1/users/{user_id}', 'PATCH /v1/users/{user_id}']),
    );
    for (const op of userRoutes.sort(byMethodDeleteLast)) {
      const response = await callAsB(op, { user_id: recordsA.ids.userId });
      expect(response.status, describeOperation(op)).toBe(404);
      expect(response.body).toEqual({
        status: 404,
        error: 'not found',
        error_message: 'No query results for model [User].',
      });
    }
    const user = await orgA.get(`/users/${recordsA.ids.userId}`);
    expect(user.status).toBe(200);
    expect(user.body.user_id).toBe(recordsA.ids.userId);
  });

  it('lets A still use every record afterwards (the factories made real records)', async () => {
    for (const [collection, id] of recordsA.records) {
      const get = operations.find((op) => op.method === 'GET' && op.path === `${collection}/{id}`);
      if (!get) continue;
      const response = await orgA.get(fillPath(get.path, { id, user_id: recordsA.ids.userId }));
      expect(response.status, get.path).toBe(200);
    }
  });
});

describe('list routes filtered by an id in the query', () => {
  it('answer B filtering by A’s records exactly as by missing ones', async () => {
    const referenced = (name: string) => name === 'user_id' || recordsA.ids[name] !== undefined;
    const lists = operations.filter(
      (o) => o.method === 'GET' && o.path.startsWith('/v1/') && o.queryParams.some((p) => referenced(p.name)),
    );
    expect(lists.map(describeOperation)).toEqual(
      expect.arrayContaining(['GET /v1/calendar_feeds', 'GET /v1/misc_hours', 'GET /v1/recurring_shifts']),
    );
    const failures: string[] = [];
    let checked = 0;
    for (const op of lists) {
      const values = op.pathParams.length > 0 ? pathValues(op.path, recordsB.records) : {};
      if (!values) continue;
      const idParams = op.queryParams.filter((p) => referenced(p.name)).map((p) => p.name);
      const base = sampleQuery(op, recordsB.ids, true);
      const idOfA = (name: string) => String(name === 'user_id' ? recordsA.ids.userId : recordsA.ids[name]);
      for (const name of idParams) {
        const [withA, withMissing] = [
          await orgB.get(fillPath(op.path, values), { query: { ...base, [name]: idOfA(name) } }),
          await orgB.get(fillPath(op.path, values), { query: { ...base, [name]: String(MISSING_ID) } }),
        ];
        if (withA.status !== withMissing.status || withA.text !== withMissing.text) {
          failures.push(
            `${describeOperation(op)}?${name}=<A's> → ${withA.status} ${withA.text.slice(0, 160)} (for a missing id: ${withMissing.status} ${withMissing.text.slice(0, 160)})`,
          );
        }
        checked += 1;
      }
    }
    console.info(`[isolation] ${checked} list filters checked with A's ids`);
    expect(failures).toEqual([]);
  });
});

describe('write routes given another organization in the body (mass assignment)', () => {
  it('keep B’s writes in B: nothing A lists changes', async () => {
    const before = { lists: await listsOfA(), records: await snapshotOfA() };
    const writes = operations.filter(
      (op) => ['POST', 'PUT', 'PATCH'].includes(op.method) && op.body && !op.path.startsWith('/oauth'),
    );
    let sent = 0;
    for (const op of writes) {
      const values = pathValues(op.path, recordsB.records);
      const sample = sampleFromSchema(op.body, recordsB.ids);
      if (!values || !sample || typeof sample !== 'object' || Array.isArray(sample)) continue;
      await orgB.request(
        op.method,
        fillPath(op.path, values),
        { ...sample, organization_id: orgA.orgId },
        { query: sampleQuery(op, recordsB.ids) },
      );
      sent += 1;
    }
    console.info(`[isolation] ${sent} writes of B carried organization_id ${orgA.orgId}`);
    const after = { lists: await listsOfA(), records: await snapshotOfA() };
    const changed = (['lists', 'records'] as const).flatMap((kind) =>
      Object.keys(before[kind]).filter(
        (route) => JSON.stringify(before[kind][route]) !== JSON.stringify(after[kind][route]),
      ),
    );
    expect(changed, 'routes of A showing data B wrote').toEqual([]);
    expect(sent).toBeGreaterThan(0);
  });
});
