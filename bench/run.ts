/**
 * `npm run bench`: seeds the bench organization (src/cli/seed-bench.ts), starts the real server in
 * a child process (bench/server.ts) and measures each case with autocannon beside its floor (the
 * same response bytes from a bare Fastify route). SQLite always; PostgreSQL too when
 * BENCH_DATABASE_URL is set (a fresh schema bench_<timestamp>, dropped afterwards).
 *
 *   npm run bench [-- --duration 4 --connections 10 --engines sqlite,postgres --out bench/results.json]
 *   npm run bench -- --only auth_cost,users_id   (a subset of cases, written to bench/.tmp-results.json)
 *   BENCH_CPU_PROF=dir writes the server's CPU profiles; BENCH_NODE_FLAGS adds node flags to the server's;
 *   BENCH_LOG_SQL=1 prints each statement the server runs on stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { BENCH_DEFAULTS, seedBench, type BenchSeedResult } from '../src/cli/seed-bench.js';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/core/db/index.js';
import { migrateToLatest } from '../src/core/db/migrator.js';
import { Temporal } from '../src/core/time.js';
import { evaluateTargets, printCase, type CaseResult, type EngineResult, type Measure } from './report.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    engines: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
  },
});
/**
 * Case names to run (reads by name; auth_cost, logging_cost, post_shifts, post_token, scale, callback_offers);
 * all when unset.
 */
const ONLY = args.only ? new Set(args.only.split(',')) : undefined;
const wanted = (name: string) => !ONLY || ONLY.has(name);
const OUT = args.out ?? (ONLY ? 'bench/.tmp-results.json' : 'bench/results.json');
const DURATION = Number(args.duration);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const PG_URL = process.env.BENCH_DATABASE_URL;
const ENGINES = (args.engines ?? (PG_URL ? 'sqlite,postgres' : 'sqlite')).split(',') as Array<'sqlite' | 'postgres'>;
const SECRET = 'bench-secret-key';
const STAMP = Date.now();
const TMP = join('bench', '.tmp', `run-${STAMP}`);

interface ServerPorts {
  port: number;
  floorPort?: number;
  loggedFloorPort?: number;
}
interface Target {
  env: Record<string, string>;
}

/** The environment without the BENCH_ settings (each target sets its own) but BENCH_LOG_SQL. */
function inheritedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^BENCH_(?!LOG_SQL$)|^DATABASE_/.test(name)),
  );
}

