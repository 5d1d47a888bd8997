import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';

/**
 * Loose input is refused rather than read as something else (docs/security.md, "Strict input"):
 * a JSON body in another charset or not valid UTF-8.
 */

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server?.close());

const userBody = (username: string) => ({ username, first_name: 'Strict', last_name: 'Input', mail: `${username}@example.com`, password: 'secret-password' });

async function usersNamed(username: string): Promise<number> {
  return (await org.get('/users')).body.filter((u: { username: string }) => u.username === username).length;
}

describe('the charset of a JSON body', () => {
  it('refuses a declared charset other than UTF-8 with 415, writing nothing', async () => {
    for (const charset of ['utf-16', 'iso-8859-1', 'UTF-16LE']) {
      const response = await org.put('/users', JSON.stringify(userBody('charset_user')), { headers: { 'content-type': `application/json; charset=${charset}` } });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({ status: 415, error: 'unsupported_media_type', error_message: `A JSON body must be UTF-8; the charset ${charset.toLowerCase()} is not supported.` });
    }
    expect(await usersNamed('charset_user')).toBe(0);
  });

  it('accepts UTF-8 declared in any case, or no charset', async () => {
    for (const [n, type] of ['application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/json'].entries()) {
      const response = await org.put('/users', JSON.stringify({ ...userBody(`utf8_user_${n}`), first_name: 'Zoë' }), { headers: { 'content-type': type } });
      expect(response.status, response.text).toBe(201);
    }
  });

  it('refuses bytes that are not valid UTF-8 with 400 instead of reading them as U+FFFD', async () => {
    const valid = Buffer.from(JSON.stringify(userBody('bad_bytes_user')));
    const body = Buffer.concat([valid.subarray(0, 20), Buffer.from([0xff, 0xfe, 0xc3]), valid.subarray(20)]);
    const response = await fetch(`${server.url}/v1/users`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${org.token}` },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: 400, error: 'bad_request', error_message: 'The request body is not valid UTF-8.' });
    expect(await usersNamed('bad_bytes_user')).toBe(0);
  });
});
