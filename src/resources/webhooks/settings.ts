/**
 * Worker settings, read from the environment once when the plugin loads (config.ts is shared;
 * see docs/webhooks.md for the variables).
 */
export interface WebhookSettings {
  /** Poll interval of the outbox while endpoints exist. */
  pollMs: number;
  /** First retry delay; doubled on each further failure. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Attempts at one event before it is abandoned and the endpoint moves on. */
  maxAttempts: number;
  timeoutMs: number;
  /** Events younger than this wait, so that a transaction committing late cannot be overtaken (PostgreSQL). */
  settleMs: number;
  /** How often an idle process looks for endpoints created by another process; 0 = never. */
  discoveryMs: number;
  leaseMs: number;
  batchSize: number;
}

function intFrom(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function loadWebhookSettings(env: Record<string, string | undefined> = process.env): WebhookSettings {
  const timeoutMs = Math.max(100, intFrom(env, 'WEBHOOK_TIMEOUT_MS', 10_000));
  return {
    pollMs: Math.max(10, intFrom(env, 'WEBHOOK_POLL_MS', 1000)),
    backoffBaseMs: intFrom(env, 'WEBHOOK_BACKOFF_BASE_MS', 5000),
    backoffMaxMs: intFrom(env, 'WEBHOOK_BACKOFF_MAX_MS', 3_600_000),
    maxAttempts: Math.max(1, intFrom(env, 'WEBHOOK_MAX_ATTEMPTS', 15)),
    timeoutMs,
    settleMs: intFrom(env, 'WEBHOOK_SETTLE_MS', 1000),
    discoveryMs: intFrom(env, 'WEBHOOK_DISCOVERY_MS', 60_000),
    // A lease must outlast at least one attempt with room to spare.
    leaseMs: Math.max(4 * timeoutMs, intFrom(env, 'WEBHOOK_LEASE_MS', 60_000)),
    batchSize: Math.max(1, intFrom(env, 'WEBHOOK_BATCH_SIZE', 50)),
  };
}

/** Delay before attempt n+1 after n consecutive failures: base·2^(n-1), capped. */
export function backoffDelayMs(settings: Pick<WebhookSettings, 'backoffBaseMs' | 'backoffMaxMs'>, failures: number): number {
  return Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** Math.max(0, failures - 1));
}
