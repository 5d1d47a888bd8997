import { createECDH, randomBytes } from 'node:crypto';
import type { TestOrg, TestServer } from '../helpers/server.js';
import { createdId, fillPath, firstWorkTypeId, sampleFromSchema, type Operation, type SampleIds } from './openapi.js';

/**
 * One record per resource family (collection path), created through the API in one organization.
 * A family without an entry here is created by a generic POST of a schema-made sample body; an
 * entry is needed only where that sample breaks a business rule. Families that cannot be created
 * are reported as skipped.
 */
export interface FactoryContext {
  server: TestServer;
  org: TestOrg;
  ids: SampleIds;
  operations: Operation[];
  records: Map<string, number>;
}

export type Factory = (ctx: FactoryContext, collection: string) => Promise<number | undefined>;

export const SAMPLE_DATE = '2026-03-02';

/** Path values naming records of `records` (users by `user_id`), or undefined when a family has none. */
export function pathValues(path: string, records: Map<string, number>): Record<string, string | number> | undefined {
  const values: Record<string, string | number> = {};
  for (const [name, collection] of Object.entries(collectionsOf(path))) {
    if (name === 'date') values[name] = SAMPLE_DATE;
    else if (name === 'user_id') values[name] = records.get('/v1/users')!;
    else if (records.has(collection)) values[name] = records.get(collection)!;
    else return undefined;
  }
  return values;
}

/** The newest id a collection lists, for creates that answer without the new id. */
async function newestListedId(org: TestOrg, path: string): Promise<number | undefined> {
  const response = await org.get(path);
  const rows: unknown = Array.isArray(response.body) ? response.body : response.body?.data;
  if (response.status !== 200 || !Array.isArray(rows)) return undefined;
  const listed = rows.map((row: { id?: unknown }) => Number(row?.id)).filter((id) => Number.isInteger(id) && id > 0);
  return listed.length > 0 ? Math.max(...listed) : undefined;
}

/** POSTs a schema-made sample body (with `overrides`) to a collection; the new record's id. */
async function createWithSample(
  ctx: FactoryContext,
  collection: string,
  overrides: Record<string, unknown> = {},
): Promise<number | undefined> {
  const { org, ids, operations, records } = ctx;
  const create = operations.find((op) => op.path === collection && (op.method === 'POST' || op.method === 'PUT'));
  const values = pathValues(collection, records);
  if (!create || !values) return undefined;
  const sample = sampleFromSchema(create.body, ids);
  const body = sample && typeof sample === 'object' && !Array.isArray(sample) ? { ...sample, ...overrides } : sample;
  const path = fillPath(collection, values);
  const response = await org.request(create.method, path, body);
  if (process.env.FACTORY_DEBUG)
    console.info(
      `[factory] ${create.method} ${path} ${JSON.stringify(body)} → ${response.status} ${response.text.slice(0, 300)}`,
    );
  if (response.status < 200 || response.status >= 300) return undefined;
  return createdId(response.body) ?? (create.method === 'POST' ? newestListedId(org, path) : undefined);
}

const sampleCreate: Factory = (ctx, collection) => createWithSample(ctx, collection);

/**
 * Routes no factory can reach, and why; each has its own test of other users and organizations.
 */
export const UNREACHABLE: Record<string, string> = {
  'POST /v1/users/{user_id}/callback_offers/{id}':
    'an offer exists only once the callback runner has contacted someone (my-offers.test.ts)',
  'GET /v1/forced_hires/{id}':
    'a forced hire needs a forced list, an open seat and an eligible member (forced-hires.test.ts reads it from B)',
};