function startServer(
  target: Target,
  extra: Record<string, string> = {},
): Promise<{ child: ChildProcess; ports: ServerPorts }> {
  // BENCH_CPU_PROF=dir: each server process writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  // The same V8 flags as `npm start` (package.json; docs/decisions/0002-v8-heap-settings.md); BENCH_NODE_FLAGS adds others.
  const v8Flags = ['--max-semi-space-size=32', `--max-old-space-size=${process.env.CREWPLAN_HEAP_MB ?? 320}`];
  const extraFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...profile, ...v8Flags, ...extraFlags, '--import', 'tsx', 'bench/server.ts'], {
    env: { ...inheritedEnv(), ...target.env, ...extra, BENCH_SECRET_KEY: SECRET, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n')) resolve({ child, ports: JSON.parse(line!) as ServerPorts });
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

type Request = { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
type Load = {
  url: string;
  requests?: Array<Request & { setupRequest?: (req: any) => any }>;
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
};

async function load(options: Load): Promise<autocannon.Result> {
  return autocannon({ connections: CONNECTIONS, ...options, duration: options.duration ?? DURATION });
}

type Run = (warmUpSeconds?: number) => Promise<autocannon.Result & { cpuPerRequest?: number }>;
const WARM_UP_SECONDS = 1;

/**
 * Measures two loads in rounds, ROUNDS times each, and keeps each one's mean and the ratio a/b of
 * every round. The order alternates (a b, b a, a b…) so that drift within a round favours neither
 * side. The case's ratio is the median of the rounds' ratios: this machine's speed moves by more than
 * the overheads measured (the same bare route served 2,300 to 24,000 req/s within one hour), and a
 * ratio taken within a round, median over rounds, is not moved by a round the machine slowed for
 * both sides or by one burst that hit one side only. Each load first runs for a second unrecorded,
 * so that neither side is measured while V8 compiles it.
 */
async function paired(a: Run, b: Run, between: () => Promise<void> = async () => {}, rounds = ROUNDS) {
  await a(WARM_UP_SECONDS);
  await between();
  await b(WARM_UP_SECONDS);
  await between();
  const [as, bs]: [autocannon.Result[], autocannon.Result[]] = [[], []];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    for (const run of order) {
      (run === a ? as : bs).push(await run());
      await between();
    }
  }
  const [am, bm] = [as.map(summarize), bs.map(summarize)];
  const ratios = am.map((m, i) => round(m.rps / bm[i]!.rps));
  return { a: merge(am), b: merge(bm), ratio: median(ratios), ratios };
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2);
}

function merge(runs: Measure[]): Measure {
  const mean = (pick: (m: Measure) => number) =>
    Math.round((runs.reduce((sum, m) => sum + pick(m), 0) / runs.length) * 10) / 10;
  const cpu = runs.every((m) => m.cpu_us_per_request !== undefined)
    ? { cpu_us_per_request: mean((m) => m.cpu_us_per_request!) }
    : {};
  return {
    ...cpu,
    rps: Math.round(mean((m) => m.rps)),
    p50_ms: mean((m) => m.p50_ms),
    p97_5_ms: Math.max(...runs.map((m) => m.p97_5_ms)),
    p99_ms: Math.max(...runs.map((m) => m.p99_ms)),
    non2xx: runs.reduce((sum, m) => sum + m.non2xx, 0),
    bytes_per_response: runs[0]!.bytes_per_response,
  };
}

function summarize(result: autocannon.Result & { cpuPerRequest?: number }): Measure {
  const latency = result.latency as unknown as Record<string, number>;
  return {
    ...(result.cpuPerRequest !== undefined ? { cpu_us_per_request: result.cpuPerRequest } : {}),
    rps: Math.round(result.requests.average),
    p50_ms: latency.p50!,
    p97_5_ms: latency.p97_5!,
    p99_ms: latency.p99!,
    non2xx: result.non2xx + result.errors + result.timeouts,
    bytes_per_response: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

async function control<T>(ports: ServerPorts, method: string, path: string, body?: Buffer, type?: string): Promise<T> {
  const response = await fetch(
    `http://127.0.0.1:${ports.floorPort}${path}${type ? `?type=${encodeURIComponent(type)}` : ''}`,
    {
      method,
      body,
      headers: body ? { 'content-type': 'application/octet-stream' } : {},
    },
  );
  return (await response.json()) as T;
}

async function getToken(ports: ServerPorts, seed: BenchSeedResult): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${ports.port}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: seed.client_id,
      client_secret: seed.client_secret,
    }).toString(),
  });
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

/**
 * Reads alternate with their floor in twice the rounds, each half as long: the same time, and a
 * median of four ratios instead of the mean of two. One read's rounds ranged from 0.31× to 0.68× of
 * its floor within a minute (docs/performance.md).
 */
const READ_ROUNDS = ROUNDS * 2;

/** How many times the floor's server CPU a request took. */
const cpuRatio = (a: Measure, b: Measure) =>
  a.cpu_us_per_request && b.cpu_us_per_request ? round(a.cpu_us_per_request / b.cpu_us_per_request) : undefined;

/**
 * A read measured beside its floor; statements counted over one request. `floorRoute`
 * `floor-synced` (PostgreSQL): a floor that makes the listening connection's round trip too.
 */
