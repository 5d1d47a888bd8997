import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { errorHandler } from './errors.js';
import { loggerOptions, requestLog } from './logging.js';

const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

/**
 * A Fastify app with the production logger options and the request line, its lines captured, and
 * a way to call it over HTTP (a raw request target when `raw` is set).
 */
async function loggedApp(level = 'info', trustProxy?: boolean) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const app = Fastify({ ...loggerOptions({ level, stream } as never), trustProxy });
  app.setErrorHandler(errorHandler);
  await app.register(requestLog);
  opened.push(app);
  const listen = async () => {
    if (!app.server.listening) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      lines.length = 0; // Fastify's "Server listening at" line
    }
    return (app.server.address() as { port: number }).port;
  };
  const call = async (url: string, headers: Record<string, string> = {}) => {
    const port = await listen();
    const response = await fetch(`http://127.0.0.1:${port}${url}`, { headers });
    await response.text();
    // the line follows the response's 'finish', which may come after the client has it all
    await new Promise((resolve) => setTimeout(resolve, 20));
    return response;
  };
  /** A request target sent as it is (fetch would percent-encode it). */
  const rawCall = async (target: string) => {
    const port = await listen();
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.end(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
      );
      socket.on('data', () => {});
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { app, lines, call, rawCall };
}

