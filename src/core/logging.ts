import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';

const SECRET_QUERY_PARAMETER = /([?&](?:access_token|token|client_secret|secret|password)=)[^&]*/gi;
/** The token of a calendar feed URL (`/feeds/<token>.ics`) is its only credential. */
const FEED_TOKEN_PATH = /^(\/feeds\/)[^/?]+/;

/** Logger options that keep secrets a client put in the query string or a body out of the log. */
export function withoutSecrets(logger: boolean | object): boolean | object {
  if (typeof logger !== 'object') return logger;
  return {
    redact: { paths: ['req.headers.authorization', '*.client_secret', '*.password', '*.access_token'], censor: '[redacted]' },
    serializers: {
      req: (request: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: request.method,
        url: request.url.replace(SECRET_QUERY_PARAMETER, '$1[redacted]').replace(FEED_TOKEN_PATH, '$1[redacted]'),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    ...logger,
  };
}

/** Log lines are written in batches of this many bytes, or at the latest after FLUSH_INTERVAL_MS. */
const LOG_BUFFER_BYTES = 8 * 1024;
const FLUSH_INTERVAL_MS = 500;

/**
 * The server's logger: JSON lines to stdout (or `destination`), buffered: a busy server makes one
 * write call per 16 KiB of lines instead of one per line, and a quiet one still shows each line
 * within half a second. Pending lines are flushed when the process exits; a SIGKILL can lose the
 * last half second of them (only log lines are buffered, never data).
 */
export function productionLogger(level: string, destination: number | string = 1): object {
  const stream = pino.destination({ dest: destination, sync: false, minLength: LOG_BUFFER_BYTES });
  const flusher = setInterval(() => {
    try {
      stream.flush();
    } catch {
      // not open yet, or closed: nothing to flush
    }
  }, FLUSH_INTERVAL_MS);
  flusher.unref();
  stream.on('close', () => clearInterval(flusher));
  return { level, stream };
}

/**
 * One log line per request instead of Fastify's two: nothing when it arrives, and when its response
 * is sent the method, URL (secrets redacted), status and time together. Fastify's other lines
 * (errors, 404s) stay as they are.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export function requestLogController(): LogController {
  return new OneLinePerRequest();
}
