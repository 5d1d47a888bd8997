/**
 * Every call of the web app goes through the typed client (openapi-fetch over the types generated
 * from /v1/openapi.json, client/): a path, parameter or body the API does not take fails
 * `npm run typecheck`. Requests carry the session cookie and the `X-Crewplan-Session` header.
 */
import createClient from 'openapi-fetch';
import type { paths, ResponseOf } from '../../client/src/index.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** the API's `error_message` sentence by sentence (a 422 names one field in each, see field-errors.ts) */
    readonly messages: string[] = [message],
  ) {
    super(message);
  }
}

export type Session = ResponseOf<'getWebAppSession'>;

/** Fired when the API answers 401: the session ended, the app shows the sign-in form. */
export const SIGNED_OUT_EVENT = 'crewplan:signed-out';

export const client = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  headers: { 'X-Crewplan-Session': '1', Accept: 'application/json' },
});

/** The success body of an openapi-fetch result (its `data` member). */
type DataOf<R> = R extends { data: infer D } ? D : never;

/**
 * The body of a successful call, or an ApiError with the API's message in words. A 401 of a /v1
 * call also fires {@link SIGNED_OUT_EVENT}.
 */
export async function call<R extends { response: Response; error?: unknown }>(pending: Promise<R>): Promise<DataOf<R>> {
  let result: R;
  try {
    result = await pending;
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check the connection and try again.');
  }
  const { response } = result;
  if (response.ok) return (result as unknown as { data: DataOf<R> }).data;
  const message = (result.error as { error_message?: string | string[] } | undefined)?.error_message;
  if (response.status === 401 && new URL(response.url, location.href).pathname.startsWith('/v1/'))
    window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
  const messages = Array.isArray(message) ? message : [message ?? `The server answered ${response.status}.`];
  throw new ApiError(response.status, messages.join(' '), messages);
}

/** The query of a `next` link the API wrote (an absolute URL), to ask for that page through the client. */
export function queryOf(href: string): Record<string, string> {
  return Object.fromEntries(new URL(href).searchParams);
}

export const sessions = {
  current: () => call(client.GET('/app/session')),
  signIn: (organization_id: number, username: string, password: string) =>
    call(client.POST('/app/session', { body: { organization_id, username, password } })),
  signOut: () => call(client.DELETE('/app/session')),
};
