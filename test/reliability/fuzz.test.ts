import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';
import { createRecords, pathValues, type CreatedRecords } from './factories.js';
import {
  describeOperation,
  fillPath,
  loadOperations,
  sampleFromSchema,
  writeCount,
  type Operation,
} from './openapi.js';

/**
 * Property-based fuzzing of every operation in /v1/openapi.json: malformed query strings, bodies
 * of the wrong type, huge strings, deep nesting, unknown fields, bad dates, ids out of range.
 * Properties: never a 5xx, never a hang, a 4xx is always the spec's error body, and a 4xx writes
 * nothing (no system-log or outbox row). FUZZ_RUNS (per route) and FUZZ_SEED reproduce a run.
 */

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const REQUEST_TIMEOUT_MS = Number(process.env.FUZZ_REQUEST_TIMEOUT_MS ?? 10_000);

interface FuzzRequest {
  path: string;
  query: string;
  body: string | undefined;
  contentType: string | undefined;
}

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

const badDate = fc.constantFrom(
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '9999-12-31 25:61:61',
  '2026-03-08 02:30:00',
  '2026-11-01 01:30:00',
  '20260302',
  '2026-3-2',
  'yesterday',
  '',
  '2026-03-02T08:00:00+99:00',
  '-001-01-01',
  '2026-03-02 08:00:00.123456789',
  '275760-09-13',
  '1969-12-31T23:59:59Z',
  '2026-W10-1',
);
const outOfRangeNumber = fc.constantFrom(
  0,
  -1,
  2_147_483_648,
  -2_147_483_649,
  Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  0.5,
  1e-320,
);
const hugeString = fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n));
const deepNesting = fc
  .tuple(fc.integer({ min: 20, max: 3_000 }), fc.boolean())
  .map(
    ([depth, asArray]) =>
      JSON.parse(
        asArray ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
      ) as unknown,
  );
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  badDate,
  outOfRangeNumber,
  hugeString,
  deepNesting,
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
  fc.constantFrom(
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '../../etc/passwd',
    '\u0000',
    '%00',
    'NaN',
    '-0',
    '1e3',
    ' 1',
  ),
);

const malformedBody = fc.constantFrom(
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '0',
  'true',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '\u0000',
  '',
  '{"a":1}{"b":2}',
  '\ufeff{}',
  'a=1&b=2',
);

function idArbitrary(validIds: number[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...validIds.map(String)),
    outOfRangeNumber.map(String),
    fc.constantFrom('abc', '1.5', '-1', '0x10', '1e3', ' 1', '%00', '..', 'null', '99999999999999999999999'),
    fc.string({ maxLength: 30 }),
  );
}

function queryArbitrary(op: Operation): fc.Arbitrary<string> {
  const names = op.queryParams.map((p) => p.name);
  const key =
    names.length > 0 ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 10 })) : fc.string({ maxLength: 10 });
  const value = fc.oneof(
    fc.string({ maxLength: 30 }),
    badDate,
    fc.constantFrom('2026-03-02', '2026-03-02 08:00:00', 'true', '1', '0', '-5', '100000', ''),
    outOfRangeNumber.map(String),
    fc.integer({ min: 1_000, max: 6_000 }).map((n) => 'q'.repeat(n)),
  );
  const encoded = fc
    .array(fc.tuple(key, value), { maxLength: 6 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
  const raw = fc.constantFrom(
    '%',
    '%zz',
    '&&&',
    '=',
    '==&=',
    'a[]=1&a[]=2',
    'a[b][c]=1',
    'limit=1&limit=2',
    '__proto__[x]=1',
  );
  return fc.oneof({ weight: 4, arbitrary: encoded }, { weight: 1, arbitrary: raw });
}

function bodyArbitrary(op: Operation): fc.Arbitrary<Pick<FuzzRequest, 'body' | 'contentType'>> {
  const sample = (sampleFromSchema(op.body, records.ids) ?? {}) as Record<string, unknown>;
  const fields = Object.keys(op.body?.properties ?? {});
  const json = (value: unknown) => ({ body: JSON.stringify(value) ?? 'null', contentType: 'application/json' });
  const field =
    fields.length > 0
      ? fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 12 }))
      : fc.string({ maxLength: 12 });
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(field, weirdValue).map(([name, value]) => json({ ...sample, [name]: value })) },
    {
      weight: 2,
      arbitrary: fc.dictionary(field, weirdValue, { maxKeys: 5 }).map((extra) => json({ ...sample, ...extra })),
    },
    { weight: 1, arbitrary: fc.constant(json(sample)) },
    { weight: 1, arbitrary: weirdValue.map(json) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 4 }).map(json) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          malformedBody,
          fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/xml'),
        )
        .map(([body, contentType]) => ({ body, contentType })),
    },
    { weight: 1, arbitrary: fc.constant({ body: undefined, contentType: undefined }) },
  );
}

