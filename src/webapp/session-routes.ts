import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clearAttempts, countAttempt, uncountAttempt } from '../core/auth/attempts.js';
import type { AuthContext } from '../core/auth/context.js';
import { verifyPassword } from '../core/auth/secrets.js';
import {
  createSession,
  deleteSession,
  findSession,
  isAdminRole,
  SESSION_COOKIE,
  SESSION_HEADER,
  SESSION_TTL_SECONDS,
  type SessionOwner,
} from '../core/auth/sessions.js';
import { writeLog } from '../core/audit.js';
import { withTransaction } from '../core/db/transaction.js';
import { tooManyRequests, unauthorized } from '../core/errors.js';
import { errorResponses, SuccessOnly, succeeded } from '../core/schemas.js';
import { findSignInUser } from './repository.js';
import { EXTENSION, SessionResponse, SignInBody, tags } from './schemas.js';

/**
 * Sign-in attempts allowed per window, per client address and per account (organization and
 * username), counted in the database for every process (docs/security.md, API2). The window
 * opens with the first attempt; later ones are refused until it ends. A sign-in that succeeds
 * clears its account's count and takes its attempt back from the address.
 */
export const SIGN_IN_LIMITS = { perAddress: 30, perUsername: 5, windowMs: 15 * 60_000 };

const addressKey = (request: FastifyRequest) => `sign-in-address:${request.ip}`;
const accountKey = (body: SignInBody) => `sign-in-account:${body.organization_id}:${body.username.toLowerCase()}`;

const FAILED_SIGN_IN = 'The organization, username or password is not correct.';

function sessionAuth(owner: {
  organizationId: number;
  organizationName: string;
  timezone: string;
  userId: number;
  username: string;
}): AuthContext {
  return {
    orgId: owner.organizationId,
    orgName: owner.organizationName,
    timezone: owner.timezone,
    clientId: `web:${owner.username}`,
    credentialId: -owner.userId,
  };
}

function sessionBody(owner: SessionOwner): SessionResponse {
  return {
    user: {
      id: owner.userId,
      username: owner.username,
      name: owner.fullName,
      role: owner.role,
      is_admin: owner.isAdmin,
    },
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
  /** A cross-site form can post urlencoded fields here but cannot add this header (login CSRF). */
  async function requireSessionHeader(request: FastifyRequest): Promise<void> {
    if (request.headers[SESSION_HEADER] !== '1') throw unauthorized(`The ${SESSION_HEADER} header is required.`);
  }

  async function limitSignIns(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const limits = [
      { key: addressKey(request), max: SIGN_IN_LIMITS.perAddress },
      { key: accountKey(request.body as SignInBody), max: SIGN_IN_LIMITS.perUsername },
    ];
    for (const { key, max } of limits) {
      const count = await countAttempt(app.db, key, { max, windowMs: SIGN_IN_LIMITS.windowMs });
      if (!count.allowed) {
        reply.header('Retry-After', count.retryAfterSeconds);
        throw tooManyRequests(`Too many sign-in attempts. Retry in ${count.retryAfterSeconds} seconds.`);
      }
    }
  }

  const readSession = (request: FastifyRequest) =>
    findSession(app.db, app.config.secretKey, request.cookies[SESSION_COOKIE] ?? '');

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
      await clearAttempts(app.db, accountKey(request.body));
      await uncountAttempt(app.db, addressKey(request));
      const owner = {
        organizationId: organization_id,
        organizationName: user.organization_name,
        timezone: user.timezone,
        userId: user.id,
        username: user.username,
      };
      const session = await withTransaction(app.db, async (trx) => {
        const created = await createSession(trx, app.config.secretKey, organization_id, user.id);
        await writeLog(trx, sessionAuth(owner), {
          action: 'web_session.created',
          description: 'signed in to the web app.',
          actorUserId: user.id,
          entityType: 'web_session',
          entityId: created.id,
        });
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
        response: { 200: SuccessOnly, ...errorResponses },
      },
    },
    async (request, reply) => {
      await requireSessionHeader(request);
      const owner = await readSession(request);
      if (owner) {
        await withTransaction(app.db, async (trx) => {
          await deleteSession(trx, owner.organizationId, owner.sessionId);
          await writeLog(trx, sessionAuth(owner), {
            action: 'web_session.deleted',
            description: 'signed out of the web app.',
            actorUserId: owner.userId,
            entityType: 'web_session',
            entityId: owner.sessionId,
          });
        });
      }
      setSessionCookie(request, reply, '', 0);
      return succeeded();
    },
  );
};

export default sessionRoutes;
