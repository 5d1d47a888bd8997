import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';

/** The foundation's error classes, each in the spec's {status, error, error_message} format. */

const BODY_LIMIT = 4096;

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startServer({ bodyLimitBytes: BODY_LIMIT });
  org = await server.newOrg();
});
afterAll(() => server?.close());

describe('unknown route', () => {
  it('answers 404 in the error format', async () => {
    const response = await org.get('/no-such-resource');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      status: 404,
      error: 'not found',
      error_message: 'The requested route does not exist.',
    });
  });
});

describe('a path that is not valid percent-encoding', () => {
  it('answers 400 in the error format', async () => {
    for (const path of ['/v1/%zz', '/v1/signup_events/1/users/%zz', '/v1/logs/%E0%A4%A']) {
      const response = await org.get(path);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        status: 400,
        error: 'bad_request',
        error_message: 'The request URL is not valid.',
      });
    }
  });
});

describe('wrong method on a known route', () => {
  it('answers 405 with an Allow header listing the methods of the route', async () => {
    const response = await org.request('POST', `/users/${await org.createUser()}`, {});
    expect(response.status).toBe(405);
    expect(response.body).toEqual({
      status: 405,
      error: 'method_not_allowed',
      error_message: 'The POST method is not supported for this route.',
    });
    expect(response.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
  });
});

describe('malformed JSON body', () => {
  it('answers 400 without touching the handler', async () => {
    const response = await org.put('/users', '{"username": "broken",');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 400,
      error: 'bad_request',
      error_message: 'The request body is not valid JSON.',
    });
  });
});

describe('messages that name what is wrong (issue 41, F17)', () => {
  it('answers a __proto__ key, in otherwise valid JSON, by naming the key', async () => {
    const response = await org.put('/users', '{"first_name": "A", "__proto__": {"admin": true}}');
    expect(response.body).toEqual({
      status: 400,
      error: 'bad_request',
      error_message: 'The request body may not use the key __proto__.',
    });
  });

  it('answers a value outside a nullable choice as an invalid choice, not "must be null"', async () => {
    const userId = await org.createUser();
    const response = await org.put(`/users/${userId}/callback_settings`, { contact_method: 'Fax' });
    expect(response.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The selected contact method is invalid.'],
    });
    const wrongType = await org.put(`/users/${userId}/callback_settings`, { contact_method: 5 });
    expect(wrongType.body.error_message).toEqual(['The contact method field must be text or null.']);
  });
});

describe('unreadable token request', () => {
  it('answers a malformed JSON body with 400 invalid_request in the token-error format', async () => {
    const response = await server.request('POST', '/oauth/access_token', { body: '{bad' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 400,
      error: 'invalid_request',
      error_message: 'The request body is not valid JSON.',
      error_description: 'The request body is not valid JSON.',
    });
  });

  it('answers a parameter beyond its length with 400 invalid_request, not 422', async () => {
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: 'x'.repeat(300), client_secret: 'y' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 400,
      error: 'invalid_request',
      error_message: 'The client id may not be greater than 255 characters.',
      error_description: 'The client id may not be greater than 255 characters.',
    });
  });
});

describe('the NUL character (U+0000), which PostgreSQL cannot store', () => {
  const refused = {
    status: 422,
    error: 'invalid_params',
    error_message: ['The request may not contain the NUL character (U+0000).'],
  };

  it('is refused in a JSON body with 422 on both engines, writing nothing', async () => {
    const response = await org.put('/users', {
      username: 'nul_user',
      first_name: 'A\u0000B',
      last_name: 'C',
      mail: 'nul@example.com',
      password: 'secret-password',
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(refused);
    const rows = await server.app.db
      .selectFrom('user_account')
      .select('id')
      .where('username', '=', 'nul_user')
      .execute();
    expect(rows).toEqual([]);
  });

  it('is refused in a query string', async () => {
    const response = await org.get('/users', { query: { q: 'a\u0000' } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(refused);
  });

  it('is looked for in a body of many values without failing (a 1 MiB array of numbers)', async () => {
    const big = await startServer();
    try {
      const bigOrg = await big.newOrg();
      const response = await bigOrg.put('/users', `[${Array(400_000).fill('0').join(',')}]`);
      expect(response.status).toBe(422);
      expect(response.body.error).toBe('invalid_params');
    } finally {
      await big.close();
    }
  });

  it('is an invalid_request at the token endpoint', async () => {
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: 'cp_\u0000', client_secret: 'x' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 400,
      error: 'invalid_request',
      error_message: refused.error_message[0],
      error_description: refused.error_message[0],
    });
  });
});

describe('body larger than the limit', () => {
  it('answers 413 in the error format', async () => {
    const response = await org.put('/users', { username: 'big', first_name: 'x'.repeat(BODY_LIMIT * 2) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ status: 413, error: 'payload_too_large', error_message: expect.any(String) });
  });

  it('applies to form-encoded bodies too', async () => {
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: 'x'.repeat(BODY_LIMIT * 2), client_secret: 'y' },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ status: 413, error: 'payload_too_large', error_message: expect.any(String) });
  });
});

