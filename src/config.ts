import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP, type LookupFunction } from 'node:net';
import { dirname, resolve } from 'node:path';

export type SqliteSynchronous = 'FULL' | 'NORMAL';

export interface Config {
  port: number;
  host: string;
  /** postgres://… selects PostgreSQL; anything else (or unset) is SQLite. */
  databaseUrl: string | undefined;
  /** SQLite database file (used when databaseUrl is not a postgres URL). */
  sqlitePath: string;
  sqliteSynchronous: SqliteSynchronous;
  /**
   * How long a SQLite write waits for another connection's lock. The server answers 409 past it; the CLI
   * waits longer (a command run by hand should not fail because the server was busy).
   */
  sqliteBusyTimeoutMs: number;
  /** PostgreSQL schema to use (tests give each run its own). */
  pgSchema: string | undefined;
  pgPoolSize: number;
  /** Key for the keyed hashes (HMAC) of client secrets and access tokens. */
  secretKey: Buffer;
  /** Lifetime of an OAuth access token (TOKEN_TTL_SECONDS: 60 or more, default one hour). */
  tokenTtlSeconds: number;
  /** Web app cookies always Secure with the __Host-/__Secure- prefix (SESSION_COOKIE_SECURE), not only over https. */
  sessionCookieSecure: boolean;
  bodyLimitBytes: number;
  uploadLimitBytes: number;
  requestTimeoutMs: number;
  /** Base URL used in hrefs and pagination links; derived from the request when unset. */
  publicBaseUrl: string | undefined;
  logLevel: string;
  /** Requests per minute per credential on /v1 (0 disables). */
  rateLimitPerMinute: number;
  /** Requests per minute per client address on the token endpoint (0 disables). */
  tokenRateLimitPerMinute: number;
  /**
   * Requests per minute per client address on the routes without a bearer token: offer links,
   * inbound SMS and calendar feeds (counted in the database, shared by every process), and the web
   * app, docs and health routes (counted in each process). 0 disables.
   */
  publicRateLimitPerMinute: number;
  /** Directory for uploaded files. */
  dataDir: string;
  /** Bearer token that GET /metrics requires; unset = no /metrics route. */
  metricsToken: string | undefined;
  /** Which proxies' X-Forwarded-For to believe (Fastify's trustProxy); false: the socket address only. */
  trustProxy: TrustProxy;
  /** Memory for computed GET /schedule, /time_offs and /users responses, in bytes (0 disables the cache). */
  responseCacheBytes: number;
  /** How often the callback runner advances active callbacks, in milliseconds (0: not in this process). */
  callbackRunnerPollMs: number;
  /** Webhooks may reach private, loopback and link-local addresses (single-tenant installs). */
  webhookAllowPrivate: boolean;
  /** Webhook hosts let through despite the address check: host names, addresses or CIDRs. */
  webhookAllowedHosts: string[];
  /** Mail server of ready alerts and callback offers. */
  smtp: SmtpSettings;
  /** The webhook delivery worker. */
  webhooks: WebhookSettings;
  /** Web Push of callback offers (VAPID); off without a subject. */
  push: PushSettings;
  /** The callback runner's SMS provider (docs/workflows.md, "Channels"). */
  sms: SmsSettings;
  /** How webhook hosts are resolved (dns.lookup unless given; tests pass a stub). Not read from the environment. */
  webhookLookup?: LookupFunction;
}

/** `false`, `true` (every hop), a hop count, or the proxies' addresses/CIDRs. */
export type TrustProxy = boolean | number | string[];

/**
 * Fastify's `trustProxy` option for the setting. A hop count becomes proxy-addr's rule (trust the
 * n nearest hops) as a function: Fastify 5.12 ignores a bare number (it trusts nothing then).
 */
export function trustProxyOption(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}

type Env = Record<string, string | undefined>;

function intFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** proxy-addr's names for address ranges, accepted besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
}

function trustProxyFrom(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isProxyAddress(entry));
  if (invalid.length > 0) {
    throw new Error(
      `TRUST_PROXY must be true, false, a hop count or addresses/CIDRs separated by commas; not: ${invalid.join(', ')}`,
    );
  }
  return entries;
}

