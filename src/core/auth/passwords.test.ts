import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useOrgs } from '../../../test/helpers/server.js';

/** Password rules and hashing (docs/security.md, "Passwords"): through PUT/PATCH /v1/users and the sign-in. */

const { server, org } = await useOrgs();

const userBody = (username: string, password: string) => ({
  username,
  first_name: 'Pass',
  last_name: 'Word',
  mail: `${username}@example.com`,
  password,
});

const storedHash = async (userId: number) =>
  (
    await server.app.db
      .selectFrom('user_account')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  ).password_hash;

const signIn = (username: string, password: string) =>
  server.request('POST', '/app/session', {
    body: { organization_id: org.orgId, username, password },
    headers: { 'x-crewplan-session': '1' },
  });

/** A hash as crewplan wrote them before Argon2id: scrypt N=16384, r=8, p=1. */
function legacyScryptHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 16_384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

describe('new passwords', () => {
  it('must be at least 12 characters, on create and on change', async () => {
    const created = await org.put('/users', userBody('short.pw', 'eleven-char'));
    expect(created).toAnswer(422, {
      status: 422,
      error: 'invalid_params',
      error_message: ['The password must be at least 12 characters.'],
    });
    const id = await org.createUser();
    const changed = await org.patch(`/users/${id}`, { password: 'only-eleven' });
    expect(changed).toAnswer(422, {
      status: 422,
      error: 'invalid_params',
      error_message: ['The password must be at least 12 characters.'],
    });
  });

  it('may not be one of the most common breached passwords, in any case', async () => {
    const expected = {
      status: 422,
      error: 'invalid_params',
      error_message: ['The password is one of the most commonly used passwords; choose another.'],
    };
    expect(await org.put('/users', userBody('common.pw', '1qaz2wsx3edc'))).toAnswer(422, expected);
    expect(await org.put('/users', userBody('common.pw', 'QWERTYUIOP123'))).toAnswer(422, expected);
    const id = await org.createUser();
    expect(await org.patch(`/users/${id}`, { password: 'Administrator' })).toAnswer(422, expected);
    expect((await org.get(`/users/${id}`)).status).toBe(200);
  });

  it('are stored as Argon2id with the OWASP parameters (m=19456 KiB, t=2, p=1)', async () => {
    const id = await org.createUser();
    expect(await storedHash(id)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w+/]{22}\$[\w+/]{43}$/);
  });
});

describe('sign-in with a hash of older parameters', () => {
  it('verifies an old scrypt hash and replaces it with an Argon2id one; a wrong password changes nothing', async () => {
    const id = await org.createUser({ username: 'legacy.hash' });
    const legacy = legacyScryptHash('an-old-password');
    await server.app.db.updateTable('user_account').set({ password_hash: legacy }).where('id', '=', id).execute();

    expect((await signIn('legacy.hash', 'not-the-password')).status).toBe(401);
    expect(await storedHash(id)).toBe(legacy);

    expect((await signIn('legacy.hash', 'an-old-password')).status).toBe(200);
    const upgraded = await storedHash(id);
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await signIn('legacy.hash', 'an-old-password')).status).toBe(200);
    expect(await storedHash(id)).toBe(upgraded);
  });

  it('upgrades an Argon2id hash of weaker parameters too', async () => {
    const id = await org.createUser({ username: 'weak.argon' });
    const { hash } = await import('@node-rs/argon2');
    const weak = await hash('a-weak-hash-password', { algorithm: 2, memoryCost: 8192, timeCost: 1, parallelism: 1 });
    await server.app.db.updateTable('user_account').set({ password_hash: weak }).where('id', '=', id).execute();
    expect((await signIn('weak.argon', 'a-weak-hash-password')).status).toBe(200);
    expect(await storedHash(id)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
