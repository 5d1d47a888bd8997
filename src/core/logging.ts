import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import fp from 'fastify-plugin';
import pino from 'pino';
import { redactSecrets } from './audit.js';

const SECRET_QUERY_PARAMETER = /([?&](?:access_token|token|client_secret|secret|password)=)[^&]*/gi;
/**
 * Paths whose segment after the prefix is the only credential: a calendar feed (`/feeds/<token>.ics`)
 * and a callback offer link (`/offers/<token>`).
 */
const SECRET_PATH = /^(\/(?:feeds|offers)\/)[^/?#]+/;
/** A URL with secret query parameters, secret path segments and any text in a crewplan secret format masked. */
const maskUrl = (url: string) =>
  (redactSecrets(url) as string).replace(SECRET_QUERY_PARAMETER, '$1[redacted]').replace(SECRET_PATH, '$1[redacted]');

/** An error's own fields with anything that looks like a credential masked (as in the system log). */
function serializeError(error: Error): pino.SerializedError {
  const serialized = pino.stdSerializers.err(error);
  return serialized && typeof serialized === 'object'
    ? (redactSecrets({ ...serialized }) as pino.SerializedError)
    : serialized;
}

/**
 * Fastify's logger options for a logger (production or a test's), with secrets kept out of every
 * line: a logged request carries only the method, the URL (secret query parameters and the tokens
 * of feed and offer paths masked), host and address, never headers or a body; errors and messages go through the system
 * log's redaction (`redactSecrets`). Fastify's own per-request lines (incoming, completed) are left
 * out: {@link requestLog} writes one line per response instead.
 */
export function loggerOptions(logger: boolean | pino.LoggerOptions): Partial<FastifyServerOptions> {
  if (typeof logger !== 'object') return { logger };
  return {
    logger: {
      serializers: {
        req: (request: { method: string; url: string; host?: string; ip?: string }) => ({
          method: request.method,
          url: maskUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
        err: serializeError,
      },
      // a message built from an error's text (Fastify's own error lines) is masked like the error
      hooks: {
        logMethod(args: unknown[], method: (...args: unknown[]) => void) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? redactSecrets(arg) : arg)),
          );
        },
      },
      ...logger,
    },
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/**
 * The server's logger: JSON lines to stdout (or another open file descriptor) through pino's
 * asynchronous destination, which writes what is pending when the process exits.
 */
export function productionLogger(level: string, fd = 1): pino.LoggerOptions {
  return { level, stream: pino.destination({ dest: fd, sync: false }) } as pino.LoggerOptions;
}

/**
 * One line per request, written when its response has been sent: the request id (the request
 * logger's binding), method, URL (secrets masked), client address (`request.ip`: with
 * `TRUST_PROXY`, the forwarded one), status and time in milliseconds.
 */
export function logCompleted(request: FastifyRequest, reply: FastifyReply): void {
  // no line is built for a logger that would drop it: none (`logger: false`) or a level above info
  const log = request.log as FastifyRequest['log'] & { isLevelEnabled?: (level: string) => boolean };
  if (!log.isLevelEnabled?.('info')) return;
  log.info(
    {
      method: request.method,
      url: maskUrl(request.url),
      remoteAddress: request.ip,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    },
    'request completed',
  );
}

/** The request line for every route and the not-found handler registered after it (Fastify's `onResponse`). */
export const requestLog = fp(async (app: FastifyInstance) => {
  app.addHook('onResponse', (request, reply, done) => {
    logCompleted(request, reply);
    done();
  });
});