describe('schema violation', () => {
  it('answers 422 invalid_params with an array of readable messages', async () => {
    const response = await org.put('/users', { username: 'someone', first_name: 42 });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: expect.arrayContaining([expect.stringMatching(/^The .+\.$/)]),
    });
    expect(response.body.error_message.length).toBeGreaterThan(0);
  });

  it("writes one message per field that matches no branch of a union, in the samples' style", async () => {
    // A status is 0 or 1; admin ids an array or one id: Ajv reports each branch plus the anyOf itself.
    const userId = await org.createUser();
    const typeId = (await org.post('/time_off_types', { label: 'Vacation' })).body.id;
    const base = {
      user_id: userId,
      admin_ids: [userId],
      start_date: '2031-05-02 07:00:00',
      end_date: '2031-05-03 07:00:00',
      time_off_type_id: typeId,
    };
    const status = await org.post('/time_offs', { ...base, status: 2 });
    expect(status.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The selected status is invalid.'],
    });
    const admins = await org.post('/time_offs', { ...base, admin_ids: 'x' });
    expect(admins.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The admin ids field must be a whole number.'],
    });
    // a nullable text: a number is of neither type; too long text breaks the text's own rule
    const shift = { assignment_id: 1, user_id: userId, date: '2031-05-02', start: '2031-05-02 07:00:00' };
    const number = await org.post('/shifts', { ...shift, end: '2031-05-02 19:00:00', work_type_id: 1, notes: 5 });
    expect(number.body.error_message).toContain('The notes field must be text or null.');
    const role = await org.patch(`/users/${userId}`, { role: 'x'.repeat(256), employee_id: 7 });
    expect(role.body.error_message).toEqual([
      'The employee id field must be text or null.',
      'The role may not be greater than 255 characters.',
    ]);
    // one trade where a list of trades is also taken: every refused field of the trade is named
    const trade = await org.post('/trades', {
      requesting_user: 'abc',
      start: 'tomorrow',
      end: '2031-05-03 07:00:00',
      approving_user_id: userId,
      notes: 5,
    });
    expect(trade.body.error_message).toEqual([
      'The requesting user field must be a whole number.',
      'The start is not a valid date and time (YYYY-MM-DD hh:mm:ss).',
      'The notes field must be text or null.',
    ]);
    const empty = await org.post('/time_offs', { ...base, admin_ids: [] });
    expect(empty.body.error_message).toEqual(['The admin ids must have at least 1 item.']);
    const filter = await org.get('/signup_events', { query: { status: 'bogus' } });
    expect(filter.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The selected status parameter is invalid.'],
    });
  });

  it('names every field that fails, one message each', async () => {
    const response = await org.put('/users', {
      last_name: 'B',
      mail: 'not-an-address',
      first_name: 42,
      phone_numbers: ['a'],
    });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual(
      expect.arrayContaining([
        'The username field is required.',
        'The password field is required.',
        expect.stringMatching(/^The mail /),
        expect.stringMatching(/^The phone numbers/),
      ]),
    );
  });

  it('says what a field must hold in words, never as a regex or a schema name', async () => {
    const base = {
      username: 'phone',
      first_name: 'P',
      last_name: 'N',
      mail: 'p@example.org',
      password: 'secret-password',
    };
    const phone = await org.put('/users', { ...base, phone_numbers: '12a' });
    expect(phone.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The phone numbers must contain only digits (up to 20).'],
    });
    const listed = await org.put('/users', { ...base, phone_numbers: ['555', 'x'] });
    expect(listed.body.error_message).toEqual(['The phone numbers (item 2) must contain only digits (up to 20).']);
    const after = await org.get('/logs', { query: { after: 'soon' } });
    expect(after.body.error_message).toEqual([
      'The after parameter must be a date and time such as 2026-03-08 07:00:00 (or with its offset: 2026-03-08T07:00:00-06:00).',
    ]);
    const start = await org.get('/time_offs', { query: { start: 'monday', end: '2031-05-03 00:00:00' } });
    expect(start.body.error_message).toEqual([
      'The start parameter is not a valid date and time (YYYY-MM-DD hh:mm:ss).',
    ]);
    const missing = await org.get('/time_offs', { query: { end: '2031-05-03 00:00:00' } });
    expect(missing.body.error_message).toEqual(['The start parameter is required.']);
    for (const response of [phone, listed, after, start, missing])
      expect(JSON.stringify(response.body)).not.toMatch(/pattern|\^|local-datetime|must match/);
  });

  it('reports every failing field of a new time off in one 422: a missing field hides none of the rules', async () => {
    const userId = await org.createUser();
    const reversed = {
      user_id: userId,
      start_date: '2031-05-03 07:00:00',
      end_date: '2031-05-02 07:00:00',
      time_off_type_id: 999_999,
    };
    const withoutAdmins = await org.post('/time_offs', reversed);
    expect(withoutAdmins.status).toBe(422);
    expect(withoutAdmins.body.error_message).toEqual([
      'The admin ids field is required.',
      'The end date must be after the start date.',
      'The selected time off type id is invalid.',
    ]);
    const withAdmins = await org.post('/time_offs', { ...reversed, admin_ids: [userId], user_id: 999_998 });
    expect(withAdmins.body.error_message).toEqual([
      'The end date must be after the start date.',
      'The selected user id is invalid.',
      'The selected time off type id is invalid.',
    ]);
    expect(
      (await org.get('/time_offs', { query: { start: '2031-05-01 00:00:00', end: '2031-05-05 00:00:00' } })).body.items,
    ).toEqual([]);
  });

  it('answers 404 for an id path parameter that is not a number: no record has it', async () => {
    const response = await org.get('/users/abc');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      status: 404,
      error: 'not found',
      error_message: 'No query results for model [User].',
    });
  });

  it('answers 404 for an id beyond the integer range rather than a database error', async () => {
    const response = await org.get('/users/99999999999999999999');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      status: 404,
      error: 'not found',
      error_message: 'No query results for model [User].',
    });
  });
});

describe('request line or headers too large for the HTTP parser', () => {
  it('answers 431 in the error format', async () => {
    const response = await org.get('/users', { query: { q: 'x'.repeat(20_000) } });
    expect(response.status).toBe(431);
    expect(response.body).toEqual({
      status: 431,
      error: 'request_header_fields_too_large',
      error_message: 'The request line or headers are too large.',
    });
  });
});
