import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookSettings } from '../../src/config.js';
import { createDatabase, type DatabaseHandle } from '../../src/core/db/index.js';
import type { Db } from '../../src/core/db/transaction.js';
import { WebhookTargets } from '../../src/resources/webhooks/targets.js';
import { WebhookWorker } from '../../src/resources/webhooks/worker.js';
import { startServer, type TestOrg, type TestServer, testDatabaseUrl } from '../helpers/server.js';

/**
 * Webhook workers sharing one database, as several server processes do: each outbox event reaches
 * the receiver once, whatever the order of commits, a worker stalled past its lease, or a failed write.
 */

const SETTINGS: WebhookSettings = {
  pollMs: 10,
  backoffBaseMs: 100,
  backoffMaxMs: 400,
  maxAttempts: 5,
  timeoutMs: 5000,
  discoveryMs: 0,
  leaseMs: 20_000,
  batchSize: 50,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback receiver counting each event id it is sent; `delayFor` may hold an answer back. */
class Receiver {
  readonly received = new Map<string, number>();
  delayFor: (eventId: string, count: number) => number = () => 2;
  private server: Server | undefined;

  async listen(): Promise<string> {
    this.server = createHttpServer((request, response) => {
      const eventId = String(request.headers['x-crewplan-event-id']);
      const count = (this.received.get(eventId) ?? 0) + 1;
      this.received.set(eventId, count);
      request.resume();
      request.on('end', () => setTimeout(() => response.writeHead(200).end(), this.delayFor(eventId, count)));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Waits until `count` events have arrived, then a while longer for a late duplicate. */
  async waitFor(count: number): Promise<void> {
    const deadline = Date.now() + 45_000;
    while (this.received.size < count && Date.now() < deadline) await sleep(50);
    await sleep(500);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** A Kysely plugin that hands each query's rows on after a random pause of up to `maxMs`. */
function slowAnswers(maxMs: number): KyselyPlugin {
  return {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      await sleep(Math.random() * maxMs);
      return args.result;
    },
  };
}

/** A Kysely plugin that fails the first `times` inserts into `table` before they reach the database. */
function failingInserts(table: string, times: number): KyselyPlugin & { failed: number } {
  const plugin = {
    failed: 0,
    transformQuery: (args: PluginTransformQueryArgs) => {
      const { node } = args;
      if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === table && plugin.failed < times) {
        plugin.failed += 1;
        throw new Error('the database is unavailable (injected)');
      }
      return node;
    },
    transformResult: async (args: PluginTransformResultArgs) => args.result,
  };
  return plugin;
}

let server: TestServer | undefined;
let receiver: Receiver | undefined;
const handles: DatabaseHandle[] = [];
const workers: WebhookWorker[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

/** A server with its worker, a receiver, an organization and its endpoint for every event. */
async function setUp(settings: WebhookSettings) {
  receiver = new Receiver();
  const url = await receiver.listen();
  server = await startServer({ webhookAllowedHosts: ['127.0.0.1'], webhooks: settings });
  const as = await server.newOrg();
  const endpoint = await as.post('/webhooks', { url, event_types: ['*'] });
  expect(endpoint.status, endpoint.text).toBe(201);
  return { as, endpointId: endpoint.body.id as number, receiver, server };
}

/** One more worker, as another process would run it: its own connection or pool. */
function extraWorker(settings: WebhookSettings, wrap: (db: Db) => Db = (db) => db): WebhookWorker {
  if (!server) throw new Error('set up first');
  // SQLite: another process waiting for the write lock would not stop this one, but a connection in
  // this process waits with the event loop blocked, so the lock's holder here could not go on until
  // the wait ran out (5 s: a delivery's timeout). It gives up at once instead and polls again.
  const handle = createDatabase({ ...server.config, sqliteBusyTimeoutMs: 0 });
  handles.push(handle);
  const worker = new WebhookWorker(
    wrap(handle.db),
    settings,
    new WebhookTargets(server.config),
    server.app.log,
    server.config.secretKey,
  );
  workers.push(worker);
  return worker;
}

async function announce(as: TestOrg, count: number, label: string): Promise<void> {
  const created = await Promise.all(
    Array.from({ length: count }, (_, i) => as.post('/announcements', { body: `<p>${label} ${i}</p>` })),
  );
  expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
}

/** The endpoint's delivery log: event id → states of its attempts. */
async function deliveryLog(as: TestOrg, endpointId: number): Promise<Map<string, string[]>> {
  const log = await as.get(`/webhooks/${endpointId}/deliveries`, { query: { limit: 200 } });
  expect(log.status, log.text).toBe(200);
  const byEvent = new Map<string, string[]>();
  for (const row of (log.body as Array<{ event_id: string; state: string }>).reverse())
    byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), row.state]);
  return byEvent;
}

const countsOf = (received: Map<string, number>) => [...received.values()].sort();

describe('webhook workers on one database', () => {
  it('sends each outbox event once while four workers, each on its own connection, poll one endpoint', async () => {
    // small batches: the endpoint is claimed and handed back many times
    const settings = { ...SETTINGS, batchSize: 1 };
    const { as, endpointId, receiver } = await setUp(settings);
    // each extra worker slowed (a busy process): up to 40 ms between a query's answer and the next step
    const extra = Array.from({ length: 3 }, () => extraWorker(settings, (db) => db.withPlugin(slowAnswers(40))));
    await Promise.all(extra.map((worker) => worker.start()));
    const EVENTS = 60;
    await announce(as, EVENTS, 'race');
    await receiver.waitFor(EVENTS);
    expect(receiver.received.size).toBe(EVENTS);
    expect(countsOf(receiver.received)).toEqual(Array(EVENTS).fill(1));
    const log = await deliveryLog(as, endpointId);
    expect([...log.values()]).toEqual(Array(EVENTS).fill(['delivered']));
  }, 150_000);

  // PostgreSQL only: on SQLite a transaction that has written holds the one write lock, so no later
  // event can commit before it (and a second connection in this process would wait on the lock
  // with the event loop blocked)
  it.skipIf(!testDatabaseUrl)(
    'sends an event whose transaction commits after later events once, without losing it',
    async () => {
      const { as, receiver } = await setUp(SETTINGS);
      const other = createDatabase(server!.config);
      handles.push(other);
      const heldId = randomUUID();
      let announced: Promise<void> | undefined;
      // another process's transaction writes its event first and commits 1.5 s later; meanwhile
      // five events are created and committed (on SQLite they wait for its write lock)
      await other.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('outbox_event')
          .values({ organization_id: as.orgId, event_id: heldId, type: 'test.held', payload: '{}', created_at: '' })
          .execute();
        announced = announce(as, 5, 'after the held one');
        await sleep(1500);
      });
      await announced;
      await receiver.waitFor(6);
      expect(receiver.received.get(heldId)).toBe(1);
      expect(countsOf(receiver.received)).toEqual([1, 1, 1, 1, 1, 1]);
    },
    60_000,
  );

  it('a worker that stalled past its lease does not move the endpoint back: later events go out once', async () => {
    // a short lease and a long attempt timeout: an attempt can outlast the lease of the worker making it
    const settings = { ...SETTINGS, leaseMs: 600 };
    const { as, endpointId, receiver } = await setUp(settings);
    await extraWorker(settings).start();
    // the first event's first attempt is answered after 2 s: its worker's lease has run out by then,
    // and the other worker has sent it again and gone on with the next events
    let first: string | undefined;
    receiver.delayFor = (eventId, count) => {
      first ??= eventId;
      return eventId === first && count === 1 ? 2000 : 2;
    };
    for (const label of ['one', 'two', 'three']) await announce(as, 1, label);
    await receiver.waitFor(3);
    // the stalled worker's answer arrives; had it saved its place, the next events would go out again
    await sleep(2500);
    expect(receiver.received.get(first as string)).toBe(2);
    expect(countsOf(receiver.received)).toEqual([1, 1, 2]);
    const log = await deliveryLog(as, endpointId);
    expect(log.get(first as string)).toEqual(['delivered', 'delivered']);
    expect([...log.values()].filter((states) => states.length === 1)).toHaveLength(2);
  }, 60_000);

  it('a delivery whose record fails to be written is recorded later, not sent again', async () => {
    const { as, endpointId, receiver } = await setUp(SETTINGS);
    // only the extra worker delivers; its first two records of a delivery fail
    await server!.app.workers.webhooks.stop();
    const failing = failingInserts('webhook_delivery', 2);
    await extraWorker(SETTINGS, (db) => db.withPlugin(failing)).start();
    await announce(as, 3, 'recorded');
    await receiver.waitFor(3);
    expect(failing.failed).toBe(2);
    expect(countsOf(receiver.received)).toEqual([1, 1, 1]);
    const log = await deliveryLog(as, endpointId);
    expect([...log.values()]).toEqual([['delivered'], ['delivered'], ['delivered']]);
  }, 60_000);
});