function booleanFrom(env: Env, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

/** Host names (any case), addresses and CIDRs separated by commas. */
function webhookHostsFrom(env: Env): string[] {
  const entries = (env.WEBHOOK_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  const invalid = entries.filter((entry) => entry.includes('/') && !isProxyAddress(entry));
  if (invalid.length > 0)
    throw new Error(
      `WEBHOOK_ALLOWED_HOSTS must list host names, addresses or CIDRs separated by commas; not: ${invalid.join(', ')}`,
    );
  return entries;
}

/** Access tokens live an hour unless TOKEN_TTL_SECONDS says otherwise; under a minute is a mistake. */
function tokenTtlFrom(env: Env): number {
  const seconds = intFrom(env, 'TOKEN_TTL_SECONDS', 3600);
  if (seconds < 60) throw new Error(`TOKEN_TTL_SECONDS must be 60 or more, got "${env.TOKEN_TTL_SECONDS}"`);
  return seconds;
}

function loadSecretKey(env: Env, dataDir: string): Buffer {
  if (env.CREWPLAN_SECRET_KEY) return Buffer.from(env.CREWPLAN_SECRET_KEY, 'utf8');
  const keyFile = resolve(dataDir, 'secret.key');
  if (!existsSync(keyFile)) {
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
    writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'utf8');
}

/** The webhook worker's settings (docs/webhooks.md). */
export interface WebhookSettings {
  /** Poll interval of the outbox while endpoints exist. */
  pollMs: number;
  /** First retry delay; doubled on each further failure. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Attempts at one event before it is abandoned and the endpoint moves on. */
  maxAttempts: number;
  timeoutMs: number;
  /** How often an idle process looks for endpoints created by another process; 0 = never. */
  discoveryMs: number;
  leaseMs: number;
  batchSize: number;
}

/**
 * SMTP settings, read from the environment when a plugin loads (the variables are listed in
 * docs/communication.md). Without SMTP_HOST no e-mail is sent: callers record that the channel is off.
 */
export interface SmtpSettings {
  host: string | undefined;
  port: number;
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

function smtpFrom(env: Env): SmtpSettings {
  const secure = /^(1|true|yes)$/i.test(env.SMTP_SECURE ?? '');
  const port = Number(env.SMTP_PORT || (secure ? 465 : 587));
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`SMTP_PORT must be a port number, got "${env.SMTP_PORT}"`);
  return {
    host: env.SMTP_HOST || undefined,
    port,
    secure,
    user: env.SMTP_USER || undefined,
    password: env.SMTP_PASSWORD || undefined,
    from: env.SMTP_FROM || 'crewplan <no-reply@crewplan.invalid>',
  };
}

/**
 * Web Push (VAPID) of callback offers to the installed board (docs/workflows.md). Without
 * VAPID_SUBJECT the push channel is off; with it and without a key pair, one pair is generated and
 * stored in the database once per installation.
 */
export interface PushSettings {
  /** `mailto:` or `https:` contact the push services may use. */
  subject: string | undefined;
  publicKey: string | undefined;
  privateKey: string | undefined;
}

function pushFrom(env: Env): PushSettings {
  const subject = env.VAPID_SUBJECT || undefined;
  if (subject && !/^(mailto:|https:)/.test(subject))
    throw new Error(`VAPID_SUBJECT must be a mailto: or https: URL, got "${subject}"`);
  const publicKey = env.VAPID_PUBLIC_KEY || undefined;
  const privateKey = env.VAPID_PRIVATE_KEY || undefined;
  if (!publicKey !== !privateKey) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together');
  return { subject, publicKey, privateKey };
}

/**
 * The SMS provider of callback offers (docs/workflows.md, "Channels"): `twilio` (Twilio's Messages
 * API, form body `To`/`From`/`Body`, basic auth with the account SID and auth token) or `generic`
 * (POST to SMS_URL, JSON or form body `to`/`from`/`text`, bearer SMS_AUTH_TOKEN). Off until the
 * provider's settings are complete: `url` undefined then.
 */
export interface SmsSettings {
  provider: 'twilio' | 'generic';
  url: string | undefined;
  accountSid: string | undefined;
  authToken: string | undefined;
  from: string | undefined;
  /**
   * An organization's own sender number (SMS_FROM_BY_ORGANIZATION, `12=+15005550007,13=+1…`): its
   * texts go out from it and replies to it can answer only that organization's offers.
   */
  fromByOrganization: Record<number, string>;
  bodyFormat: 'json' | 'form';
  /** generic provider: the HMAC key its inbound replies are signed with (X-Crewplan-Signature) */
  inboundSecret: string | undefined;
  /** country (ISO 3166 alpha-2) of phone numbers written without a country code */
  defaultCountry: string;
  timeoutMs: number;
}

function smsFrom(env: Env): SmsSettings {
  const provider = (env.SMS_PROVIDER || 'generic').toLowerCase();
  if (provider !== 'twilio' && provider !== 'generic') throw new Error('SMS_PROVIDER must be twilio or generic');
  const bodyFormat = (env.SMS_BODY_FORMAT || 'json').toLowerCase();
  if (bodyFormat !== 'json' && bodyFormat !== 'form') throw new Error('SMS_BODY_FORMAT must be json or form');
  const accountSid = env.SMS_ACCOUNT_SID || undefined;
  const authToken = env.SMS_AUTH_TOKEN || undefined;
  const from = env.SMS_FROM || undefined;
  const fromByOrganization: Record<number, string> = {};
  for (const entry of (env.SMS_FROM_BY_ORGANIZATION ?? '').split(',').filter((e) => e.trim())) {
    const match = /^\s*(\d+)\s*=\s*(\+\d{6,15})\s*$/.exec(entry);
    if (!match)
      throw new Error('SMS_FROM_BY_ORGANIZATION must list organization id=+E.164 number pairs, comma-separated');
    fromByOrganization[Number(match[1])] = match[2]!;
  }
  const twilioUrl = accountSid
    ? `https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`
    : undefined;
  const complete = provider === 'twilio' ? !!(accountSid && authToken && from) : !!(env.SMS_URL && from);
  return {
    provider,
    url: complete ? env.SMS_URL || twilioUrl : undefined,
    accountSid,
    authToken,
    from,
    fromByOrganization,
    bodyFormat,
    inboundSecret: env.SMS_INBOUND_SECRET || undefined,
    defaultCountry: (env.SMS_DEFAULT_COUNTRY || 'US').toUpperCase(),
    timeoutMs: Math.max(100, intFrom(env, 'SMS_TIMEOUT_MS', 10_000)),
  };
}

function webhookSettingsFrom(env: Env): WebhookSettings {
  const timeoutMs = Math.max(100, intFrom(env, 'WEBHOOK_TIMEOUT_MS', 10_000));
  return {
    pollMs: Math.max(10, intFrom(env, 'WEBHOOK_POLL_MS', 1000)),
    backoffBaseMs: intFrom(env, 'WEBHOOK_BACKOFF_BASE_MS', 5000),
    backoffMaxMs: intFrom(env, 'WEBHOOK_BACKOFF_MAX_MS', 3_600_000),
    maxAttempts: Math.max(1, intFrom(env, 'WEBHOOK_MAX_ATTEMPTS', 15)),
    timeoutMs,
    discoveryMs: intFrom(env, 'WEBHOOK_DISCOVERY_MS', 60_000),
    // A lease must outlast at least one attempt with room to spare.
    leaseMs: Math.max(4 * timeoutMs, intFrom(env, 'WEBHOOK_LEASE_MS', 60_000)),
    batchSize: Math.max(1, intFrom(env, 'WEBHOOK_BATCH_SIZE', 50)),
  };
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const { dataDir, databaseUrl, sqlitePath } = storageFrom(env);
  const synchronous = (env.SQLITE_SYNCHRONOUS ?? 'FULL').toUpperCase();
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') throw new Error('SQLITE_SYNCHRONOUS must be FULL or NORMAL');
  const config: Config = {
    port: intFrom(env, 'PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    sqlitePath,
    sqliteSynchronous: synchronous,
    sqliteBusyTimeoutMs: 5000,
    pgSchema: env.DATABASE_SCHEMA || undefined,
    pgPoolSize: intFrom(env, 'DATABASE_POOL_SIZE', 10),
    secretKey: overrides.secretKey ?? loadSecretKey(env, dataDir),
    tokenTtlSeconds: tokenTtlFrom(env),
    sessionCookieSecure: booleanFrom(env, 'SESSION_COOKIE_SECURE', false),
    bodyLimitBytes: intFrom(env, 'BODY_LIMIT_BYTES', 1_048_576),
    uploadLimitBytes: intFrom(env, 'UPLOAD_LIMIT_BYTES', 10_485_760),
    requestTimeoutMs: intFrom(env, 'REQUEST_TIMEOUT_MS', 30_000),
    publicBaseUrl: env.PUBLIC_BASE_URL?.replace(/\/+$/, '') || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimitPerMinute: intFrom(env, 'RATE_LIMIT_PER_MINUTE', 6_000),
    tokenRateLimitPerMinute: intFrom(env, 'TOKEN_RATE_LIMIT_PER_MINUTE', 600),
    publicRateLimitPerMinute: intFrom(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE', 300),
    dataDir,
    metricsToken: env.METRICS_TOKEN || undefined,
    responseCacheBytes: intFrom(env, 'RESPONSE_CACHE_MB', 64) * 1024 * 1024,
    trustProxy: trustProxyFrom(env),
    callbackRunnerPollMs: intFrom(env, 'CALLBACK_RUNNER_POLL_MS', 15_000),
    webhookAllowPrivate: booleanFrom(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookAllowedHosts: webhookHostsFrom(env),
    smtp: smtpFrom(env),
    webhooks: webhookSettingsFrom(env),
    push: pushFrom(env),
    sms: smsFrom(env),
    ...overrides,
  };
  return Object.freeze(config);
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/**
 * The data directory when CREWPLAN_DATA_DIR is unset, in the working directory: npm runs `npm start` and
 * `npm run cli` in the project's folder, so both find it there.
 */
export const DEFAULT_DATA_DIR = './data';

/** The forms DATABASE_URL takes, for the message that refuses any other. */
export const DATABASE_URL_FORMS =
  'a path to a SQLite file (ending in .sqlite, .sqlite3 or .db), sqlite:PATH, file:PATH, or ' +
  'postgres://USER:PASSWORD@HOST:PORT/DATABASE (postgresql:// too)';

const SQLITE_FILE_NAME = /\.(sqlite3?|db3?)$/i;

/** Where the data live, as DATABASE_URL and CREWPLAN_DATA_DIR say (the server and the CLI read them alike). */
export interface Storage {
  dataDir: string;
  /** DATABASE_URL as given (undefined: the SQLite file in the data directory). */
  databaseUrl: string | undefined;
  /** The SQLite file (unused with PostgreSQL). */
  sqlitePath: string;
}

/** A URL with its password (and a `password` parameter) masked, for logs and messages. */
export function maskPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password && !parsed.searchParams.has('password')) return url;
    if (parsed.password) parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.href;
  } catch {
    return url;
  }
}

function refusedDatabaseUrl(raw: string): Error {
  return new Error(`DATABASE_URL "${maskPassword(raw)}" is not a form crewplan reads: use ${DATABASE_URL_FORMS}.`);
}

/**
 * The data directory and the database, from CREWPLAN_DATA_DIR and DATABASE_URL. DATABASE_URL takes only the
 * documented forms: anything else (a typo'd scheme, a path that names no SQLite file) is refused rather than
 * read as a file name, so that a typo never creates an empty database.
 */
export function storageFrom(env: Env = process.env): Storage {
  const dataDir = resolve(env.CREWPLAN_DATA_DIR || DEFAULT_DATA_DIR);
  const defaultPath = resolve(dataDir, 'crewplan.sqlite');
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return { dataDir, databaseUrl: undefined, sqlitePath: defaultPath };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1];
  if (scheme === 'postgres' || scheme === 'postgresql') {
    if (!URL.canParse(raw) || !raw.startsWith(`${scheme}://`) || !new URL(raw).hostname) throw refusedDatabaseUrl(raw);
    return { dataDir, databaseUrl: raw, sqlitePath: defaultPath };
  }
  if (scheme === 'sqlite' || scheme === 'file') {
    const path = raw.slice(scheme.length + 1).replace(/^\/\/(localhost(?=\/))?/, '');
    if (path === '' || path.endsWith('/')) throw refusedDatabaseUrl(raw);
    return { dataDir, databaseUrl: raw, sqlitePath: resolve(path) };
  }
  if (scheme !== undefined || !SQLITE_FILE_NAME.test(raw)) {
    const path = resolve(raw);
    if (scheme === undefined && existsSync(path) && statSync(path).isDirectory())
      throw new Error(
        `DATABASE_URL names a directory, ${path}: name a SQLite file in it, e.g. ${resolve(path, 'crewplan.sqlite')}.`,
      );
    throw refusedDatabaseUrl(raw);
  }
  return { dataDir, databaseUrl: raw, sqlitePath: resolve(raw) };
}

/** Whether the secret key is the data directory's file (CREWPLAN_SECRET_KEY unset): the directory is needed then. */
export function secretKeyIsFile(env: Env = process.env): boolean {
  return !env.CREWPLAN_SECRET_KEY;
}

/** Whether the environment says where the server is reached (PUBLIC_BASE_URL, PORT or HOST). */
export function addressConfigured(env: Env = process.env): boolean {
  return !!(env.PUBLIC_BASE_URL || env.PORT || env.HOST);
}

/** LOG_LEVEL, for a start-up that failed before the configuration was read. */
export function logLevelFrom(env: Env = process.env): string {
  return env.LOG_LEVEL ?? 'info';
}
