/** Who is calling: set by the bearer hook on every /v1 request. */
export interface AuthContext {
  orgId: number;
  orgName: string;
  timezone: string;
  clientId: string;
  credentialId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
    /** `https://host` (or PUBLIC_BASE_URL): hrefs and pagination links are built on it. */
    baseUrl: string;
  }
}
