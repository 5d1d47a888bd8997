import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Config } from '../../src/config.js';
import type { TestServer } from '../helpers/server.js';
import { CLI_ENTRY } from '../helpers/entries.js';

const run = promisify(execFile);

type CliConfig = Pick<Config, 'dataDir' | 'secretKey' | 'databaseUrl' | 'sqlitePath' | 'pgSchema'>;

/**
 * Runs `npm run cli -- …` as a separate process against a test server's database (its SQLite
 * file, or its PostgreSQL schema), with the server's secret key and data directory.
 */
export async function cli(
  server: TestServer | { config: CliConfig },
  args: string[],
  input?: string,
): Promise<{ stdout: string; stderr: string }> {
  const { config } = server;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    CREWPLAN_DATA_DIR: config.dataDir,
    CREWPLAN_SECRET_KEY: config.secretKey.toString('utf8'),
    DATABASE_URL: config.databaseUrl ?? config.sqlitePath,
    ...(config.pgSchema && config.databaseUrl ? { DATABASE_SCHEMA: config.pgSchema } : {}),
  };
  const child = run(process.execPath, [CLI_ENTRY, ...args], {
    env,
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  if (input !== undefined) {
    child.child.stdin!.end(input);
  }
  return child;
}

/** A bearer token for a credential. */
export async function tokenFor(server: TestServer, clientId: string, clientSecret: string): Promise<string> {
  const response = await server.request<{ access_token: string }>('POST', '/oauth/access_token', {
    body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    form: true,
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.text}`);
  return response.body.access_token;
}

const ID_KEY = /^(id|log_id)$|_id$|_ids$|^(traded_with|scheduled_by|created_by|admin_id|from_callback)$/;

/**
 * A response with its ids and hrefs made comparable across databases: each id becomes `#n`, n
 * counted by first appearance among the values at the same place (key path) of the document, so
 * two documents are equal when they differ only by a one-to-one renaming of ids; the server's
 * origin is dropped from hrefs and each number in a URL path or query is renamed the same way,
 * keyed by the segment or parameter before it.
 */
export function normalizeIds(document: unknown, origin: string): unknown {
  const scopes = new Map<string, Map<string, string>>();
  const rename = (scope: string, value: unknown) => {
    let names = scopes.get(scope);
    if (!names) {
      names = new Map<string, string>();
      scopes.set(scope, names);
    }
    const key = String(value);
    if (!names.has(key)) names.set(key, `#${names.size + 1}`);
    return names.get(key)!;
  };
  const url = (text: string) =>
    text
      .replace(origin, '')
      .replace(
        /\/([a-z_]+)\/(\d+)(?=[/?#]|$)/g,
        (_m, segment: string, id: string) => `/${segment}/${rename(`url:${segment}`, id)}`,
      )
      .replace(/([?&][a-z_]+)=(\d+)/g, (_m, name: string, id: string) =>
        /id$/.test(name) ? `${name}=${rename(`url:${name}`, id)}` : `${name}=${id}`,
      );
  const walk = (value: unknown, path: string, key: string): unknown => {
    if (typeof value === 'string') {
      if (value.startsWith(origin)) return url(value);
      return ID_KEY.test(key) && /^\d+$/.test(value) ? rename(path, value) : value;
    }
    if (typeof value === 'number') return ID_KEY.test(key) && Number.isInteger(value) ? rename(path, value) : value;
    if (Array.isArray(value)) return value.map((item) => walk(item, path, key));
    if (value && typeof value === 'object') {
      // a list may mix kinds (one-off and recurring shifts): an object's href names its kind
      const href = (value as { href?: unknown }).href;
      const kind = typeof href === 'string' ? (/\/([a-z_]+)\/\d+$/.exec(href)?.[1] ?? '') : '';
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v, `${path}${kind ? `<${kind}>` : ''}.${k}`, k)]),
      );
    }
    return value;
  };
  return walk(document, '', '');
}
