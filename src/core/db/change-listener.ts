import pg from 'pg';

/**
 * What the triggers announce: tokens may have ended, or one organization changed (migration 0800);
 * a table the schedule's engine reads changed for one organization (migration 1000), naming the
 * user when it was a user's shifts or time off (migration 1120); an entry was appended to one
 * organization's log, which raises its data revision (migration 1801).
 */
export type ChangeNotice =
  | { kind: 'auth' }
  | { kind: 'organization' | 'log'; organizationId: number }
  | { kind: 'schedule'; organizationId: number; userId?: number };

export interface ChangeListenerEvents {
  /** A change was announced for this connection's schema. */
  onNotice(notice: ChangeNotice): void;
  /** The listening connection came up (true) or was lost (false): nothing heard while it was down. */
  onListening(listening: boolean): void;
}

const CHANNEL = 'crewplan_changes';
/** How the listening connection names itself in pg_stat_activity (with the configured schema, if any). */
export const listenerApplicationName = (schema: string | undefined) =>
  `crewplan change listener${schema ? ` ${schema}` : ''}`.slice(0, 63);
const RECONNECT_DELAY_MS = 1000;

/**
 * PostgreSQL: a connection of its own that LISTENs to `crewplan_changes` and passes on the notices
 * of its schema to every subscriber. It reconnects after a loss, and says so, so that whoever relies
 * on it can stop trusting what it kept while it could not hear.
 */
class ChangeListener {
  /** Who hears every notice and every loss (see {@link subscribeToChanges}). */
  readonly subscribers = new Set<ChangeListenerEvents>();
  /** The connection is up and listening. */
  listening = false;
  private client: pg.Client | undefined;
  private schema: string | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** The round trip asked for since the one on its way was sent: it goes out when that one is back. */
  private nextSync: { promise: Promise<boolean>; resolve: (heard: boolean) => void } | undefined;
  private syncing = false;

  constructor(private readonly clientConfig: pg.ClientConfig & { application_name: string }) {}

  start(): void {
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => undefined);
  }

  /**
   * Resolves true once every change committed before this call has been passed on: a round trip on
   * the listening connection sent after the call. PostgreSQL signals listeners before it
   * acknowledges a commit, and a listener's pending notices go out before its next ReadyForQuery, so
   * they are heard before the round trip's answer. An announcement travels on its own: without this
   * a request sent right after another process's commit could arrive first. Callers that ask
   * while one round trip is on its way share the next one. Resolves false when the connection is
   * down or lost meanwhile: nothing can be vouched for.
   */
  sync(): Promise<boolean> {
    if (!this.client) return Promise.resolve(false);
    if (this.nextSync) return this.nextSync.promise;
    let resolve!: (heard: boolean) => void;
    const promise = new Promise<boolean>((done) => (resolve = done));
    this.nextSync = { promise, resolve };
    if (!this.syncing) this.sendSync();
    return promise;
  }

  private sendSync(): void {
    const waiting = this.nextSync;
    const client = this.client;
    this.nextSync = undefined;
    if (!waiting) return;
    if (!client) {
      waiting.resolve(false);
      return;
    }
    this.syncing = true;
    client
      .query('')
      .then(
        () => waiting.resolve(this.client === client),
        () => waiting.resolve(false),
      )
      .finally(() => {
        this.syncing = false;
        this.sendSync();
      });
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(this.clientConfig);
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => this.heard(message.payload));
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      this.schema = rows[0]?.schema ?? 'public';
      await client.query(`listen ${CHANNEL}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.setListening(true);
    } catch {
      await client.end().catch(() => undefined);
      this.scheduleReconnect();
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.setListening(false);
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.retry = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS);
    this.retry.unref();
  }

  private setListening(listening: boolean): void {
    this.listening = listening;
    for (const subscriber of this.subscribers) subscriber.onListening(listening);
  }

  private heard(payload: string | undefined): void {
    const [schema, kind, id, userId] = (payload ?? '').split(' ');
    if (schema !== this.schema) return;
    let notice: ChangeNotice | undefined;
    if (kind === 'auth') notice = { kind: 'auth' };
    else if ((kind === 'organization' || kind === 'log') && id) notice = { kind, organizationId: Number(id) };
    else if (kind === 'schedule' && id)
      notice = { kind: 'schedule', organizationId: Number(id), ...(userId ? { userId: Number(userId) } : {}) };
    if (notice) for (const subscriber of this.subscribers) subscriber.onNotice(notice);
  }
}

/** A subscriber's hold on a process's shared listener (see {@link subscribeToChanges}). */
export interface ChangeSubscription {
  sync(): Promise<boolean>;
  close(): Promise<void>;
}

const listeners = new WeakMap<object, ChangeListener>();

/**
 * One listening connection per database handle, whoever needs the announcements (the token cache,
 * the schedule's computed days): each subscriber hears every notice and every loss. A subscriber
 * that comes while the connection is up is told so at once. The connection closes with its last
 * subscriber.
 */
export function subscribeToChanges(
  handle: { pgClientConfig?: pg.ClientConfig; pgSchema?: string },
  events: ChangeListenerEvents,
): ChangeSubscription {
  let listener = listeners.get(handle);
  if (!listener) {
    listener = new ChangeListener({
      ...handle.pgClientConfig,
      application_name: listenerApplicationName(handle.pgSchema),
    });
    listeners.set(handle, listener);
    listener.start();
  }
  const current = listener;
  current.subscribers.add(events);
  if (current.listening) events.onListening(true);
  return {
    sync: () => current.sync(),
    close: async () => {
      if (!current.subscribers.delete(events) || current.subscribers.size > 0) return;
      if (listeners.get(handle) === current) listeners.delete(handle);
      await current.close();
    },
  };
}
