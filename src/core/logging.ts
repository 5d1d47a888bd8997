import { subscribe } from 'node:diagnostics_channel';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { hostname } from 'node:os';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { redactSecrets } from './audit.js';

const SECRET_QUERY_PARAMETER = /([?&](?:access_token|token|client_secret|secret|password)=)[^&]*/gi;
/** The token of a calendar feed URL (`/feeds/<token>.ics`) is its only credential. */
const FEED_TOKEN_PATH = /^(\/feeds\/)[^/?]+/;
const maskUrl = (url: string) =>
  url.includes('?') || url.startsWith('/feeds/') ? url.replace(SECRET_QUERY_PARAMETER, '$1[redacted]').replace(FEED_TOKEN_PATH, '$1[redacted]') : url;

/** An error's own fields with anything that looks like a credential masked (key names and secret formats, as in the system log). */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  return serialized && typeof serialized === 'object' ? redactSecrets({ ...serialized }) : serialized;
}

/**
 * Logger options that keep secrets out of the log. A logged request (error lines) carries only the
 * method, the URL (secret query parameters and feed tokens redacted), host and address: never
 * headers or a body.
 * Errors go through the system log's redaction (`redactSecrets`). (pino's path redaction would do the same for
 * every line, at about half the cost of writing the line: docs/decisions.md, "Request logging".)
 */
function withoutSecrets(logger: boolean | object): boolean | object {
  if (typeof logger !== 'object') return logger;
  return {
    serializers: {
      req: (request: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: request.method,
        url: maskUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      err: serializeError,
    },
    // a message built from an error's text (Fastify's own error lines) is masked like the error
    hooks: {
      logMethod(args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactSecrets(arg) : arg)));
      },
    },
    ...logger,
  };
}

/** Log lines are written in batches of this many bytes, or at the latest after FLUSH_INTERVAL_MS. */
const LOG_BUFFER_BYTES = 4 * 1024;
const FLUSH_INTERVAL_MS = 500;

/**
 * Where the production logger writes: lines gathered in a string and written synchronously to a
 * file descriptor once they fill LOG_BUFFER_BYTES, at the latest every FLUSH_INTERVAL_MS, and when
 * the process exits. pino writes its lines here, and so does the request line, which is formatted
 * by hand (docs/decisions.md, "Request logging"). A SIGKILL can lose the last half second of log
 * lines (never data).
 */
export class LineBuffer {
  private pending = '';
  private readonly fd: number;
  private readonly ownsFd: boolean;
  private readonly flusher: NodeJS.Timeout;
  private readonly flushOnExit = () => this.flushSync();

  constructor(destination: number | string) {
    this.ownsFd = typeof destination === 'string';
    this.fd = typeof destination === 'string' ? openSync(destination, 'a') : destination;
    this.flusher = setInterval(() => this.flushSync(), FLUSH_INTERVAL_MS);
    this.flusher.unref();
    process.once('exit', this.flushOnExit);
  }

  write(line: string): boolean {
    this.pending += line;
    if (this.pending.length >= LOG_BUFFER_BYTES) this.flushSync();
    return true;
  }

  flushSync(): void {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    try {
      writeSync(this.fd, text);
    } catch {
      // the log's destination is gone (a closed pipe): the lines are dropped, the server goes on
    }
  }

  /** pino's logger.flush() */
  flush(callback?: (error?: Error) => void): void {
    this.flushSync();
    callback?.();
  }

  end(): void {
    this.flushSync();
    clearInterval(this.flusher);
    process.removeListener('exit', this.flushOnExit);
    if (this.ownsFd) closeSync(this.fd);
  }
}

/** The server's logger: JSON lines to stdout (or `destination`), buffered (see {@link LineBuffer}). */
export function productionLogger(level: string, destination: number | string = 1): { level: string; stream: LineBuffer } {
  return { level, stream: new LineBuffer(destination) };
}

/** Text that JSON.stringify would change: quotes, backslashes, control characters, lone surrogates. */
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;
const jsonString = (text: string) => (NEEDS_ESCAPING.test(text) ? JSON.stringify(text) : `"${text}"`);