async function readCase(
  ports: ServerPorts,
  token: string,
  name: string,
  path: string,
  floorRoute: 'floor' | 'floor-synced' = 'floor',
): Promise<CaseResult> {
  const auth = { authorization: `Bearer ${token}` };
  await drain(ports);
  const before = await control<{ queries: number }>(ports, 'GET', '/control/stats');
  const began = performance.now();
  const response = await fetch(`http://127.0.0.1:${ports.port}${path}`, { headers: auth });
  const body = Buffer.from(await response.arrayBuffer());
  const singleMs = Math.round(performance.now() - began);
  const after = await control<{ queries: number }>(ports, 'GET', '/control/stats');
  if (response.status !== 200)
    throw new Error(`${name}: ${path} answered ${response.status}: ${body.toString().slice(0, 300)}`);
  await control(
    ports,
    'PUT',
    `/control/payload/${name}`,
    body,
    response.headers.get('content-type') ?? 'application/json',
  );
  // Responses of megabytes take seconds each: fewer connections for longer, or none would complete.
  // Others: twice the rounds at half the length (READ_ROUNDS).
  const heavy = body.length > 2_000_000;
  const shape = heavy ? { connections: 2, duration: Math.max(DURATION, 10) } : { duration: DURATION / 2 };
  await drain(ports);
  await control(ports, 'POST', '/control/reset-rss');
  const {
    a: api,
    b: floor,
    ratio,
    ratios,
  } = await paired(
    (warmUp) =>
      withCpu(ports, {
        url: `http://127.0.0.1:${ports.port}${path}`,
        headers: auth,
        ...shape,
        ...(warmUp ? { duration: warmUp } : {}),
      }),
    (warmUp) =>
      withCpu(ports, {
        url: `http://127.0.0.1:${ports.floorPort}/${floorRoute}/${name}`,
        ...shape,
        ...(warmUp ? { duration: warmUp } : {}),
      }),
    () => drain(ports),
    heavy ? ROUNDS : READ_ROUNDS,
  );
  const { maxRss } = await control<{ maxRss: number }>(ports, 'GET', '/control/stats');
  const result: CaseResult = {
    name,
    path,
    response_bytes: body.length,
    statements: after.queries - before.queries,
    api,
    floor,
    ratio,
    round_ratios: ratios,
    cpu_ratio: cpuRatio(api, floor),
    single_request_ms: singleMs,
    max_rss_mb: Math.round(maxRss / 1048576),
  };
  printCase(result);
  return result;
}

const AFTER_WRITE_READS = Number(process.env.BENCH_AFTER_WRITE_READS ?? 15);

/**
 * What a busy department feels: a read of the schedule right after a write inside its period,
 * when nothing is cached. Each round makes one write inside the period (a day note: the engine's
 * computed days stay; a shift's change: they are computed again), then times one read; the median
 * and the slowest are kept.
 */
/** A write before each read: what it does, and the write itself (the round's number given). */
interface BenchWrite {
  label: string;
  run(round: number): Promise<Response>;
}

