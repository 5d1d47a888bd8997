import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addressBucket, countAttempt, uncountAttempt } from '../core/auth/attempts.js';
import { passwordNeedsRehash, hashPassword, verifyPassword } from '../core/auth/secrets.js';
import { DEVICE_TTL_SECONDS, type WebCookies } from '../core/auth/sessions.js';
import {
  accountDelayKey,
  claimSignInAttempt,
  clearSignInDelay,
  deviceDelayKey,
  waitInWords,
} from '../core/auth/sign-in-delay.js';
import type { Db } from '../core/db/transaction.js';
import { tooManyRequests, unauthorized } from '../core/errors.js';
import { findSignInUser, replacePasswordHash } from './repository.js';

/**
 * How the web app's sign-in is limited (docs/security.md, "Sign-in"): a budget per client address
 * (an IPv6 /64 counts as one) in a window, and a progressive delay per account
 * (core/auth/sign-in-delay.ts) that a known device passes with the right password.
 */
export const SIGN_IN_LIMITS = { perAddress: 30, windowMs: 15 * 60_000 };

const FAILED_SIGN_IN = 'The organization, username or password is not correct.';

type SignInUser = NonNullable<Awaited<ReturnType<typeof findSignInUser>>>;

const addressKey = (request: FastifyRequest) => `sign-in-address:${addressBucket(request.ip)}`;

function delayed(reply: FastifyReply, retryAfterSeconds: number, what: string): Error {
  reply.header('Retry-After', retryAfterSeconds);
  return tooManyRequests(`${what} Try again in ${waitInWords(retryAfterSeconds)}.`);
}

/** The device cookie's value before signing: `d1.<organization>.<user>.<issued, unix seconds>.<nonce>`. */
export function newDeviceValue(organizationId: number, userId: number): string {
  const issued = Math.floor(Date.now() / 1000);
  return `d1.${organizationId}.${userId}.${issued}.${randomBytes(12).toString('base64url')}`;
}

/** The nonce of a valid, unexpired device cookie of this user, or undefined. */
function knownDevice(request: FastifyRequest, cookies: WebCookies, user: SignInUser, organizationId: number) {
  const raw = request.cookies[cookies.device];
  if (!raw) return undefined;
  const { valid, value } = request.unsignCookie(raw);
  const parts = valid ? (value ?? '').split('.') : [];
  if (parts.length !== 5 || parts[0] !== 'd1') return undefined;
  const [, org, userId, issued, nonce] = parts;
  const fresh = Date.now() / 1000 - Number(issued) < DEVICE_TTL_SECONDS;
  return Number(org) === organizationId && Number(userId) === user.id && fresh ? nonce : undefined;
}

/**
 * Checks a sign-in against the limits and the password; the user, or a thrown 429 / 401. A
 * success forgets the delay it passed (the account's, or the known device's when the account is
 * delayed: someone else may still be guessing) and gives the address its attempt back; a hash of
 * older parameters is replaced by one of today's.
 */
export async function checkSignIn(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  cookies: WebCookies,
  body: { organization_id: number; username: string; password: string },
): Promise<SignInUser> {
  const address = await countAttempt(db, addressKey(request), {
    max: SIGN_IN_LIMITS.perAddress,
    windowMs: SIGN_IN_LIMITS.windowMs,
  });
  if (!address.allowed) throw delayed(reply, address.retryAfterSeconds, 'Too many sign-in attempts from this network.');

  const user = await findSignInUser(db, body.organization_id, body.username);
  let passedKey = accountDelayKey(body.organization_id, body.username);
  const account = await claimSignInAttempt(db, passedKey);
  if (!account.allowed) {
    const device = user && knownDevice(request, cookies, user, body.organization_id);
    if (!device) throw delayed(reply, account.retryAfterSeconds, 'Too many failed sign-ins for this account.');
    passedKey = deviceDelayKey(body.organization_id, user.id, device);
    const claim = await claimSignInAttempt(db, passedKey);
    if (!claim.allowed) throw delayed(reply, claim.retryAfterSeconds, 'Too many failed sign-ins from this device.');
  }

  const valid = await verifyPassword(body.password, user?.password_hash ?? null);
  if (!user || !valid) throw unauthorized(FAILED_SIGN_IN);
  await clearSignInDelay(db, passedKey);
  await uncountAttempt(db, addressKey(request));
  if (user.password_hash && passwordNeedsRehash(user.password_hash)) {
    const upgraded = await hashPassword(body.password);
    await replacePasswordHash(db, body.organization_id, user.id, user.password_hash, upgraded);
  }
  return user;
}