/** What pino puts before a line's own fields (its default `base`: pid and hostname). */
const LINE_PREFIX_FIELDS = `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
const INFO = 30;

/** Fastify's `trustProxy` setting, which decides the address a request line names. */
export type TrustProxySetting = boolean | string | string[] | ((address: string, hop: number) => boolean);

/** The client address Fastify's `request.ip` gives for the same setting. */
function addressReader(trustProxy: TrustProxySetting | undefined): (request: IncomingMessage) => string | undefined {
  if (!trustProxy) return (request) => request.socket?.remoteAddress;
  const trust =
    typeof trustProxy === 'function'
      ? trustProxy
      : trustProxy === true
        ? () => true
        : proxyAddr.compile(typeof trustProxy === 'string' ? trustProxy.split(',').map((entry) => entry.trim()) : trustProxy);
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1];
  };
}

const LOG = Symbol('crewplan.requestLog');
const STARTED = Symbol('crewplan.requestStarted');
const ID = Symbol('crewplan.requestId');

/** A request that a logged Fastify instance took: where its line goes, when it started, its id. */
interface LoggedRequest extends IncomingMessage {
  [LOG]?: RequestLine;
  [STARTED]?: number;
  [ID]?: string;
}

/**
 * One log line per request, written when its response has been sent: the request id, method, URL
 * (secrets redacted), address, status and time. Fastify's own per-request logging put a `finish`
 * listener on every response and called a log controller from it (measured: 12–17% of a bare
 * route's throughput before any line was written). Node's HTTP server already listens for that
 * moment and announces it on the `http.server.response.finish` diagnostics channel, so the line is
 * written from there: each request carries its writer, its start and its id, set when Fastify asks
 * for the request id (docs/decisions.md, "Request logging"). The line has the fields pino would
 * write for them, formatted here and written straight to the logger's stream; without a stream of
 * its own (pino's default destination) it goes through pino.
 */
class RequestLine {
  private readonly addressOf: (request: IncomingMessage) => string | undefined;

  constructor(
    private readonly log: pino.Logger,
    private readonly stream: { write(line: string): unknown } | undefined,
    trustProxy: TrustProxySetting | undefined,
  ) {
    this.addressOf = addressReader(trustProxy);
  }

  write(request: LoggedRequest, response: ServerResponse): void {
    if (!this.log.isLevelEnabled('info')) return;
    const fields: RequestLineFields = {
      reqId: request[ID] ?? '',
      method: request.method ?? '',
      url: maskUrl(request.url ?? ''),
      remoteAddress: this.addressOf(request),
      statusCode: response.statusCode,
      responseTime: Math.round((performance.now() - request[STARTED]!) * 1000) / 1000,
    };
    if (this.stream) this.stream.write(formatRequestLine(fields));
    else this.log.info(fields, 'request completed');
  }
}

export interface RequestLineFields {
  reqId: string;
  method: string;
  /** secrets already masked */
  url: string;
  remoteAddress: string | undefined;
  statusCode: number;
  responseTime: number;
}

/** The JSON line pino would write for the fields at info, with its time, pid and hostname. */
export function formatRequestLine(fields: RequestLineFields): string {
  const { reqId, method, url, remoteAddress, statusCode, responseTime } = fields;
  return (
    `{"level":${INFO},"time":${Date.now()},${LINE_PREFIX_FIELDS},"reqId":${jsonString(reqId)},` +
    `"method":${jsonString(method)},"url":${jsonString(url)},` +
    `${remoteAddress === undefined ? '' : `"remoteAddress":${jsonString(remoteAddress)},`}"statusCode":${statusCode},` +
    `"responseTime":${responseTime},"msg":"request completed"}\n`
  );
}

let listening = false;
/** One subscriber for the process: each finished response whose request carries a writer is logged. */
function listenForFinishedResponses(): void {
  if (listening) return;
  listening = true;
  subscribe('http.server.response.finish', (message) => {
    const { request, response } = message as { request: LoggedRequest; response: ServerResponse };
    request[LOG]?.write(request, response);
  });
}

/**
 * Fastify's own per-request lines left out: the request line says it all, once. Fastify still calls
 * requestCompleted where a route has onResponse hooks; a response that failed is logged there.
 */
class WithoutIncomingLine extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error && !this.isLogDisabled(request)) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    }
  }
}

/**
 * `request.log` without a pino child per request: making a child (its `reqId` binding serialized)
 * cost more than the request line itself. The child is made when the request first writes a line at
 * an enabled level; until then this stands in for it (methods on the prototype: no closures per request).
 */
class LazyRequestLogger {
  private made: pino.Logger | undefined;

  constructor(
    private readonly parent: pino.Logger,
    private readonly childBindings: pino.Bindings,
    private readonly childOptions: pino.ChildLoggerOptions,
  ) {}

  private real(): pino.Logger {
    return (this.made ??= this.parent.child(this.childBindings, this.childOptions));
  }

  private write(level: pino.Level, args: unknown[]): void {
    if (this.made || this.parent.isLevelEnabled(level)) (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]) { this.write('fatal', args); }
  error(...args: unknown[]) { this.write('error', args); }
  warn(...args: unknown[]) { this.write('warn', args); }
  info(...args: unknown[]) { this.write('info', args); }
  debug(...args: unknown[]) { this.write('debug', args); }
  trace(...args: unknown[]) { this.write('trace', args); }
  silent() {}
  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions) { return this.real().child(bindings, options); }
  bindings() { return this.real().bindings(); }
  isLevelEnabled(level: string) { return this.made ? this.made.isLevelEnabled(level) : this.parent.isLevelEnabled(level); }
  get level() { return this.made ? this.made.level : this.parent.level; }
  set level(level: string) { this.real().level = level; }
}

function lazyChildLogger(logger: pino.Logger, bindings: pino.Bindings, options: pino.ChildLoggerOptions): unknown {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings, options);
}

/**
 * Fastify's logging options for a logger (production or a test's): secrets kept out, one line per
 * request. Fastify itself runs without a logger (so it sets no per-response listener); handlers,
 * hooks and Fastify's error lines log through `request.log`, made from this logger; give the
 * instance `log` as its `app.log` once it is made.
 */
export function requestLogging(logger: boolean | object, trustProxy?: TrustProxySetting) {
  if (typeof logger !== 'object') return { options: { logger }, log: undefined };
  const { stream, ...options } = withoutSecrets(logger) as { stream?: pino.DestinationStream & { write(line: string): unknown } } & pino.LoggerOptions;
  // as Fastify makes its logger: its reply serializer, then ours
  const log = pino({ ...options, serializers: { res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }), ...options.serializers } }, stream);
  const line = new RequestLine(log, stream, trustProxy);
  listenForFinishedResponses();
  let lastId = 0;
  const fastifyOptions = {
    logger: false as const,
    logController: new WithoutIncomingLine(),
    genReqId: (request: LoggedRequest) => {
      const id = `req-${(lastId += 1).toString(36)}`;
      request[LOG] = line;
      request[STARTED] = performance.now();
      request[ID] = id;
      return id;
    },
    childLoggerFactory: ((_fastifysNullLogger: unknown, bindings: pino.Bindings, childOptions: pino.ChildLoggerOptions) =>
      lazyChildLogger(log, bindings, childOptions)) as never,
  };
  return { options: fastifyOptions, log };
}
