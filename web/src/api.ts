/** A small fetch wrapper for the public /v1 API with the web app's session cookie. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Session {
  user: { id: number; username: string; name: string; role: string | null; is_admin: boolean };
  organization: { id: number; name: string; timezone: string };
  expires_at: string;
}

/** Fired when the API answers 401: the session ended, the app shows the sign-in form. */
export const SIGNED_OUT_EVENT = 'crewplan:signed-out';

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'X-Crewplan-Session': '1', Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check the connection and try again.');
  }
  const text = await response.text();
  const data = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    const message = (data as { error_message?: string | string[] } | undefined)?.error_message;
    if (response.status === 401 && path.startsWith('/v1/')) window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
    throw new ApiError(
      response.status,
      Array.isArray(message) ? message.join(' ') : (message ?? `The server answered ${response.status}.`),
    );
  }
  return data as T;
}

function withQuery(path: string, query?: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export const api = {
  get: <T>(path: string, query?: Record<string, string | number | undefined>) =>
    request<T>('GET', withQuery(`/v1${path}`, query)),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', `/v1${path}`, body),
  put: <T>(path: string, body: unknown = {}) => request<T>('PUT', `/v1${path}`, body),
  patch: <T>(path: string, body: unknown = {}) => request<T>('PATCH', `/v1${path}`, body),
  del: <T>(path: string) => request<T>('DELETE', `/v1${path}`),
  /** Follows a `next` link of the API (absolute URL) on this origin. */
  follow: <T>(href: string) => {
    const url = new URL(href);
    return request<T>('GET', url.pathname + url.search);
  },
};

export const sessions = {
  current: () => request<Session>('GET', '/app/session'),
  signIn: (organization_id: number, username: string, password: string) =>
    request<Session>('POST', '/app/session', { organization_id, username, password }),
  signOut: () => request<{ success: boolean }>('DELETE', '/app/session'),
};
