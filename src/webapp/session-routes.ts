import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { AuthContext } from '../core/auth/context.js';
import { verifyPassword } from '../core/auth/secrets.js';
import { createSession, deleteSession, findSession, isAdminRole, SESSION_COOKIE, SESSION_HEADER, SESSION_TTL_SECONDS, type SessionOwner } from '../core/auth/sessions.js';
import { writeLog } from '../core/audit.js';
import { withTransaction } from '../core/db/transaction.js';
import { ApiError, unauthorized } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';
import { findSignInUser } from './repository.js';
import { EXTENSION, SessionResponse, SignedOut, SignInBody, tags } from './schemas.js';

/** Sign-in attempts allowed per window: per client address, and per organization and username. */
export const SIGN_IN_LIMITS = { perAddress: 30, perUsername: 5, windowMs: 15 * 60_000 };

const FAILED_SIGN_IN = 'The organization, username or password is not correct.';

function sessionAuth(owner: { organizationId: number; organizationName: string; timezone: string; userId: number; username: string }): AuthContext {
  return { orgId: owner.organizationId, orgName: owner.organizationName, timezone: owner.timezone, clientId: `web:${owner.username}`, credentialId: -owner.userId };
}

function sessionBody(owner: SessionOwner): SessionResponse {
  return {
    user: { id: owner.userId, username: owner.username, name: owner.fullName, role: owner.role, is_admin: owner.isAdmin },
    organization: { id: owner.organizationId, name: owner.organizationName, timezone: owner.timezone },
    expires_at: owner.expiresAt,
  };
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number): void {
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge,
  });
}

const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  if (!app.hasDecorator('createRateLimit')) await app.register(rateLimit, { global: false });
  const limiters = [
    app.createRateLimit({ max: SIGN_IN_LIMITS.perAddress, timeWindow: SIGN_IN_LIMITS.windowMs, keyGenerator: (r) => `sign-in-address:${r.ip}` }),
    app.createRateLimit({
      max: SIGN_IN_LIMITS.perUsername,
      timeWindow: SIGN_IN_LIMITS.windowMs,
      keyGenerator: (r) => {
        const body = r.body as SignInBody;
        return `sign-in-user:${body.organization_id}:${body.username.toLowerCase()}`;
      },
    }),
  ];
  /** A cross-site form can post urlencoded fields here but cannot add this header (login CSRF). */
  async function requireSessionHeader(request: FastifyRequest): Promise<void> {
    if (request.headers[SESSION_HEADER] !== '1') throw unauthorized(`The ${SESSION_HEADER} header is required.`);
  }

  async function limitSignIns(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    for (const limiter of limiters) {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('Retry-After', result.ttlInSeconds);
        throw new ApiError(429, 'too_many_requests', `Too many sign-in attempts. Retry in ${result.ttlInSeconds} seconds.`);
      }
    }
  }

  const readSession = (request: FastifyRequest) => findSession(app.db, app.config.secretKey, request.cookies[SESSION_COOKIE] ?? '');

  app.post(
    '/app/session',
    {
      preHandler: [requireSessionHeader, limitSignIns],
      schema: {
        ...EXTENSION,
        operationId: 'signInWebApp',
        summary: `Web app sign-in: sets the session cookie (needs the ${SESSION_HEADER} header)`,
        tags,
        security: [],
        body: SignInBody,
        response: { 200: SessionResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organization_id, username, password } = request.body;
      const user = await findSignInUser(app.db, organization_id, username);
      const valid = await verifyPassword(password, user?.password_hash ?? null);
      if (!user || !valid) throw unauthorized(FAILED_SIGN_IN);
      const owner = { organizationId: organization_id, organizationName: user.organization_name, timezone: user.timezone, userId: user.id, username: user.username };
      const session = await withTransaction(app.db, async (trx) => {
        const created = await createSession(trx, app.config.secretKey, organization_id, user.id);
        await writeLog(trx, sessionAuth(owner), { action: 'web_session.created', description: 'signed in to the web app.', actorUserId: user.id, entityType: 'web_session', entityId: created.id });
        return created;
      });
      setSessionCookie(request, reply, session.token, SESSION_TTL_SECONDS);
      reply.header('Cache-Control', 'no-store');
      return sessionBody({
        ...owner,
        sessionId: session.id,
        fullName: `${user.first_name} ${user.last_name}`.trim(),
        role: user.role,
        isAdmin: isAdminRole(user.role),
        expiresAt: session.expiresAt,
      });
    },
  );

  app.get(
    '/app/session',
    {
      schema: {
        ...EXTENSION,
        operationId: 'getWebAppSession',
        summary: 'The signed-in user of the session cookie (401 when signed out)',
        tags,
        security: [],
        response: { 200: SessionResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const owner = await readSession(request);
      if (!owner) throw unauthorized('Not signed in.');
      reply.header('Cache-Control', 'no-store');
      return sessionBody(owner);
    },
  );

  app.delete(
    '/app/session',
    {
      schema: {
        ...EXTENSION,
        operationId: 'signOutWebApp',
        summary: `Web app sign-out: ends the session (needs the ${SESSION_HEADER} header)`,
        tags,
        security: [],
        response: { 200: SignedOut, ...errorResponses },
      },
    },
    async (request, reply) => {
      await requireSessionHeader(request);
      const owner = await readSession(request);
      if (owner) {
        await withTransaction(app.db, async (trx) => {
          await deleteSession(trx, owner.organizationId, owner.sessionId);
          await writeLog(trx, sessionAuth(owner), { action: 'web_session.deleted', description: 'signed out of the web app.', actorUserId: owner.userId, entityType: 'web_session', entityId: owner.sessionId });
        });
      }
      setSessionCookie(request, reply, '', 0);
      return { success: true };
    },
  );
};

export default sessionRoutes;
