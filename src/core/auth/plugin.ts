import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../db/index.js';
import { errorHandler, oauthError, toApiError, unauthorized } from '../errors.js';
import { EXTENSION } from '../schemas.js';
import { limitTokenRequests } from '../rate-limit.js';
import { createTokenLookup, issueToken, revokeToken, verifyClient } from './credentials.js';
import { findSession, SESSION_HEADER, webCookies } from './sessions.js';
import { keyedHash } from './secrets.js';
import './context.js';

interface AuthPluginOptions {
  config: Readonly<Config>;
  handle: DatabaseHandle;
}

/**
 * A request the token endpoint cannot read (malformed JSON, a field of the wrong type or length)
 * is an RFC 6749 §5.2 `invalid_request`: 400 in the token-error format like the endpoint's own
 * refusals. Other errors (413, 415, 429, 5xx) keep the general error format.
 */
function tokenErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const apiError = toApiError(error);
  const unreadable = apiError && !('error_description' in apiError.extra) && [400, 422].includes(apiError.statusCode);
  if (!unreadable) return errorHandler(error, request, reply);
  const description = Array.isArray(apiError.errorMessage) ? apiError.errorMessage.join(' ') : apiError.errorMessage;
  return reply
    .status(400)
    .type('application/json; charset=utf-8')
    .send(oauthError('invalid_request', description).body());
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=._-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.String(),
  expires: Type.Integer({ description: 'unix seconds' }),
  expires_in: Type.Integer(),
});

const OAuthError = Type.Object({
  status: Type.Integer(),
  error: Type.String(),
  error_message: Type.String(),
  error_description: Type.Optional(Type.String()),
});