async function readAfterWriteCase(
  ports: ServerPorts,
  token: string,
  name: string,
  path: string,
  write: BenchWrite,
): Promise<CaseResult> {
  const headers = { authorization: `Bearer ${token}` };
  const url = `http://127.0.0.1:${ports.port}`;
  const times: number[] = [];
  // the server's CPU time per read (µs) and its statements: steadier than wall time on a shared machine
  const cpus: number[] = [];
  let statements = 0;
  let bytes = 0;
  await drain(ports);
  for (let i = 0; i < AFTER_WRITE_READS; i += 1) {
    const written = await write.run(i);
    if (written.status >= 300)
      throw new Error(`${name}: ${write.label} answered ${written.status}: ${(await written.text()).slice(0, 300)}`);
    await written.arrayBuffer();
    const before = await control<{ cpuMicros: number; queries: number }>(ports, 'GET', '/control/stats');
    const began = performance.now();
    const response = await fetch(`${url}${path}`, { headers });
    const body = Buffer.from(await response.arrayBuffer());
    times.push(performance.now() - began);
    const after = await control<{ cpuMicros: number; queries: number }>(ports, 'GET', '/control/stats');
    cpus.push(after.cpuMicros - before.cpuMicros);
    statements = after.queries - before.queries;
    if (response.status !== 200) throw new Error(`${name}: ${path} answered ${response.status}`);
    bytes = body.length;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
  const slowest = Math.round(sorted[sorted.length - 1]! * 10) / 10;
  const api = {
    rps: Math.round((1000 / median) * 10) / 10,
    p50_ms: median,
    p97_5_ms: slowest,
    p99_ms: slowest,
    non2xx: 0,
    bytes_per_response: bytes,
    cpu_us_per_request: [...cpus].sort((a, b) => a - b)[Math.floor(cpus.length / 2)],
  };
  const result: CaseResult = {
    name,
    path: `${write.label}, then GET ${path}`,
    response_bytes: bytes,
    statements,
    api,
  };
  printCase(result);
  return result;
}

/**
 * The log target compares two API pages, not a page and its floor: they are measured against each
 * other, alternately in rounds like a case and its floor, so that the server's drift between the
 * two read cases (run a minute apart) does not count as a difference between the pages. Rounds as
 * for a read (READ_ROUNDS).
 */
async function deepVersusFirstCase(
  ports: ServerPorts,
  token: string,
  firstPath: string,
  deepPath: string,
): Promise<CaseResult> {
  const headers = { authorization: `Bearer ${token}` };
  const run = (path: string) => (warmUp?: number) =>
    load({ url: `http://127.0.0.1:${ports.port}${path}`, headers, duration: warmUp ?? DURATION / 2 });
  await drain(ports);
  const {
    a: deep,
    b: first,
    ratio,
    ratios,
  } = await paired(run(deepPath), run(firstPath), () => drain(ports), READ_ROUNDS);
  const result: CaseResult = {
    name: 'logs_deep_vs_first',
    path: `${deepPath} vs ${firstPath}`,
    api: deep,
    floor: first,
    ratio,
    round_ratios: ratios,
  };
  printCase(result);
  return result;
}

/**
 * Waits until the server process has answered what autocannon left in flight: the floor instances
 * share its event loop, so they are measured only once the app is idle again.
 */
async function drain(ports: ServerPorts): Promise<void> {
  if (ports.floorPort) await control(ports, 'GET', '/control/idle');
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Free slots for POST /shifts: the second day off after each duty day (crew c works day 3k + c). */
async function shiftSlots(target: Target, seed: BenchSeedResult) {
  const handle = createDatabase(dbConfig(target));
  const members = await handle.db
    .selectFrom('recurring_shift')
    .select(['user_id', 'crew_offset', 'assignment_ids', 'work_type_id'])
    .where('organization_id', '=', seed.organization_id)
    .orderBy('user_id')
    .execute();
  await handle.close();
  const windowStart = Temporal.PlainDate.from(seed.window_start);
  let n = 0;
  return () => {
    const member = members[n % members.length]!;
    const cycle = Math.floor(n / members.length);
    n += 1;
    const date = windowStart.add({ days: 3 * cycle + member.crew_offset + 2 }).toString();
    return JSON.stringify({
      assignment_id: (JSON.parse(member.assignment_ids) as number[])[0],
      user_id: member.user_id,
      date,
      start: `${date} 10:00:00`,
      end: `${date} 12:00:00`,
      work_type_id: member.work_type_id,
      admin_id: seed.admin_id,
    });
  };
}

/** A day note on `date`: the organization's cached responses go, the engine's computed days stay. */
function dayNoteWrite(ports: ServerPorts, token: string, date: string): BenchWrite {
  return {
    label: `PUT /v1/day_notes/${date}`,
    run: (round) =>
      fetch(`http://127.0.0.1:${ports.port}/v1/day_notes/${date}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ notes: [`<p>Bench note ${round}</p>`] }),
      }),
  };
}

/**
 * A shift on `date` of a member whose crew is off that day, its end moved by an hour each round:
 * a write the engine reads, so the read after it computes the period again.
 */
async function shiftChangeWrite(
  ports: ServerPorts,
  token: string,
  target: Target,
  seed: BenchSeedResult,
  date: Temporal.PlainDate,
): Promise<BenchWrite> {
  const handle = createDatabase(dbConfig(target));
  const dayOfCycle = Temporal.PlainDate.from(seed.window_start).until(date).days % 3;
  const member = await handle.db
    .selectFrom('recurring_shift')
    .select(['user_id', 'assignment_ids', 'work_type_id'])
    .where('organization_id', '=', seed.organization_id)
    .where('crew_offset', '!=', (dayOfCycle + 3) % 3)
    // free that day: none of the seeded one-off shifts or time off near it
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('shift')
            .select('shift.id')
            .whereRef('shift.user_id', '=', 'recurring_shift.user_id')
            .where('shift.start', '<', `${date.add({ days: 2 })} 00:00:00`)
            .where('shift.end', '>', `${date.subtract({ days: 1 })} 00:00:00`),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('time_off')
            .select('time_off.id')
            .whereRef('time_off.user_id', '=', 'recurring_shift.user_id')
            .where('time_off.start', '<', `${date.add({ days: 2 })} 00:00:00`)
            .where('time_off.end', '>', `${date.subtract({ days: 1 })} 00:00:00`),
        ),
      ),
    )
    .orderBy('user_id')
    .executeTakeFirstOrThrow();
  await handle.close();
  const url = `http://127.0.0.1:${ports.port}/v1/shifts`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const shift = {
    assignment_id: (JSON.parse(member.assignment_ids) as number[])[0],
    user_id: member.user_id,
    date: date.toString(),
    start: `${date} 10:00:00`,
    end: `${date} 12:00:00`,
    work_type_id: member.work_type_id,
    admin_id: seed.admin_id,
  };
  const created = await fetch(url, { method: 'POST', headers, body: JSON.stringify(shift) });
  const text = await created.text();
  if (created.status !== 201) throw new Error(`POST /shifts answered ${created.status}: ${text.slice(0, 300)}`);
  const id = (JSON.parse(text) as { id: number }).id;
  return {
    label: `PATCH /v1/shifts/${id} (its end)`,
    run: (round) =>
      fetch(`${url}/${id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ ...shift, end: `${date} ${round % 2 === 0 ? '13' : '12'}:00:00` }),
      }),
  };
}

async function writeCases(
  ports: ServerPorts,
  token: string,
  target: Target,
  seed: BenchSeedResult,
): Promise<CaseResult[]> {
  const nextShift = await shiftSlots(target, seed);
  const url = `http://127.0.0.1:${ports.port}`;
  const before = await control<{ queries: number }>(ports, 'GET', '/control/stats');
  const one = await fetch(`${url}/v1/shifts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: nextShift(),
  });
  if (one.status !== 201) throw new Error(`POST /shifts answered ${one.status}: ${(await one.text()).slice(0, 300)}`);
  await one.arrayBuffer().catch(() => undefined);
  const statements = (await control<{ queries: number }>(ports, 'GET', '/control/stats')).queries - before.queries;
  const posts: Load = {
    url,
    requests: [
      {
        method: 'POST',
        path: '/v1/shifts',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        setupRequest: (req: Request) => ({ ...req, body: nextShift() }),
      },
    ],
  };
  // unrecorded first, as the reads are: the write path is measured once V8 has compiled it
  await load({ ...posts, duration: 2 * WARM_UP_SECONDS });
  await drain(ports);
  const shifts = summarize(await withCpu(ports, posts));
  await drain(ports);
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: seed.client_id,
    client_secret: seed.client_secret,
  }).toString();
  const tokens = summarize(
    await load({
      url,
      requests: [
        {
          method: 'POST',
          path: '/oauth/access_token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        },
      ],
    }),
  );
  const results = [
    { name: 'post_shifts', path: 'POST /v1/shifts', api: shifts, statements },
    { name: 'post_token', path: 'POST /oauth/access_token', api: tokens },
  ];
  for (const r of results) printCase(r);
  return results;
}

/** A load whose result carries the server process's CPU time per request (user + system, µs). */
async function withCpu(ports: ServerPorts, options: Load) {
  const before = await control<{ cpuMicros: number }>(ports, 'GET', '/control/stats');
  const result = await load(options);
  const after = await control<{ cpuMicros: number }>(ports, 'GET', '/control/stats');
  return Object.assign(result, {
    cpuPerRequest: result.requests.total
      ? Math.round(((after.cpuMicros - before.cpuMicros) / result.requests.total) * 10) / 10
      : 0,
  });
}

/** Overheads are a few microseconds a request on a noisy machine: twice the rounds of the reads, and the server's CPU per request beside the rates. */
const OVERHEAD_ROUNDS = ROUNDS * 2;

async function overheadCases(ports: ServerPorts, token: string): Promise<CaseResult[]> {
  const url = `http://127.0.0.1:${ports.port}`;
  const auth = await paired(
    (warmUp) =>
      withCpu(ports, {
        url: `${url}/bench/auth/ping`,
        headers: { authorization: `Bearer ${token}` },
        duration: warmUp,
      }),
    (warmUp) => withCpu(ports, { url: `${url}/bench/ping`, duration: warmUp }),
    () => drain(ports),
    OVERHEAD_ROUNDS,
  );
  await control(ports, 'PUT', '/control/payload/ping', Buffer.from('{"ok":true}'), 'application/json; charset=utf-8');
  const logging = await paired(
    (warmUp) => withCpu(ports, { url: `http://127.0.0.1:${ports.loggedFloorPort}/floor/ping`, duration: warmUp }),
    (warmUp) => withCpu(ports, { url: `http://127.0.0.1:${ports.floorPort}/floor/ping`, duration: warmUp }),
    async () => {},
    OVERHEAD_ROUNDS,
  );
  const results: CaseResult[] = [
    {
      name: 'auth_cost',
      path: 'GET /bench/auth/ping vs /bench/ping',
      api: auth.a,
      floor: auth.b,
      ratio: auth.ratio,
      round_ratios: auth.ratios,
      cpu_ratio: cpuRatio(auth.a, auth.b),
    },
    {
      name: 'logging_cost',
      path: 'bare route, production logger to /dev/null vs no logger',
      api: logging.a,
      floor: logging.b,
      ratio: logging.ratio,
      round_ratios: logging.ratios,
      cpu_ratio: cpuRatio(logging.a, logging.b),
    },
  ];
  for (const r of results) printCase(r);
  return results;
}

function dbConfig(target: Target) {
  return loadConfig(
    { CREWPLAN_DATA_DIR: TMP },
    {
      databaseUrl: target.env.BENCH_DATABASE_URL,
      pgSchema: target.env.BENCH_PG_SCHEMA,
      sqlitePath: target.env.BENCH_SQLITE_PATH,
      sqliteSynchronous: 'FULL',
      secretKey: Buffer.from(SECRET),
      dataDir: TMP,
    },
  );
}

async function seed(target: Target): Promise<BenchSeedResult> {
  const config = dbConfig(target);
  const handle = createDatabase(config);
  try {
    await migrateToLatest(handle.db);
    return await seedBench(handle, config, BENCH_DEFAULTS);
  } finally {
    await handle.close();
  }
}

async function pgAdmin(statement: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Scale: the same load through 1 and then 2 server processes on one database (PostgreSQL). */
async function scaleCase(target: Target, token: string, path: string) {
  const run = async (processes: number) => {
    const servers = await Promise.all(
      Array.from({ length: processes }, () => startServer(target, { BENCH_API_ONLY: '1' })),
    );
    try {
      const results = await Promise.all(
        servers.map(({ ports }) =>
          load({
            url: `http://127.0.0.1:${ports.port}${path}`,
            headers: { authorization: `Bearer ${token}` },
            connections: Math.ceil(CONNECTIONS / processes),
          }),
        ),
      );
      return {
        processes,
        rps: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
        p99_ms: Math.max(...results.map((r) => (r.latency as unknown as Record<string, number>).p99!)),
      };
    } finally {
      await Promise.all(servers.map(({ child }) => stopServer(child)));
    }
  };
  const one = await run(1);
  const two = await run(2);
  const result = { path, one, two, gain: round(two.rps / one.rps) };
  console.log(`scale ${path}: 1 process ${one.rps} req/s, 2 processes ${two.rps} req/s (×${result.gain})`);
  return result;
}

async function runEngine(engine: 'sqlite' | 'postgres'): Promise<EngineResult> {
  const schema = `bench_${STAMP}`;
  const target: Target = {
    env:
      engine === 'postgres'
        ? { BENCH_DATABASE_URL: PG_URL!, BENCH_PG_SCHEMA: schema, BENCH_DATA_DIR: TMP }
        : { BENCH_SQLITE_PATH: join(TMP, 'bench.sqlite'), BENCH_DATA_DIR: TMP },
  };
  if (engine === 'postgres') {
    if (!PG_URL) throw new Error('BENCH_DATABASE_URL is required for the postgres engine');
    await pgAdmin(`create schema ${schema}`);
  }
  try {
    console.log(`\n== ${engine}: seeding`);
    const seeded = await seed(target);
    console.log(`seeded in ${seeded.seconds}s: ${JSON.stringify(seeded.counts)}`);
    const { child, ports } = await startServer(target);
    let cases: CaseResult[] = [];
    let rss = 0;
    let token = '';
    try {
      token = await getToken(ports, seeded);
      const today = Temporal.Now.plainDateISO(BENCH_DEFAULTS.timezone);
      const range = (days: number) =>
        `start=${today.toString()}%2000:00:00&end=${today.add({ days }).toString()}%2000:00:00`;
      const userId = seeded.admin_id + Math.floor(BENCH_DEFAULTS.users / 2);
      const deepPage = wanted('logs_deep') ? await deepLogCursor(target, seeded) : 0;
      const reads: Array<[string, string]> = [
        ['users_id', `/v1/users/${userId}`],
        ['users', '/v1/users'],
        ['schedule_day', `/v1/schedule?${range(1)}`],
        ['schedule_week', `/v1/schedule?${range(7)}`],
        ['schedule_month', `/v1/schedule?${range(30)}`],
        ['time_offs_month', `/v1/time_offs?${range(30)}`],
        ['logs_first', '/v1/logs'],
        ['logs_deep', `/v1/logs?before_id=${deepPage}`],
      ];
      for (const [name, path] of reads) if (wanted(name)) cases.push(await readCase(ports, token, name, path));
      // PostgreSQL: GET /users/{id} beside a floor that pays the bearer check's round trip (decision 0035)
      if (engine === 'postgres' && wanted('users_id_synced'))
        cases.push(await readCase(ports, token, 'users_id_synced', `/v1/users/${userId}`, 'floor-synced'));
      const writes = {
        note: dayNoteWrite(ports, token, today.toString()),
        shift:
          wanted('schedule_day_after_shift_change') || wanted('schedule_week_after_shift_change')
            ? await shiftChangeWrite(ports, token, target, seeded, today)
            : undefined,
      };
      for (const [name, days, write] of [
        ['schedule_day_after_write', 1, writes.note],
        ['schedule_week_after_write', 7, writes.note],
        ['schedule_day_after_shift_change', 1, writes.shift],
        ['schedule_week_after_shift_change', 7, writes.shift],
      ] as const) {
        if (wanted(name) && write)
          cases.push(await readAfterWriteCase(ports, token, name, `/v1/schedule?${range(days)}`, write));
      }
      if (wanted('logs_first') && wanted('logs_deep'))
        cases.push(await deepVersusFirstCase(ports, token, '/v1/logs', `/v1/logs?before_id=${deepPage}`));
      if (wanted('auth_cost') || wanted('logging_cost')) cases.push(...(await overheadCases(ports, token)));
      if (wanted('post_shifts') || wanted('post_token'))
        cases.push(...(await writeCases(ports, token, target, seeded)));
      cases = cases.filter((c) => wanted(c.name) || c.name === 'logs_deep_vs_first');
      // the largest of the per-case peaks (each case resets the peak before it starts)
      const lastPeak = (await control<{ maxRss: number }>(ports, 'GET', '/control/stats')).maxRss;
      rss = Math.max(lastPeak, ...cases.map((c) => (c.max_rss_mb ?? 0) * 1048576));
    } finally {
      await stopServer(child);
    }
    // GET /users/{id}: a light read, so the run measures the API tier rather than one long request
    const scale =
      engine === 'postgres' && wanted('scale')
        ? await scaleCase(target, token, `/v1/users/${seeded.admin_id + Math.floor(BENCH_DEFAULTS.users / 2)}`)
        : undefined;
    if (wanted('callback_offers')) cases.push(await callbackOffersCase(target, seeded));
    console.log(`max RSS under load: ${Math.round(rss / 1048576)} MB`);
    return {
      engine,
      seed: { seconds: seeded.seconds, counts: seeded.counts },
      max_rss_mb: Math.round(rss / 1048576),
      cases,
      ...(scale ? { scale } : {}),
    };
  } finally {
    if (engine === 'postgres') await pgAdmin(`drop schema if exists ${schema} cascade`);
  }
}

const OFFERS = 100;

/**
 * callback_offers: a callback on a list with `contact_at_once: 100` and 100 members, on a server of its own
 * whose mail goes to a mail server on loopback, its runner at the default poll (15 s): the time from
 * POST /callbacks to the first offer the mail server receives and to the 100th.
 */
async function callbackOffersCase(target: Target, seed: BenchSeedResult): Promise<CaseResult> {
  const received: number[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        if (session.envelope.rcptTo.some((r) => r.address.startsWith('bench-offer-'))) received.push(performance.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = String((smtp.server.address() as AddressInfo).port);
  const { child, ports } = await startServer(target, {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: smtpPort,
    SMTP_FROM: 'Bench <bench@crewplan.test>',
    BENCH_WORKERS: '1',
  });
  try {
    const token = await getToken(ports, seed);
    const api = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`http://127.0.0.1:${ports.port}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 300)
        throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as Record<string, number>;
    };
    const list = await api('POST', '/lists', {
      name: `Bench offers ${STAMP}`,
      contact_window_minutes: 30,
      contact_at_once: OFFERS,
    });
    for (let i = 0; i < OFFERS; i += 1) {
      const user = await api('PUT', '/users', {
        username: `bench_offer_${STAMP}_${i}`,
        first_name: 'Offer',
        last_name: `Member ${i}`,
        mail: `bench-offer-${i}@example.com`,
        password: `bench offer member ${STAMP} ${i}`,
      });
      await api('PUT', `/users/${user.user_id}/titles`, { ids: [list.id] });
    }
    const day = Temporal.Now.plainDateISO(BENCH_DEFAULTS.timezone).add({ years: 3 });
    const posted = performance.now();
    await api('POST', '/callbacks', {
      list_id: list.id,
      initiated_by: seed.admin_id,
      start: `${day} 07:00:00`,
      end: `${day.add({ days: 1 })} 07:00:00`,
      positions_to_fill: OFFERS,
      deadline: `${day.year + 1}-01-01T00:00:00+00:00`,
    });
    const until = posted + 30_000;
    while (received.length < OFFERS && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
    const times = received.map((at) => Math.round(at - posted));
    const last = times[OFFERS - 1] ?? Math.round(performance.now() - posted);
    const result: CaseResult = {
      name: 'callback_offers',
      path: `POST /callbacks, contact_at_once ${OFFERS}, offers by e-mail on loopback`,
      api: {
        rps: Math.round((times.length / Math.max(last, 1)) * 1000),
        p50_ms: times[Math.floor(times.length / 2)] ?? last,
        p97_5_ms: times[Math.floor(times.length * 0.975)] ?? last,
        p99_ms: times[Math.floor(times.length * 0.99)] ?? last,
        non2xx: OFFERS - times.length,
        bytes_per_response: 0,
      },
      first_offer_ms: times[0] ?? last,
      last_offer_ms: last,
    };
    console.log(
      `callback_offers: first offer after ${result.first_offer_ms} ms, ` +
        `${times.length} of ${OFFERS} after ${result.last_offer_ms} ms`,
    );
    return result;
  } finally {
    await stopServer(child);
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}

/** The before_id of the log page 2,000 pages (of 50) from the newest entry. */
async function deepLogCursor(target: Target, seeded: BenchSeedResult): Promise<number> {
  const handle = createDatabase(dbConfig(target));
  const row = await handle.db
    .selectFrom('system_log')
    .select('id')
    .where('organization_id', '=', seeded.organization_id)
    .orderBy('id', 'desc')
    .offset(2000 * 50)
    .limit(1)
    .executeTakeFirstOrThrow();
  await handle.close();
  return row.id + 1;
}

function machine() {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: { count: cpus.length, model: cpus[0]?.model, speed_mhz: cpus[0]?.speed },
    memory_gb: Math.round((os.totalmem() / 1073741824) * 10) / 10,
    free_memory_gb: Math.round((os.freemem() / 1073741824) * 10) / 10,
    node: process.version,
    load_average: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

mkdirSync(TMP, { recursive: true });
const startMachine = machine();
const engines: EngineResult[] = [];
try {
  for (const engine of ENGINES) engines.push(await runEngine(engine));
} finally {
  rmSync(TMP, { recursive: true, force: true });
}
const targets = evaluateTargets(engines);
const results = {
  generated_at: new Date().toISOString(),
  settings: { duration_seconds: DURATION, connections: CONNECTIONS, sqlite_synchronous: 'FULL', seed: BENCH_DEFAULTS },
  machine: {
    ...startMachine,
    load_average_at_start: startMachine.load_average,
    load_average_at_end: machine().load_average,
  },
  engines,
  targets,
};
writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
console.log('\ntargets:');
for (const t of targets) console.log(`${t.reported ? 'note' : t.met ? 'met ' : 'MISS'}  ${t.target}: ${t.measured}`);
console.log(`\nwrote ${OUT}`);
