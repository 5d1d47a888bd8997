import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../core/auth/context.js';
import {
  createSession,
  deleteSession,
  DEVICE_TTL_SECONDS,
  findSession,
  isAdminRole,
  SESSION_HEADER,
  SESSION_TTL_SECONDS,
  webCookies,
  type SessionOwner,
  type WebCookies,
} from '../core/auth/sessions.js';
import { writeLog } from '../core/audit.js';
import { withTransaction } from '../core/db/transaction.js';
import { unauthorized } from '../core/errors.js';
import { errorResponses, SuccessOnly, succeeded } from '../core/schemas.js';
import { EXTENSION, SessionResponse, SignInBody, tags } from './schemas.js';
import { checkSignIn, newDeviceValue } from './sign-in.js';

export { SIGN_IN_LIMITS } from './sign-in.js';

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

function setSessionCookie(reply: FastifyReply, cookies: WebCookies, value: string, maxAge: number): void {
  reply.setCookie(cookies.session, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: cookies.secure,
    maxAge,
  });
}

/** Marks the browser as a known device of the user (signed; sent only to the sign-in route). */
function setDeviceCookie(reply: FastifyReply, cookies: WebCookies, organizationId: number, userId: number): void {
  reply.setCookie(cookies.device, newDeviceValue(organizationId, userId), {
    path: '/app/session',
    httpOnly: true,
    sameSite: 'strict',
    secure: cookies.secure,
    maxAge: DEVICE_TTL_SECONDS,
    signed: true,
  });
}

const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** A cross-site form can post urlencoded fields here but cannot add this header (login CSRF). */
  async function requireSessionHeader(request: FastifyRequest): Promise<void> {
    if (request.headers[SESSION_HEADER] !== '1') throw unauthorized(`The ${SESSION_HEADER} header is required.`);
  }

  const cookiesOf = (request: FastifyRequest) => webCookies(request, app.config.sessionCookieSecure);
  const readSession = (request: FastifyRequest) =>
    findSession(app.db, app.config.secretKey, request.cookies[cookiesOf(request).session] ?? '');

  app.post(
    '/app/session',
    {
      preHandler: requireSessionHeader,
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
      const { organization_id } = request.body;
      const cookies = cookiesOf(request);
      const user = await checkSignIn(app.db, request, reply, cookies, request.body);
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
      setSessionCookie(reply, cookies, session.token, SESSION_TTL_SECONDS);
      setDeviceCookie(reply, cookies, organization_id, user.id);
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
      setSessionCookie(reply, cookiesOf(request), '', 0);
      return succeeded();
    },
  );
};

export default sessionRoutes;
