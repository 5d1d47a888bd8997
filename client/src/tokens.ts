/** OAuth 2.0 client credentials for the crewplan API: one cached access token, renewed before it expires. */

export interface TokenOptions {
  /** Server root, e.g. `https://crew.example.org` (without `/v1`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Renew the token this many seconds before it expires (default 60). */
  refreshMarginSeconds?: number;
  fetch?: typeof globalThis.fetch;
  /** Milliseconds since the epoch; tests move it forward. */
  now?: () => number;
}

export class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`crewplan token request failed with status ${status}`);
    this.name = 'TokenError';
  }
}

interface TokenResponse {
  access_token: string;
  expires_in: number;
}

export class TokenManager {
  private current: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;
  /** Token requests made so far. */
  requests = 0;
  private readonly fetch: typeof globalThis.fetch;
  private readonly now: () => number;

  constructor(private readonly options: TokenOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.now = options.now ?? Date.now;
  }

  /** A valid access token: the cached one, or a new one when it is about to expire. Concurrent callers share one request. */
  async token(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.token;
    this.pending ??= this.request().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets the token (the server refused it): the next call requests a new one. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async request(): Promise<string> {
    this.requests += 1;
    const response = await this.fetch(new URL('/oauth/access_token', this.options.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
      }),
    });
    const body = (await response.json().catch(() => undefined)) as TokenResponse | undefined;
    if (!response.ok || !body?.access_token) throw new TokenError(response.status, body);
    const marginMs = (this.options.refreshMarginSeconds ?? 60) * 1000;
    const lifetimeMs = body.expires_in * 1000;
    // A lifetime shorter than the margin is renewed halfway through instead.
    this.current = { token: body.access_token, renewAt: this.now() + Math.max(lifetimeMs - marginMs, lifetimeMs / 2) };
    return body.access_token;
  }
}
