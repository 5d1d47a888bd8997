import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import type { Db } from '../../core/db/transaction.js';
import { nowUtc, Temporal } from '../../core/time.js';
import {
  anyActiveEndpoint,
  claimEndpoint,
  dueEndpoints,
  insertDelivery,
  type OutboxCursor,
  pendingEvents,
  saveProgress,
  sealClearSecrets,
} from './repository.js';
import { backoffDelayMs, type WebhookSettings } from './settings.js';
import {
  ATTEMPT_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  matchesEventType,
  openWebhookSecret,
  signPayload,
  SIGNATURE_HEADER,
  storedWebhookSecret,
  TIMESTAMP_HEADER,
} from './signature.js';
import type { WebhookDeliveryTable, WebhookEndpointRow } from './table.js';
import { RefusedTargetError, type WebhookTargets } from './targets.js';

const MAX_ENDPOINTS_PER_TICK = 20;
const MAX_ERROR_LENGTH = 500;

const instantPlus = (utc: string, ms: number) =>
  Temporal.Instant.from(utc).add({ milliseconds: ms }).toString({ fractionalSecondDigits: 3 });

interface PendingEvent {
  id: number;
  tx_id: number;
  event_id: string;
  type: string;
  payload: string;
}

/** A worker's place on the endpoint it holds, and the retry in progress. */
interface Progress {
  cursor: OutboxCursor;
  failures: number;
  nextAttemptAt: string | null;
}

const progressColumns = ({ cursor, failures, nextAttemptAt }: Progress) => ({
  cursor_tx_id: cursor.txId,
  cursor_event_id: cursor.id,
  failed_attempts: failures,
  next_attempt_at: nextAttemptAt,
});

/** The endpoint handed back: free for the next poll of any worker. */
const handBack = (progress: Progress) => ({ ...progressColumns(progress), lease_until: null });

interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Delivers the outbox to webhook endpoints. Per endpoint, events go out one at a time in outbox
 * order; a failed event is retried with exponential backoff before any later event is sent, so a
 * receiver sees every event, in order of creation, however long it was down (up to maxAttempts).
 * It runs beside the requests and never inside one: a slow or dead receiver cannot delay an API call.
 * While no endpoint exists it runs no queries (apart from a rare discovery check).
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private active = false;
  private stopped = true;
  private lastDiscovery = 0;
  /** Endpoints being served by this process; a slow receiver holds only its own endpoint. */
  private readonly busy = new Map<number, Promise<void>>();
  /** Aborts deliveries in flight when the server closes, so shutdown does not wait for a slow receiver. */
  private shutdown = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly settings: WebhookSettings,
    private readonly targets: WebhookTargets,
    private readonly log: FastifyBaseLogger,
    /** The server key the endpoints' secrets are sealed with. */
    private readonly serverKey: Buffer,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    if (this.shutdown.signal.aborted) this.shutdown = new AbortController();
    await sealClearSecrets(this.db, (secret) => storedWebhookSecret(this.serverKey, secret));
    this.active = await anyActiveEndpoint(this.db);
    this.lastDiscovery = Date.now();
    this.schedule(this.settings.pollMs);
  }

  /** Called when an endpoint is created in this process: start polling now. */
  wake(): void {
    this.active = true;
    if (!this.stopped && !this.running) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.shutdown.abort();
    await this.running;
    await Promise.all([...this.busy.values()]);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((error: unknown) => this.log.error({ err: error }, 'webhook worker tick failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.settings.pollMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.active) {
      const { discoveryMs } = this.settings;
      if (discoveryMs === 0 || Date.now() - this.lastDiscovery < discoveryMs) return;
      this.lastDiscovery = Date.now();
      this.active = await anyActiveEndpoint(this.db);
      if (!this.active) return;
    }
    const now = nowUtc();
    const endpoints = await dueEndpoints(this.db, now, MAX_ENDPOINTS_PER_TICK);
    for (const endpoint of endpoints) {
      if (this.busy.has(endpoint.id)) continue;
      const job = this.serveEndpoint(endpoint, now)
        .catch((error: unknown) => this.log.error({ err: error, endpointId: endpoint.id }, 'webhook delivery failed'))
        .finally(() => this.busy.delete(endpoint.id));
      this.busy.set(endpoint.id, job);
    }
  }

  private async serveEndpoint(due: WebhookEndpointRow, now: string): Promise<void> {
    const until = instantPlus(now, this.settings.leaseMs);
    // the cursor is the claimed row's: another worker may have moved it since `due` was read
    const endpoint = await claimEndpoint(this.db, due, now, until);
    if (!endpoint) return;
    const progress: Progress = {
      cursor: { txId: endpoint.cursor_tx_id, id: endpoint.cursor_event_id },
      failures: endpoint.failed_attempts,
      nextAttemptAt: null,
    };
    // Hand the endpoint back well before the lease ends, so that no other process can take it meanwhile.
    const handBackAt = Date.now() + this.settings.leaseMs / 2 - this.settings.timeoutMs;
    const leaseEnd = Date.parse(until);
    let held = true;
    try {
      const { organization_id: orgId } = endpoint;
      const events = await pendingEvents(this.db, orgId, progress.cursor, this.settings.batchSize);
      const patterns = JSON.parse(endpoint.event_types) as string[];
      for (const event of events) {
        if (this.stopped || (event !== events[0] && Date.now() > handBackAt)) break;
        const place = { txId: event.tx_id, id: event.id };
        if (!matchesEventType(patterns, event.type)) {
          progress.cursor = place;
          continue;
        }
        const delivery = await this.attempt(endpoint, event, progress.failures + 1);
        if (!delivery) break;
        const done = delivery.state !== 'failed';
        progress.cursor = done ? place : progress.cursor;
        progress.failures = done ? 0 : delivery.attempt;
        progress.nextAttemptAt = done ? null : instantPlus(nowUtc(), backoffDelayMs(this.settings, delivery.attempt));
        // the endpoint's new place first, then the attempt's record: one statement each, so that no
        // write lock is held across a pause (SQLite); a crash between them loses a log row, never sends twice
        held = await this.persist(leaseEnd, () => saveProgress(this.db, endpoint, progressColumns(progress)));
        await this.persist(leaseEnd, () => insertDelivery(this.db, delivery));
        if (!held || !done) break;
      }
    } finally {
      if (held) await this.persist(leaseEnd, () => saveProgress(this.db, endpoint, handBack(progress)));
    }
  }

  /**
   * Saves the worker's progress, again after a pause when the write fails (a busy or briefly
   * unreachable database), while the lease lasts: a delivery whose record were lost would be sent
   * again by the next worker. A stopping worker tries once.
   */
  private async persist<T>(leaseEnd: number, write: () => Promise<T>): Promise<T> {
    for (let pause = 50; ; pause = Math.min(2 * pause, 2000)) {
      try {
        return await write();
      } catch (error) {
        if (this.stopped || Date.now() + pause >= leaseEnd - this.settings.timeoutMs) throw error;
        this.log.warn({ err: error }, 'webhook progress not saved; trying again');
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /** One attempt at an event, as its delivery row; undefined when the worker stopped meanwhile. */
  private async attempt(
    endpoint: WebhookEndpointRow,
    event: PendingEvent,
    attempt: number,
  ): Promise<Insertable<WebhookDeliveryTable> | undefined> {
    const result = await this.post(endpoint, event, attempt);
    if (this.stopped && !result.ok) return undefined;
    const abandoned = !result.ok && attempt >= this.settings.maxAttempts;
    return {
      organization_id: endpoint.organization_id,
      endpoint_id: endpoint.id,
      outbox_event_id: event.id,
      event_id: event.event_id,
      event_type: event.type,
      attempt,
      state: result.ok ? 'delivered' : abandoned ? 'abandoned' : 'failed',
      response_status: result.status,
      error: result.error,
      duration_ms: result.durationMs,
      created_at: nowUtc(),
    };
  }

  private async post(endpoint: WebhookEndpointRow, event: PendingEvent, attempt: number): Promise<AttemptResult> {
    const timestamp = Math.floor(Date.now() / 1000);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(endpoint.url);
    const refusal = this.targets.refuseLiteral(url);
    if (refusal)
      return {
        ok: false,
        status: null,
        error: `refused: ${refusal}; webhooks only reach public addresses`,
        durationMs: elapsed(),
      };
    const secret = openWebhookSecret(this.serverKey, endpoint);
    if (secret === undefined)
      return {
        ok: false,
        status: null,
        error: 'the signing secret does not open with this server key: register the endpoint again',
        durationMs: elapsed(),
      };
    try {
      const status = await send(url, {
        lookup: this.targets.lookupFor(url.hostname),
        signal: AbortSignal.any([AbortSignal.timeout(this.settings.timeoutMs), this.shutdown.signal]),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'crewplan-webhooks/1',
          [EVENT_ID_HEADER]: event.event_id,
          [EVENT_TYPE_HEADER]: event.type,
          [ATTEMPT_HEADER]: String(attempt),
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signPayload(secret, timestamp, event.payload),
        },
        body: event.payload,
      });
      const ok = status >= 200 && status < 300;
      // a redirect is not followed: it could lead to an address the checks would refuse
      const error = ok
        ? null
        : status >= 300 && status < 400
          ? `HTTP ${status}: redirects are not followed`
          : `HTTP ${status}`;
      return { ok, status, error, durationMs: elapsed() };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      const code = (error as { code?: string }).code;
      const message =
        error instanceof RefusedTargetError
          ? `refused: ${text}`
          : code && !text.includes(code)
            ? `${text}: ${code}`
            : text;
      return { ok: false, status: null, error: message.slice(0, MAX_ERROR_LENGTH), durationMs: elapsed() };
    }
  }
}

interface SendOptions {
  lookup: LookupFunction;
  signal: AbortSignal;
  headers: Record<string, string>;
  body: string;
}

/** One POST through node:http(s), connecting only to the address `lookup` hands over; the status code. */
function send(url: URL, { lookup, signal, headers, body }: SendOptions): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        signal,
        agent: false,
      },
      (response) => {
        // the status is all a delivery needs; the body is not read
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
