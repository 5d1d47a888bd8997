import createClient, { type Client } from 'openapi-fetch';
import type { operations, paths } from './schema.js';
import { TokenManager, type TokenOptions } from './tokens.js';

export type { operations, paths } from './schema.js';
export { TokenError, TokenManager, type TokenOptions } from './tokens.js';

/** The JSON body of an operation's 200 response. */
export type ResponseOf<Op extends keyof operations> = operations[Op] extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;
/** The query parameters of an operation. */
export type QueryOf<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Query } }
  ? Query
  : never;

export type TimeOffEntry = ResponseOf<'listTimeOffs'>['items'][number];
export type SchedulePeriod = ResponseOf<'getSchedule'>;
export type LogEntry = ResponseOf<'listLogs'>['data'][number];
export type Callback = ResponseOf<'listCallbacks'>['data'][number];
export type Announcement = ResponseOf<'listAnnouncements'>['data'][number];

/** A response of the API that is not a success: `{status, error, error_message}`. */
export class CrewplanApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const message = (body as { error_message?: unknown } | undefined)?.error_message;
    super(`crewplan API answered ${status}: ${Array.isArray(message) ? message.join(' ') : String(message ?? '')}`);
    this.name = 'CrewplanApiError';
  }
}

export type CrewplanClientOptions = TokenOptions;

export interface CrewplanClient {
  /** Typed calls of every operation: `api.GET('/v1/users')`, `api.PUT('/v1/users', {body})`… */
  api: Client<paths>;
  tokens: TokenManager;
  /** fetch with the bearer token (renewed before expiry, and once more after a 401). */
  fetch: (request: Request) => Promise<Response>;
  /** Pattern 1 (`{items, metadata.links}`, GET /time_offs): every entry of the period, page after page. */
  timeOffs(query: QueryOf<'listTimeOffs'>): AsyncGenerator<TimeOffEntry>;
  /** Pattern 2 (top-level `prev`/`next` `{href}`, GET /schedule): consecutive periods from `query` until one starts at or after `until`. */
  schedulePeriods(query: QueryOf<'getSchedule'>, options: { until: string }): AsyncGenerator<SchedulePeriod>;
  /** Pattern 3 (`{data, pagination}`), keyset by `before_id` on GET /logs: newest first, down to the oldest entry. */
  logs(query?: QueryOf<'listLogs'>): AsyncGenerator<LogEntry>;
  /** Pattern 3 with `offset` links, GET /callbacks. */
  callbacks(query?: QueryOf<'listCallbacks'>): AsyncGenerator<Callback>;
  /** Pattern 3 with `offset` links, GET /announcements. */
  announcements(query?: QueryOf<'listAnnouncements'>): AsyncGenerator<Announcement>;
}

function withBearer(request: Request, token: string): Request {
  const authorized = new Request(request);
  authorized.headers.set('authorization', `Bearer ${token}`);
  return authorized;
}

/** Throws the API's error for an unsuccessful openapi-fetch result, else returns its data. */
function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined)
    throw new CrewplanApiError(result.response.status, result.error);
  return result.data;
}

/** Pages from `first`, following the link `nextOf` gives until it is null. */
async function* followLinks<Page>(
  first: Page,
  nextOf: (page: Page) => string | null | undefined,
  get: (url: string) => Promise<Page>,
) {
  let page: Page | undefined = first;
  const seen = new Set<string>();
  while (page !== undefined) {
    yield page;
    const next = nextOf(page);
    if (!next || seen.has(next)) return;
    seen.add(next);
    page = await get(next);
  }
}

export function createCrewplanClient(options: CrewplanClientOptions): CrewplanClient {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const tokens = new TokenManager(options);

  const authFetch = async (request: Request): Promise<Response> => {
    const retry = request.clone();
    const token = await tokens.token();
    const response = await baseFetch(withBearer(request, token));
    if (response.status !== 401) return response;
    // revoked or expired early on the server: one new token, one more try
    tokens.invalidate(token);
    return baseFetch(withBearer(retry, await tokens.token()));
  };

  const api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: authFetch });

  async function getLink<Page>(url: string): Promise<Page> {
    const response = await authFetch(new Request(url, { headers: { accept: 'application/json' } }));
    const body = await response.json().catch(() => undefined);
    if (!response.ok) throw new CrewplanApiError(response.status, body);
    return body as Page;
  }

  async function* dataPages<Item, Page extends { data: Item[]; pagination: { next: string | null } }>(first: Page) {
    for await (const page of followLinks(first, (p) => p.pagination.next, getLink<Page>)) yield* page.data;
  }

  return {
    api,
    tokens,
    fetch: authFetch,
    async *timeOffs(query) {
      const first = unwrap(await api.GET('/v1/time_offs', { params: { query } }));
      for await (const page of followLinks(first, (p) => p.metadata.links.next, getLink<typeof first>))
        yield* page.items;
    },
    async *schedulePeriods(query, { until }) {
      const first = unwrap(await api.GET('/v1/schedule', { params: { query } }));
      const before = (page: SchedulePeriod) => page.start.replace('T', ' ') < until.replace('T', ' ');
      for await (const page of followLinks(first, (p) => p.next.href, getLink<SchedulePeriod>)) {
        if (!before(page)) return;
        yield page;
      }
    },
    async *logs(query) {
      yield* dataPages(unwrap(await api.GET('/v1/logs', { params: { query } })));
    },
    async *callbacks(query) {
      yield* dataPages(unwrap(await api.GET('/v1/callbacks', { params: { query } })));
    },
    async *announcements(query) {
      yield* dataPages(unwrap(await api.GET('/v1/announcements', { params: { query } })));
    },
  };
}
