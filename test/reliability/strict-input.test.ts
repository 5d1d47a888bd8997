import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';

/**
 * Loose input is refused rather than read as something else (docs/security.md, "Strict input"):
 * wrong JSON types, numbers in a query string that are not plain decimal text, a JSON body in
 * another charset or not valid UTF-8. What the spec's clients send stays accepted.
 */

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server?.close());

const userBody = (username: string) => ({
  username,
  first_name: 'Strict',
  last_name: 'Input',
  mail: `${username}@example.com`,
  password: 'secret-password',
});

async function usersNamed(username: string): Promise<number> {
  return (await org.get('/users')).body.filter((u: { username: string }) => u.username === username).length;
}

describe('the charset of a JSON body', () => {
  it('refuses a declared charset other than UTF-8 with 415, writing nothing', async () => {
    for (const charset of ['utf-16', 'iso-8859-1', 'UTF-16LE']) {
      const response = await org.put('/users', JSON.stringify(userBody('charset_user')), {
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        status: 415,
        error: 'unsupported_media_type',
        error_message: `A JSON body must be UTF-8; the charset ${charset.toLowerCase()} is not supported.`,
      });
    }
    expect(await usersNamed('charset_user')).toBe(0);
  });

  it('accepts UTF-8 declared in any case, or no charset', async () => {
    for (const [n, type] of [
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
      'application/json',
    ].entries()) {
      const response = await org.put('/users', JSON.stringify({ ...userBody(`utf8_user_${n}`), first_name: 'Zoë' }), {
        headers: { 'content-type': type },
      });
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
    expect(await response.json()).toEqual({
      status: 400,
      error: 'bad_request',
      error_message: 'The request body is not valid UTF-8.',
    });
    expect(await usersNamed('bad_bytes_user')).toBe(0);
  });
});

describe('JSON types in a body', () => {
  const invalid = (...messages: string[]) => ({ status: 422, error: 'invalid_params', error_message: messages });

  it('refuses true, a fraction, an array or text that is not digits for an id, writing nothing', async () => {
    const admin = await org.createUser();
    for (const [adminId, message] of [
      [true, 'The admin id field must be a whole number or text.'],
      [[admin], 'The admin id field must be a whole number or text.'],
      [`${admin}.0`, 'The admin id field must be a whole number.'],
      ['0x10', 'The admin id field must be a whole number.'],
      [1.5, 'The admin id field must be a whole number or text.'],
    ] as const) {
      const response = await org.put('/bulletin_board', { admin_id: adminId, content: '<p>loose</p>' });
      expect(response.body, JSON.stringify(adminId)).toEqual(invalid(message));
    }
    expect((await org.get('/bulletin_board')).body.content ?? '').not.toContain('loose');
  });

  it("accepts an id as an integer or as its digits, as the spec's clients send it", async () => {
    const admin = await org.createUser();
    expect((await org.put('/bulletin_board', { admin_id: admin, content: '<p>integer</p>' })).status).toBe(200);
    expect((await org.put('/bulletin_board', { admin_id: String(admin), content: '<p>digits</p>' })).status).toBe(200);
  });

  it('refuses an array for a string instead of reading its one element', async () => {
    const response = await org.put('/users', { ...userBody('array_name'), first_name: ['Ann'] });
    expect(response.body).toEqual(invalid('The first name field must be text.'));
    expect(await usersNamed('array_name')).toBe(0);
  });

  it("refuses a number or text for a boolean, and accepts 0/1 where the spec's samples send them", async () => {
    const text = await org.post('/work_types', { label: 'Loose flag', excludes_from_callback: 'true' });
    expect(text.body).toEqual(invalid('The excludes from callback field must be true or false.'));
    const number = await org.post('/work_types', { label: 'Loose flag', excludes_from_callback: 1 });
    expect(number.body).toEqual(invalid('The excludes from callback field must be true or false.'));
    expect((await org.get('/work_types')).body.some((type: { label: string }) => type.label === 'Loose flag')).toBe(
      false,
    );

    // time off types document 1/0 and "true"/"false"; ready alerts send `email: 0` (sample)
    const flags = await org.post('/time_off_types', { label: 'Flags', forward: 1, force_include: 'false' });
    expect(flags.status).toBe(201);
    expect((await org.get(`/time_off_types/${flags.body.id}`)).body).toMatchObject({
      forward: true,
      force_include: false,
    });
    const other = await org.post('/time_off_types', { label: 'Other flags', forward: 2 });
    expect(other.body).toEqual(invalid('The selected forward is invalid.'));
  });

  it('refuses a number sent as text where the field is a number', async () => {
    const response = await org.post('/work_types', { label: 'Positioned', position: '3' });
    expect(response.status).toBe(422);
  });

  it('still reads an empty string for a nullable field as null', async () => {
    const created = await org.post('/work_types', { label: 'Coded', work_code: 'CD' });
    expect(created.status).toBe(201);
    expect((await org.patch(`/work_types/${created.body.id}`, { work_code: '' })).status).toBe(200);
    expect((await org.get(`/work_types/${created.body.id}`)).body.work_code).toBeNull();
  });
});

describe('numbers in a query string', () => {
  it('are plain decimal integers: 1e400, 0x10, 1.0, " 1" and 1e1 are refused with 422 naming the field', async () => {
    const user = await org.createUser();
    for (const value of ['1e400', '0x10', '1.0', ' 1', '1e1', '+1', '']) {
      const response = await org.get('/shifts', { query: { user_id: value } });
      expect(response.body, value).toEqual({
        status: 422,
        error: 'invalid_params',
        error_message: ['The user id parameter must be a whole number.'],
      });
    }
    expect((await org.get('/shifts', { query: { user_id: String(user) } })).status).toBe(200);
  });

  it('applies to every integer parameter, not only ids', async () => {
    const refused = await org.get('/announcements', { query: { limit: '0x10' } });
    expect(refused.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The limit parameter must be a whole number.'],
    });
    expect((await org.get('/announcements', { query: { limit: '16' } })).status).toBe(200);
  });
});