function requestArbitrary(op: Operation): fc.Arbitrary<FuzzRequest> {
  const valid = pathValues(op.path, records.records) ?? {};
  const validIds = [
    ...new Set([...Object.values(valid).filter((v): v is number => typeof v === 'number'), records.ids.userId]),
  ];
  const params = Object.fromEntries(
    op.pathParams.map((p) => [
      p.name,
      p.name === 'date' ? fc.oneof(fc.constant('2026-03-02'), badDate) : idArbitrary(validIds),
    ]),
  );
  const withBody = op.method !== 'GET';
  return fc
    .record({
      values: fc.record(params),
      query: queryArbitrary(op),
      payload: withBody ? bodyArbitrary(op) : fc.constant({ body: undefined, contentType: undefined }),
    })
    .map(({ values, query, payload }) => ({
      path: fillPath(op.path, values as Record<string, string>),
      query,
      ...payload,
    }));
}

function describeRequest(op: Operation, request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ''
      : ` ${request.contentType} ${request.body.slice(0, 200)}${request.body.length > 200 ? `… (${request.body.length} chars)` : ''}`;
  return `${op.method} ${request.path}?${request.query.slice(0, 200)}${body}`;
}

/** Checks one request against the properties; returns what went wrong, if anything. */
async function violations(op: Operation, request: FuzzRequest): Promise<string | undefined> {
  const writesBefore = await writeCount(server);
  const headers: Record<string, string> = { authorization: `Bearer ${org.token}` };
  if (request.contentType) headers['content-type'] = request.contentType;
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${server.url}${request.path}${request.query ? `?${request.query}` : ''}`, {
      method: op.method,
      headers,
      body: request.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    return `no answer within ${REQUEST_TIMEOUT_MS} ms: ${(error as Error).message}`;
  }
  if (response.status >= 500) return `${response.status} ${text.slice(0, 300)}`;
  if (response.status < 400) return undefined;
  let body: { status?: unknown; error?: unknown; error_message?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return `${response.status} without a JSON body: ${text.slice(0, 200)}`;
  }
  const message = body.error_message;
  const messageOk =
    typeof message === 'string' || (Array.isArray(message) && message.every((m) => typeof m === 'string'));
  if (body.status !== response.status || typeof body.error !== 'string' || !messageOk) {
    return `${response.status} not in the error format: ${text.slice(0, 300)}`;
  }
  const writesAfter = await writeCount(server);
  if (writesAfter !== writesBefore) return `${response.status} but ${writesAfter - writesBefore} log rows were written`;
  return undefined;
}

describe('every route of /v1/openapi.json under random input', () => {
  it('never answers 5xx, never hangs, answers 4xx in the error format and writes nothing on a 4xx', async () => {
    const ordered = [...operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    const failures: string[] = [];
    let requests = 0;
    const started = Date.now();
    for (const [index, op] of ordered.entries()) {
      let shrunkFailure = '';
      try {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(op), async (request) => {
            requests += 1;
            const problem = await violations(op, request);
            if (!problem) return;
            shrunkFailure = `${describeRequest(op, request)} → ${problem}`;
            throw new Error(shrunkFailure);
          }),
          { numRuns: RUNS_PER_ROUTE, seed: SEED + index, endOnFailure: true },
        );
      } catch (error) {
        failures.push(`${describeOperation(op)}: ${shrunkFailure || (error as Error).message.slice(0, 400)}`);
      }
    }
    console.info(
      `[fuzz] seed=${SEED} FUZZ_RUNS=${RUNS_PER_ROUTE} per route, ${ordered.length} routes, ${requests} requests in ${Date.now() - started} ms` +
        ` (reproduce: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS_PER_ROUTE})`,
    );
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(ordered.length);
  }, 600_000);
});