export const FACTORIES: Record<string, Factory> = {
  '/v1/users': ({ org }) => org.createUser(),
  /** An event type nothing emits, so that no delivery changes A's data while the matrix runs. */
  '/v1/webhooks': async ({ org }) => {
    const response = await org.post('/webhooks', { url: 'https://example.com/hook', event_types: ['isolation.never'] });
    return response.status === 201 ? createdId(response.body) : undefined;
  },
  /** A user of its own, so that the rotation of the recurring-shift sample does not overlap it. */
  '/v1/shifts': async (ctx) => {
    const userId = await ctx.org.createUser();
    const id = await createWithSample(ctx, '/v1/shifts', { user_id: userId });
    if (id) ctx.ids.shiftUserId = userId;
    return id;
  },
  /** Trades the sample shift's time to a user who is free then. */
  '/v1/trades': async (ctx) => {
    if (!ctx.ids.shiftUserId) return undefined;
    const accepting = await ctx.org.createUser();
    return createWithSample(ctx, '/v1/trades', { requesting_user: ctx.ids.shiftUserId, accepting_user_id: accepting });
  },
  /** A shift of a user of its own (as the sample's), its trade offered to the path's user (who approves too). */
  '/v1/users/{user_id}/trade_offers': async (ctx) => {
    const owner = await ctx.org.createUser();
    const shiftId = await createWithSample(ctx, '/v1/shifts', { user_id: owner });
    if (!shiftId) return undefined;
    const shift = (await ctx.org.get(`/shifts/${shiftId}`)).body as { start: string; end: string };
    const response = await ctx.org.post('/trades', {
      requesting_user: owner,
      start: shift.start,
      end: shift.end,
      offered_user_ids: [ctx.ids.userId],
      approving_user_id: ctx.ids.userId,
    });
    return response.status === 201 ? createdId(response.body) : undefined;
  },
  /** `id` names the catalog entry: the sample's 1 is the first organization's. */
  '/v1/users/{user_id}/qualifiers': (ctx, collection) =>
    ctx.ids.qualifier_id ? createWithSample(ctx, collection, { id: ctx.ids.qualifier_id }) : Promise.resolve(undefined),
  '/v1/users/{user_id}/certifications': (ctx, collection) =>
    ctx.ids.certification_id
      ? createWithSample(ctx, collection, { id: ctx.ids.certification_id })
      : Promise.resolve(undefined),
  /** `id` is the partner's own user id, chosen by each organization: give each its own. */
  '/v1/partner/users': (ctx, collection) => createWithSample(ctx, collection, { id: 700_000 + ctx.org.orgId }),
  /** A device of its own: push endpoints are unique across organizations. */
  '/v1/users/{user_id}/push_subscriptions': async ({ org, ids }) => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const response = await org.post(`/users/${ids.userId}/push_subscriptions`, {
      endpoint: `https://push.example.com/isolation-${org.orgId}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    });
    return response.status === 201 ? createdId(response.body) : undefined;
  },
  '/v1/misc_hours': (ctx) => createWithSample(ctx, '/v1/misc_hours', { length: 2 }),
  /** Days of its own: a user's pending and approved time off may not overlap the /v1/time_offs sample's. */
  '/v1/users/{user_id}/time_offs': (ctx, collection) =>
    createWithSample(ctx, collection, { start_date: '2031-05-01 07:00:00', end_date: '2031-05-02 07:00:00' }),
  /** Exactly one subject: the sample would name both a user and an assignment. */
  '/v1/calendar_feeds': async ({ org, ids }) => {
    const response = await org.post('/calendar_feeds', { user_id: ids.userId, name: 'isolation' });
    return response.status === 201 ? createdId(response.body) : undefined;
  },
  /** One member, the organization's own time off type, a round that opens in the future. */
  '/v1/bid_rounds': (ctx) =>
    ctx.ids.time_off_type_id
      ? createWithSample(ctx, '/v1/bid_rounds', {
          time_off_type_ids: [ctx.ids.time_off_type_id],
          user_ids: [ctx.ids.userId],
          group_id: undefined,
          year: 2031,
          opens_at: '2031-01-05 08:00:00',
        })
      : Promise.resolve(undefined),
  /** A minimum is set on an assignment group, whose id the path names. */
  '/v1/group_minimums': async ({ org, ids }) => {
    const groupId = ids.assignment_group_id;
    if (!groupId) return undefined;
    const response = await org.put(`/group_minimums/${groupId}`, { min_on_duty: 2 });
    return response.status === 200 ? groupId : undefined;
  },
  '/v1/rotations': async ({ org }) => {
    const response = await org.post('/rotations', {
      name: 'Isolation rotation',
      anchor_date: '2026-03-02',
      pattern: [1, 1, 0, 0],
    });
    return response.status === 201 ? createdId(response.body) : undefined;
  },
};

/** The name a body uses to refer to a record of a family: `/v1/time_off_types` → `time_off_type_id`. */
export function referenceName(collection: string): string {
  const last =
    collection
      .split('/')
      .filter((s) => s && !s.startsWith('{'))
      .pop() ?? '';
  return `${last.replace(/ies$/, 'y').replace(/s$/, '')}_id`;
}

/**
 * Paths whose `{id}` names a record of another collection: aliases (`/titles/{id}` is
 * `/lists/{id}`, `/misc/{id}` is `/misc_hours/{id}`) and links between a record and a catalog
 * entry (`/shifts/{id}/labels/{labelId}` names a label).
 */
export const COLLECTION_ALIASES: Record<string, string> = {
  '/v1/titles': '/v1/lists',
  '/v1/misc': '/v1/misc_hours',
  '/v1/assignments/{id}/groups': '/v1/assignment_groups',
  '/v1/shifts/{id}/labels': '/v1/labels',
  '/v1/shifts/{id}/qualifiers': '/v1/qualifiers',
};

/** The collection path of every `{id}`-style parameter: `/v1/time_offs/{id}/approve` → `/v1/time_offs` for `id`. */
export function collectionsOf(path: string): Record<string, string> {
  const collections: Record<string, string> = {};
  const segments = path.split('/');
  segments.forEach((segment, index) => {
    const match = /^\{(.+)\}$/.exec(segment);
    const collection = segments.slice(0, index).join('/');
    if (match) collections[match[1]] = COLLECTION_ALIASES[collection] ?? collection;
  });
  return collections;
}

export interface CreatedRecords {
  ids: SampleIds;
  /** collection path → id of the record created there */
  records: Map<string, number>;
  failed: string[];
}

/** Creates one record of every family the route table has, in dependency order (a few passes). */
export async function createRecords(
  server: TestServer,
  org: TestOrg,
  operations: Operation[],
): Promise<CreatedRecords> {
  const ids: SampleIds = { userId: await org.createUser(), workTypeId: await firstWorkTypeId(server, org) };
  const records = new Map<string, number>([['/v1/users', ids.userId]]);
  const wanted = new Set<string>();
  for (const op of operations) {
    for (const [name, collection] of Object.entries(collectionsOf(op.path))) {
      if (name !== 'user_id' && name !== 'date') wanted.add(collection);
    }
  }
  const referenced = new Set(operations.flatMap((op) => Object.keys(op.body?.properties ?? {})));
  for (const op of operations) {
    // `/callbacks/{id}/users` records a response, not a user: users come from their factory
    if (
      op.method === 'POST' &&
      !op.path.endsWith('}') &&
      referenceName(op.path) !== 'user_id' &&
      referenced.has(referenceName(op.path))
    )
      wanted.add(op.path);
  }
  const ctx: FactoryContext = { server, org, ids, operations, records };
  for (let pass = 0; pass < 3; pass += 1) {
    for (const collection of wanted) {
      if (records.has(collection)) continue;
      const id = await (FACTORIES[collection] ?? sampleCreate)(ctx, collection).catch(() => undefined);
      if (id === undefined) continue;
      records.set(collection, id);
      ids[referenceName(collection)] ??= id;
    }
  }
  return { ids, records, failed: [...wanted].filter((c) => !records.has(c)) };
}