describe('the production logger options', () => {
  it('log one line per request without headers, and mask secrets in the URL', async () => {
    const { app, lines, call } = await loggedApp();
    app.get('/ping', async () => ({ ok: true }));
    await call('/ping?access_token=cpt_abcdefghijklmnopqrstuvwxyz&x=1', {
      authorization: 'Bearer cpt_abcdefghijklmnopqrstuvwxyz',
    });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      msg: 'request completed',
      reqId: 'req-1',
      method: 'GET',
      url: '/ping?access_token=[redacted]&x=1',
      statusCode: 200,
    });
    expect(line.responseTime).toBeTypeOf('number');
    expect(lines[0]).not.toContain('cpt_');
    expect(line.headers).toBeUndefined();
  });

  it('mask every secret that travels in a path: offer links, feeds, any crewplan secret format', async () => {
    const { app, lines, call } = await loggedApp();
    app.get('/offers/:token', async () => ({ ok: true }));
    app.get('/feeds/:token', async () => ({ ok: true }));
    app.get('/other/:token', async () => ({ ok: true }));
    const offer = 'cpo_Q1w2E3r4T5y6U7i8O9p0AaSsDdFfGg';
    await call(`/offers/${offer}?answer=accept`);
    await call('/feeds/plain-feed-token-without-prefix.ics');
    await call(`/other/${offer}`);
    expect(lines.map((l) => JSON.parse(l).url)).toEqual([
      '/offers/[redacted]?answer=accept',
      '/feeds/[redacted]',
      '/other/[redacted]',
    ]);
    const output = lines.join('');
    for (const secret of [offer, 'plain-feed-token']) expect(output).not.toContain(secret);
  });

  it('mask credential fields and secret-format text in a logged error', async () => {
    const { app, lines, call } = await loggedApp();
    app.get('/fail', async () => {
      throw Object.assign(new Error('rejected cps_abcdefghijklmnopqrstuvwxyz'), {
        client_secret: 'plain-secret-value',
        detail: { password: 'hunter2-hunter2' },
      });
    });
    expect((await call('/fail')).status).toBe(500);
    const output = lines.join('');
    expect(output).toContain('rejected [redacted]');
    for (const secret of ['cps_abcdefghijklmnopqrstuvwxyz', 'plain-secret-value', 'hunter2-hunter2'])
      expect(output).not.toContain(secret);
    const errored = lines.map((l) => JSON.parse(l)).find((l) => l.err);
    expect(errored.err).toMatchObject({
      type: 'Error',
      client_secret: '[redacted]',
      detail: { password: '[redacted]' },
    });
  });

  it("give handlers a request logger that carries the request id and keeps the logger's level", async () => {
    const { app, lines, call } = await loggedApp();
    app.get('/work', async (request) => {
      request.log.debug('not at info');
      request.log.info({ step: 1 }, 'working');
      request.log.child({ part: 'inner' }).warn('nested');
      return { ok: true };
    });
    await call('/work');
    await call('/work');
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.map((l) => l.msg)).toEqual([
      'working',
      'nested',
      'request completed',
      'working',
      'nested',
      'request completed',
    ]);
    expect(parsed.map((l) => l.reqId)).toEqual(['req-1', 'req-1', 'req-1', 'req-2', 'req-2', 'req-2']);
    expect(parsed[0]).toMatchObject({ step: 1, level: 30 });
    expect(parsed[1]).toMatchObject({ part: 'inner', level: 40 });
  });

  it('write the request line as the JSON pino would, whatever the URL holds', async () => {
    const { app, lines, call } = await loggedApp();
    app.get('/*', async () => ({ ok: true }));
    const urls = ['/plain/path', '/q?name=%22x%22&password=hunter2'];
    for (const url of urls) await call(url);
    expect(lines).toHaveLength(urls.length);
    const parsed = lines.map((l) => JSON.parse(l));
    for (const line of parsed) {
      expect(line).toMatchObject({
        level: 30,
        pid: process.pid,
        hostname: hostname(),
        method: 'GET',
        statusCode: 200,
        msg: 'request completed',
      });
      expect(line.time).toBeGreaterThan(Date.now() - 60_000);
      expect(line.reqId).toMatch(/^req-/);
      expect(line.responseTime).toBeTypeOf('number');
      expect(line.remoteAddress).toBe('127.0.0.1');
    }
    expect(parsed[0].url).toBe('/plain/path');
    expect(parsed[1].url).toBe('/q?name=%22x%22&password=[redacted]');
  });

  it('write a valid JSON line whatever a raw request target holds (quotes, backslashes, braces)', async () => {
    const { app, lines, rawCall } = await loggedApp();
    app.get('/*', async () => ({ ok: true }));
    const targets = ['/odd/"quote"/back\\slash', '/a{b}|c^`', '/x?password="p\\w"&q=1'];
    for (const target of targets) await rawCall(target);
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.map((l) => l.url)).toEqual([targets[0], targets[1], '/x?password=[redacted]&q=1']);
    expect(parsed.every((l) => l.statusCode === 200 && l.msg === 'request completed')).toBe(true);
  });

  it('log nothing per request above info', async () => {
    const { app, lines, call } = await loggedApp('warn');
    app.get('/ping', async () => ({ ok: true }));
    await call('/ping');
    expect(lines).toEqual([]);
  });

  it('name the client address as request.ip does: behind a trusted proxy, the forwarded one', async () => {
    const { app, lines, call } = await loggedApp('info', true);
    app.get('/ping', async (request) => ({ ip: request.ip }));
    const response = await call('/ping', { 'x-forwarded-for': '203.0.113.9' });
    expect(JSON.parse(lines[0]!)).toMatchObject({ remoteAddress: '203.0.113.9', statusCode: 200 });
    expect(response.status).toBe(200);
  });

  it('log a request answered before any route (404, bad URL), not those of an app without the options', async () => {
    const { app, lines, call } = await loggedApp();
    app.get('/ping', async () => ({ ok: true }));
    await call('/nowhere');
    const quiet = Fastify();
    opened.push(quiet);
    quiet.get('/ping', async () => ({ ok: true }));
    await quiet.listen({ port: 0, host: '127.0.0.1' });
    await fetch(`http://127.0.0.1:${(quiet.server.address() as { port: number }).port}/ping`).then((r) => r.text());
    await new Promise((resolve) => setTimeout(resolve, 20));
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
    expect(requestLines).toEqual([expect.objectContaining({ url: '/nowhere', statusCode: 404 })]);
  });
});

describe('the production destination', () => {
  it('writes every line to its file, the last ones when the process exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewplan-log-'));
    const file = join(dir, 'server.log');
    try {
      // a process that logs 2,000 lines and exits at once: pino's destination flushes on exit
      const logging = JSON.stringify(new URL('./logging.ts', import.meta.url).href);
      const script = [
        `import { openSync } from 'node:fs';`,
        `import Fastify from 'fastify';`,
        `import { loggerOptions, productionLogger } from ${logging};`,
        `const app = Fastify(loggerOptions(productionLogger('info', openSync(${JSON.stringify(file)}, 'a'))));`,
        `for (let i = 0; i < 2000; i++) app.log.info({ i }, 'line');`,
        `process.exit(0);`,
      ].join('\n');
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'pipe' });
      const written = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(written.map((l) => l.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
