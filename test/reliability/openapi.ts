import type { TestOrg, TestServer } from '../helpers/server.js';

/**
 * The route table as the running server documents it (`/v1/openapi.json`), and schema-driven
 * sample bodies, so that the reliability suites cover every route without a list to maintain.
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. `/v1/users/{user_id}` */
  path: string;
  operationId: string | undefined;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body: JsonSchema | undefined;
  bodyTypes: string[];
}

type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        parameters?: Parameter[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export async function loadOperations(server: TestServer): Promise<Operation[]> {
  const response = await server.request<OpenApiDocument>('GET', '/v1/openapi.json');
  if (response.status !== 200) throw new Error(`openapi.json: ${response.status}`);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(response.body.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const json = content['application/json'] ?? Object.values(content)[0];
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: json?.schema,
        bodyTypes: Object.keys(content),
      });
    }
  }
  return operations;
}

export const describeOperation = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

/** Fills `{name}` segments of an OpenAPI path. */
export function fillPath(path: string, values: Record<string, string | number>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name] ?? '')));
}

/** Ids of the acting organization that sample bodies refer to. */
export interface SampleIds {
  userId: number;
  workTypeId?: number;
  [name: string]: number | undefined;
}

const USER_REFERENCES =
  /^(user_id|service_user_id|admin_id|requesting_user|approving_user_id|accepting_user_id|initiated_by|created_by)$/;

function referenceFor(name: string, ids: SampleIds): number | undefined {
  if (USER_REFERENCES.test(name)) return ids.userId;
  if (name === 'work_type_id') return ids.workTypeId;
  return ids[name];
}

const DATE_VALUES: Record<string, string> = {
  end: '2026-03-04',
  end_date: '2026-03-04',
  until_date: '2026-03-31',
  swap_end: '2026-03-05 16:00:00',
};
const DATETIME_VALUES: Record<string, string> = {
  end_date: '2026-03-04 08:00:00',
  end: '2026-03-02 16:00:00',
  deadline: '2026-03-01 12:00:00',
  swap_start: '2026-03-05 08:00:00',
  swap_end: '2026-03-05 16:00:00',
};

function sampleString(schema: JsonSchema, name: string): string {
  if (schema.format === 'date') return DATE_VALUES[name] ?? '2026-03-02';
  if (schema.format === 'local-datetime') return DATETIME_VALUES[name] ?? '2026-03-02 08:00:00';
  if (schema.format === 'date-time') return '2026-03-02T08:00:00Z';
  if (name === 'deadline') return DATETIME_VALUES.deadline;
  if (schema.format === 'email' || name === 'mail')
    return `sample${Math.random().toString(36).slice(2, 8)}@example.com`;
  if (schema.format === 'uri' || name === 'url') return 'https://example.com/hook';
  if (schema.pattern?.includes('0-9a-fA-F')) return '#336699';
  if (name === 'username') return `sample_${Math.random().toString(36).slice(2, 10)}`;
  return 'Sample text'.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? Infinity);
}

/** A minimal body that satisfies a JSON schema: required properties only, references to `ids`. */
export function sampleFromSchema(schema: JsonSchema | undefined, ids: SampleIds, name = ''): unknown {
  if (!schema) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sampleFromSchema(options.find((o) => o.type !== 'null') ?? options[0], ids, name);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleFromSchema(s, ids, name)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = sampleFromSchema(schema.properties?.[key], ids, key);
      for (const key of Object.keys(schema.properties ?? {})) {
        if (!(key in value) && referenceFor(key, ids) !== undefined) value[key] = referenceFor(key, ids);
      }
      return value;
    }
    case 'array': {
      if (name.endsWith('_ids')) return [referenceFor(name.replace(/s$/, ''), ids) ?? ids.userId];
      const count = schema.minItems ?? 0;
      return Array.from({ length: count }, () => sampleFromSchema(schema.items, ids, name));
    }
    case 'integer':
    case 'number':
      return referenceFor(name, ids) ?? Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'string':
      return sampleString(schema, name);
    default:
      return referenceFor(name, ids) ?? 'sample';
  }
}

const isDateParameter = (param: Parameter) => ['date', 'local-datetime'].includes(param.schema?.format ?? '');

/** Values for the required query parameters of an operation (and its date ranges, with `withDates`). */
export function sampleQuery(op: Operation, ids: SampleIds, withDates = false): Record<string, string> {
  const query: Record<string, string> = {};
  for (const param of op.queryParams.filter((p) => p.required || (withDates && isDateParameter(p)))) {
    query[param.name] = String(sampleFromSchema(param.schema, ids, param.name));
  }
  return query;
}

/** The first work type of an organization (every organization starts with the default ones). */
export async function firstWorkTypeId(server: TestServer, org: TestOrg): Promise<number | undefined> {
  const row = await server.app.db
    .selectFrom('work_type')
    .select('id')
    .where('organization_id', '=', org.orgId)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

/** Rows written to the system log and the event outbox (all organizations): the write detector. */
export async function writeCount(server: TestServer): Promise<number> {
  const [log, outbox] = await Promise.all([
    server.app.db
      .selectFrom('system_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    server.app.db
      .selectFrom('outbox_event')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return Number(log.n) + Number(outbox.n);
}

/** The id a create answered with, wherever the resource puts it. */
export function createdId(body: unknown): number | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['id', 'user_id']) {
    const value = Number(record[key]);
    if (Number.isInteger(value) && value > 0) return value;
  }
  for (const nested of ['data', 'item', 'result']) {
    const id = createdId(record[nested]);
    if (id) return id;
  }
  for (const value of Object.values(record)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const id = createdId(value);
      if (id) return id;
    }
  }
  return undefined;
}