async function authPlugin(app: FastifyInstance, { config, handle }: AuthPluginOptions) {
  const tokens = createTokenLookup(handle, config.secretKey);
  app.addHook('onClose', () => tokens.close());

  // signed cookies (the web app's device cookie) use a key of their own derived from the server key
  await app.register(cookie, { secret: keyedHash(config.secretKey, 'crewplan signed cookies') });
  app.decorateRequest('auth', null as never);
  // a getter rather than an onRequest hook: only the routes that build links read it, once worked out
  // (a schedule's links read it per person)
  app.decorateRequest('keptBaseUrl', '');
  app.decorateRequest('baseUrl', {
    getter(this: FastifyRequest) {
      this.keptBaseUrl ||= config.publicBaseUrl ?? `${this.protocol}://${this.host}`;
      return this.keptBaseUrl;
    },
  });

  /**
   * The client of a token or revocation request: HTTP Basic or client_id/client_secret in the body
   * (RFC 6749 §2.3.1), never both naming different clients. Missing credentials are `missing`'s error:
   * invalid_request for a token request, invalid_client for a revocation (RFC 7009 §2.1).
   */
  async function authenticateClient(
    request: FastifyRequest,
    reply: FastifyReply,
    body: Record<string, string | undefined>,
    missing: 'invalid_request' | 'invalid_client',
  ) {
    const basic = basicCredentials(request.headers.authorization);
    if (basic && body.client_id && body.client_id !== basic.id) {
      throw oauthError('invalid_request', 'The client was identified in two different ways.');
    }
    const clientId = basic?.id ?? body.client_id;
    const clientSecret = basic?.secret ?? body.client_secret;
    if (!clientId || !clientSecret) {
      throw missing === 'invalid_request'
        ? oauthError('invalid_request', 'The client_id and client_secret parameters are required.')
        : oauthError('invalid_client', 'Client authentication failed.');
    }
    const client = await verifyClient(app.db, config.secretKey, clientId, clientSecret);
    if (!client) {
      if (basic) reply.header('WWW-Authenticate', 'Basic realm="crewplan"');
      throw oauthError('invalid_client', 'Client authentication failed.');
    }
    return client;
  }

  // The token request's form may also come as multipart/form-data (what FormData sends): its fields
  // only, in a scope of its own so that no other route takes multipart bodies through it.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { files: 0, fields: 8, parts: 8, fieldSize: 1024 },
    });
    /** What both OAuth endpoints share: their own rate limit and OAuth's error form. */
    const oauthEndpoint = () =>
      ({
        config: { rateLimitScope: 'token' },
        preHandler: limitTokenRequests(handle.db, config.tokenRateLimitPerMinute),
        errorHandler: tokenErrorHandler,
      }) as const;
    const OAUTH_FORMS = ['application/x-www-form-urlencoded', 'application/json', 'multipart/form-data'];
    const clientFields = {
      client_id: Type.Optional(Type.String({ maxLength: 255 })),
      client_secret: Type.Optional(Type.String({ maxLength: 255 })),
    };
    scope.post(
      '/oauth/access_token',
      {
        ...oauthEndpoint(),
        schema: {
          operationId: 'requestAccessToken',
          summary: 'OAuth 2.0 client-credentials token request',
          tags: ['Authentication'],
          security: [],
          consumes: OAUTH_FORMS,
          body: Type.Optional(
            Type.Object({
              grant_type: Type.Optional(Type.String({ maxLength: 64 })),
              ...clientFields,
              scope: Type.Optional(Type.String({ maxLength: 255 })),
            }),
          ),
          response: { 200: TokenResponse, 400: OAuthError, 401: OAuthError },
        },
      },
      async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, string | undefined>;
        reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
        if (!body.grant_type) throw oauthError('invalid_request', 'The grant_type parameter is required.');
        if (body.grant_type !== 'client_credentials') {
          throw oauthError('unsupported_grant_type', 'Only the client_credentials grant type is supported.');
        }
        const client = await authenticateClient(request, reply, body, 'invalid_request');
        return issueToken(app.db, config.secretKey, client, config.tokenTtlSeconds);
      },
    );

    scope.post(
      '/oauth/revoke',
      {
        ...oauthEndpoint(),
        schema: {
          operationId: 'revokeAccessToken',
          summary: 'OAuth 2.0 token revocation (RFC 7009): the client ends one of its access tokens',
          description:
            'Answers 200 with an empty body whether or not the token was known, valid or the client’s own; ' +
            'only a token issued to the authenticated client is revoked. Extension (docs/extensions.md).',
          tags: ['Authentication'],
          security: [],
          ...EXTENSION,
          consumes: OAUTH_FORMS,
          body: Type.Optional(
            Type.Object({
              token: Type.Optional(Type.String({ maxLength: 512 })),
              token_type_hint: Type.Optional(Type.String({ maxLength: 64 })),
              ...clientFields,
            }),
          ),
          response: { 200: Type.Null({ description: 'empty body' }), 400: OAuthError, 401: OAuthError },
        },
      },
      async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, string | undefined>;
        reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
        const client = await authenticateClient(request, reply, body, 'invalid_client');
        if (!body.token) throw oauthError('invalid_request', 'The token parameter is required.');
        await revokeToken(app.db, config.secretKey, client, body.token);
        return reply.status(200).send();
      },
    );
  });

  /** A web app request: the session cookie plus the session header (a cross-site form cannot set it). */
  async function authenticateSession(request: FastifyRequest): Promise<void> {
    const value = request.cookies[webCookies(request, config.sessionCookieSecure).session];
    const owner = await findSession(handle.db, config.secretKey, value ?? '');
    if (!owner) throw unauthorized('The session has ended; sign in again.');
    request.auth = {
      orgId: owner.organizationId,
      orgName: owner.organizationName,
      timezone: owner.timezone,
      orgRevision: owner.organizationRevision,
      clientId: `web:${owner.username}`,
      credentialId: -owner.userId,
      sessionUser: { userId: owner.userId, sessionId: owner.sessionId, isAdmin: owner.isAdmin },
    };
  }

  /** Registered on the /v1 scope: every route there needs a valid bearer token (or a web app session). */
  app.decorate('requireBearer', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const sessionCookie = webCookies(request, config.sessionCookieSecure).session;
    if (!header && request.cookies[sessionCookie] && request.headers[SESSION_HEADER] === '1')
      return authenticateSession(request);
    if (!header) throw unauthorized('The access token is missing.');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || match[1].length > 512) throw unauthorized('The access token is not valid.');
    const owner = await tokens.find(match[1]);
    if (!owner) {
      reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw unauthorized('The access token is not valid.');
    }
    request.auth = {
      orgId: owner.organization_id,
      orgName: owner.organization_name,
      timezone: owner.timezone,
      orgRevision: owner.organization_revision,
      clientId: owner.client_id,
      credentialId: owner.credential_id,
    };
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    requireBearer: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export default fp(authPlugin, { name: 'crewplan-auth' });
