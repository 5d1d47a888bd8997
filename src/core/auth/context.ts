/** Who is calling: set by the bearer hook on every /v1 request. */
export interface AuthContext {
  orgId: number;
  orgName: string;
  timezone: string;
  /** The organization's revision when the request began (see src/core/response-cache.ts). */
  orgRevision?: number;
  clientId: string;
  /** The API credential's id; for a web app session, minus the user's id (a rate-limit key of its own). */
  credentialId: number;
  /** Set when the request comes from the web app with a session cookie (see src/webapp). */
  sessionUser?: SessionUser;
}

export interface SessionUser {
  userId: number;
  sessionId: number;
  /** The user's role makes them an admin of the web app: they act on the whole organization. */
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
    /** `https://host` (or PUBLIC_BASE_URL): hrefs and pagination links are built on it. */
    baseUrl: string;
    /** baseUrl once worked out ('' until then) */
    keptBaseUrl: string;
  }
}
