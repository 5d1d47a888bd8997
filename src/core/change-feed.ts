import type { Statement } from 'better-sqlite3';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { subscribeToChanges, type ChangeSubscription } from './db/change-listener.js';
import type { DatabaseHandle } from './db/index.js';
import { addRouteHook, CHANGE_METHODS, takesAnyOf } from './route-hooks.js';

/**
 * Tells whoever watches an organization that something of it changed (GET /v1/changes, the web
 * app's live board). It carries no data: watchers read again through the routes, which apply what
 * the reader may see. Fed by the announcements the server already has:
 *
 * - every successful change request of this process (any table), as its response leaves;
 * - PostgreSQL: the change listener's notices (migrations 0800 and 1000): an organization's revision
 *   raised after any process's change request, and every write to a table the scheduling engine
 *   reads, whoever wrote (the callback runner, the CLI, another server). A listener that was down
 *   and is back announces every watched organization: what it missed is unknown.
 * - SQLite: the organization's count of writes to the engine's tables (`schedule_change`, migration
 *   1100, kept by triggers whichever connection wrote), read every POLL_MS while anyone watches.
 *
 * Announcements of one organization that come close together reach a watcher once (COALESCE_MS).
 */
const POLL_MS = 500;
const COALESCE_MS = 100;

type Watcher = () => void;
interface Watching {
  changed: Watcher;
  /** ends the watcher's stream (the server closes, or {@link ChangeFeed.disconnectAll}) */
  end: () => void;
}

export class ChangeFeed {
  private readonly watchers = new Map<number, Set<Watching>>();
  private readonly pending = new Map<number, NodeJS.Timeout>();
  private subscription: ChangeSubscription | undefined;
  private poller: NodeJS.Timeout | undefined;
  private counts = new Map<number, number>();
  private countOf: Statement | undefined;
  private heardBefore = false;

  constructor(private readonly handle: DatabaseHandle) {}

  /**
   * Calls `changed` after each change of the organization, `end` when the server lets go of its
   * watchers; returns the function that stops watching.
   */
  watch(organizationId: number, changed: Watcher, end: () => void): () => void {
    const set = this.watchers.get(organizationId) ?? new Set<Watching>();
    const watcher = { changed, end };
    set.add(watcher);
    this.watchers.set(organizationId, set);
    this.start();
    return () => {
      set.delete(watcher);
      if (set.size === 0 && this.watchers.get(organizationId) === set) this.watchers.delete(organizationId);
      if (this.watchers.size === 0) void this.stop();
    };
  }

  /** Something of the organization changed: its watchers hear of it shortly. */
  announce(organizationId: number): void {
    if (!this.watchers.has(organizationId) || this.pending.has(organizationId)) return;
    const timer = setTimeout(() => {
      this.pending.delete(organizationId);
      for (const watcher of this.watchers.get(organizationId) ?? []) watcher.changed();
    }, COALESCE_MS);
    timer.unref();
    this.pending.set(organizationId, timer);
  }

  /** Ends every watcher's stream (they reconnect; the server closing does this first). */
  disconnectAll(): void {
    for (const set of [...this.watchers.values()]) for (const watcher of [...set]) watcher.end();
  }

  async close(): Promise<void> {
    this.disconnectAll();
    this.watchers.clear();
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await this.stop();
  }

  private start(): void {
    if (this.handle.dialect === 'postgres') {
      this.subscription ??= subscribeToChanges(this.handle, {
        onNotice: (notice) => {
          // a log entry alone is no change a watcher reloads for (as on SQLite, whose feed counts schedule changes)
          if (notice.kind !== 'auth' && notice.kind !== 'log') this.announce(notice.organizationId);
        },
        onListening: (listening) => {
          if (listening && this.heardBefore) for (const id of this.watchers.keys()) this.announce(id);
          this.heardBefore ||= listening;
        },
      });
    } else if (!this.poller && this.handle.sqlite) {
      this.countOf ??= this.handle.sqlite
        .prepare('select changes from schedule_change where organization_id = ?')
        .pluck();
      this.poller = setInterval(() => this.poll(), POLL_MS);
      this.poller.unref();
    }
  }

  private poll(): void {
    for (const id of this.watchers.keys()) {
      const count = Number(this.countOf?.get(id) ?? 0);
      const before = this.counts.get(id);
      this.counts.set(id, count);
      if (before !== undefined && before !== count) this.announce(id);
    }
    for (const id of this.counts.keys()) if (!this.watchers.has(id)) this.counts.delete(id);
  }

  private async stop(): Promise<void> {
    clearInterval(this.poller);
    this.poller = undefined;
    this.counts.clear();
    const subscription = this.subscription;
    this.subscription = undefined;
    this.heardBefore = false;
    await subscription?.close();
  }
}

/**
 * `app.changeFeed`, and every successful change request (on /v1, where `request.auth` is set)
 * announces its organization. Streams still open when the server closes are ended first (see GET
 * /v1/changes).
 */
async function changeFeedPlugin(app: FastifyInstance, { handle }: { handle: DatabaseHandle }) {
  const feed = new ChangeFeed(handle);
  app.decorate('changeFeed', feed);
  addRouteHook(app, 'onResponse', takesAnyOf(CHANGE_METHODS), async (request: FastifyRequest, reply: FastifyReply) => {
    if (CHANGE_METHODS.has(request.method) && request.auth && reply.statusCode < 400) feed.announce(request.auth.orgId);
  });
  app.addHook('preClose', async () => feed.close());
}

declare module 'fastify' {
  interface FastifyInstance {
    changeFeed: ChangeFeed;
  }
}

export default fp(changeFeedPlugin, { name: 'crewplan-change-feed' });
