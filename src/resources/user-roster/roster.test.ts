import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { cli } from '../../../test/transfer/helpers.js';

let server: TestServer;
let org: TestOrg;
let existingId: number;
const ids: Record<string, number> = {};

const csv = (text: string, query = '') =>
  org.post(`/users/import${query}`, text, { headers: { 'content-type': 'text/csv' } });

async function usersByName(): Promise<Record<string, any>> {
  const users = (await org.get('/users')).body as Array<{ username: string }>;
  return Object.fromEntries(users.map((user) => [user.username, user]));
}

async function namesOf(path: string): Promise<string[]> {
  return ((await org.get(path)).body as Array<{ name: string }>).map((item) => item.name).sort();
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  existingId = await org.createUser({
    username: 'jdoe',
    first_name: 'John',
    last_name: 'Doe',
    employee_id: 'E-100',
    role: 'Firefighter',
  });
  for (const name of ['Paramedic', 'Driver', 'Captain'])
    expect((await org.post('/qualifiers', { name })).status).toBe(201);
  for (const q of (await org.get('/qualifiers')).body) ids[q.name] = Number(q.id);
  for (const name of ['A Shift', 'B Shift']) ids[name] = (await org.post('/groups', { name })).body.id;
});
afterAll(() => server.close());

const GOOD = [
  'Employee ID,Username,First Name,Last Name,Email,Phone,Role,Date of hire,Qualifiers,Groups',
  'E-100,,,,,,Captain,2015-04-01,Captain; Driver,A Shift',
  'E-200,asmith,Ann,Smith,ann@example.com,5551234,Firefighter,2021-06-15,Paramedic,B Shift',
  '"E-300",bjones,"Jones, Jr.",Bo,bo@example.com;bo.jones@example.com,,Firefighter,,,',
].join('\r\n');

describe('POST /users/import', () => {
  it('reports what a dry run would change and writes nothing', async () => {
    const before = await usersByName();
    const response = await csv(GOOD, '?dry_run=true');
    expect(response).toAnswer(200, {
      dry_run: true,
      created: 2,
      updated: 1,
      unchanged: 0,
      rows: [
        {
          line: 2,
          action: 'update',
          user_id: existingId,
          username: 'jdoe',
          changes: ['role', 'date_of_hire', 'qualifiers', 'groups'],
        },
        {
          line: 3,
          action: 'create',
          user_id: null,
          username: 'asmith',
          changes: [
            'employee_id',
            'username',
            'first_name',
            'last_name',
            'email',
            'phone',
            'role',
            'date_of_hire',
            'qualifiers',
            'groups',
          ],
        },
        {
          line: 4,
          action: 'create',
          user_id: null,
          username: 'bjones',
          changes: ['employee_id', 'username', 'first_name', 'last_name', 'email', 'role'],
        },
      ],
    });
    expect(await usersByName()).toEqual(before);
  });

  it('refuses a file with a bad row, naming each bad line, and writes nothing', async () => {
    const before = await usersByName();
    const logsBefore = (await org.get('/logs')).body.data.length;
    const response = await csv(
      [
        'employee_id,username,first_name,last_name,email,qualifiers,groups',
        'E-400,cgreen,Cy,Green,cy@example.com,Paramedic,A Shift',
        'E-500,dwhite,Di,White,not-an-email,Paramedic,',
        'E-600,eblack,Ed,Black,ed@example.com,Hazmat,C Shift',
        'E-700,,Fay,Gray,fay@example.com,,',
      ].join('\n'),
    );
    expect(response).toBeInvalid([
      'line 3: The email (item 1) is not a valid e-mail address.',
      'line 4: unknown qualifier "Hazmat".',
      'line 4: unknown group "C Shift".',
      'line 5: The username field is required for a new user.',
    ]);
    expect(await usersByName()).toEqual(before);
    expect((await org.get('/logs')).body.data.length).toBe(logsBefore);
  });

  it('names an unknown column and a malformed line', async () => {
    expect((await csv('username,nickname\njdoe,JD')).body.error_message).toEqual([
      'line 1: unknown column nickname (known: employee_id, username, first_name, last_name, email, phone, ' +
        'role, date_of_hire, date_of_birth, accrual_start_date, qualifiers, groups).',
    ]);
    const malformed = await csv('username,first_name\njdoe,"John\njsmith,Jane,extra');
    expect(malformed.status).toBe(422);
    expect(malformed.body.error_message[0]).toMatch(/^line \d+: /);
  });

  it('creates and updates users with their qualifiers and groups', async () => {
    const response = await csv(GOOD);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ dry_run: false, created: 2, updated: 1, unchanged: 0 });
    const users = await usersByName();
    expect(users.jdoe).toMatchObject({
      user_id: existingId,
      employee_id: 'E-100',
      first_name: 'John',
      role: 'Captain',
      date_of_hire: '2015-04-01',
    });
    expect(users.asmith).toMatchObject({
      employee_id: 'E-200',
      first_name: 'Ann',
      last_name: 'Smith',
      emails: ['ann@example.com'],
      phone_numbers: ['5551234'],
      role: 'Firefighter',
    });
    expect(users.bjones).toMatchObject({
      employee_id: 'E-300',
      first_name: 'Jones, Jr.',
      last_name: 'Bo',
      emails: ['bo@example.com', 'bo.jones@example.com'],
    });
    expect(response.body.rows.map((row: { user_id: number }) => row.user_id)).toEqual([
      existingId,
      users.asmith.user_id,
      users.bjones.user_id,
    ]);
    expect(await namesOf(`/users/${existingId}/qualifiers`)).toEqual(['Captain', 'Driver']);
    expect(await namesOf(`/users/${users.asmith.user_id}/qualifiers`)).toEqual(['Paramedic']);
    expect(await namesOf(`/users/${users.bjones.user_id}/qualifiers`)).toEqual([]);
    expect(await namesOf(`/users/${existingId}/groups`)).toEqual(['A Shift']);
    expect(await namesOf(`/users/${users.asmith.user_id}/groups`)).toEqual(['B Shift']);

    const again = await csv(GOOD);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it('matches by username when the row has no known employee id', async () => {
    const response = await csv('username,employee_id,last_name\nasmith,E-201,Smith-Lee');
    expect(response.body.rows).toEqual([
      {
        line: 2,
        action: 'update',
        user_id: expect.any(Number),
        username: 'asmith',
        changes: ['employee_id', 'last_name'],
      },
    ]);
    expect((await usersByName()).asmith).toMatchObject({ employee_id: 'E-201', last_name: 'Smith-Lee' });
  });

  it('refuses bytes that are not UTF-8, another declared charset, and a column named twice (F14)', async () => {
    const before = await usersByName();
    const send = async (body: Buffer, type: string) => {
      const response = await fetch(`${server.url}/v1/users/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.token}`, 'content-type': type },
        body,
      });
      return { status: response.status, body: await response.json() };
    };
    // "Zoë" saved as Windows-1252: 0xEB is no UTF-8
    const latin1 = Buffer.concat([
      Buffer.from('username,first_name,last_name,email\nzoe1,Zo'),
      Buffer.from([0xeb]),
      Buffer.from(',Ng,zoe@example.com\n'),
    ]);
    expect(await send(latin1, 'text/csv')).toEqual({
      status: 400,
      body: {
        status: 400,
        error: 'bad_request',
        error_message: 'The roster is not valid UTF-8: line 2, byte 44 (0xeb). Save the file as "CSV UTF-8".',
      },
    });
    expect(await send(latin1, 'text/csv; charset=windows-1252')).toEqual({
      status: 415,
      body: {
        status: 415,
        error: 'unsupported_media_type',
        error_message:
          'A roster CSV must be UTF-8; the charset windows-1252 is not supported. Save the file as "CSV UTF-8".',
      },
    });
    const utf8 = Buffer.from('username,first_name,last_name,email\nzoe2,Zoë,Ng,zoe@example.com\n');
    expect((await send(utf8, 'text/csv; charset=UTF-8')).status).toBe(200);
    expect((await usersByName()).zoe2).toMatchObject({ first_name: 'Zoë' });
    const twice = await csv('username,First Name,first_name,last_name,email\nzoe3,A,B,Ng,z3@example.com');
    expect(twice.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['line 1: the column first_name appears more than once; each column may appear once.'],
    });
    const after = await usersByName();
    expect(Object.keys(after).sort()).toEqual([...Object.keys(before), 'zoe2'].sort());
  });

  it('refuses a body that is not CSV text', async () => {
    const response = await org.post('/users/import', { username: 'x' });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('invalid_params');
  });

  it('needs a token', async () => {
    await expectAuthRequired(server, 'POST', '/users/import');
  });

  it('is for admins: a web app user who is not one gets 403', async () => {
    const memberId = await org.createUser({ username: 'member1', role: 'Firefighter', password: 'secret-password' });
    const signIn = await server.request('POST', '/app/session', {
      body: { organization_id: org.orgId, username: 'member1', password: 'secret-password' },
      headers: { 'x-crewplan-session': '1' },
    });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
    const response = await server.request('POST', '/users/import', {
      body: 'username,role\nmember1,Admin',
      headers: { cookie, 'x-crewplan-session': '1', 'content-type': 'text/csv' },
    });
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('forbidden');
    expect((await org.get(`/users/${memberId}`)).body.role).toBe('Firefighter');
  });
});

describe('GET /users/export (issue 41, F14)', () => {
  it('writes the roster as CSV, every formula-leading cell neutralised, in the form the import reads', async () => {
    const sheet = await server.newOrg();
    for (const [username, first, last, role] of [
      ['calc1', '=HYPERLINK("http://evil.example","x")', 'Plus', '+1+1'],
      ['calc2', '-2', '@SUM(A1)', '\tTab'],
      ['calc3', '\rReturn', 'Plain, "quoted"', 'Firefighter'],
    ])
      await sheet.createUser({ username, first_name: first, last_name: last, role, mail: `${username}@example.com` });
    const response = await fetch(`${server.url}/v1/users/export`, {
      headers: { authorization: `Bearer ${sheet.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await response.text();
    const [header, ...rows] = text.split('\r\n');
    expect(header).toBe(
      'employee_id,username,first_name,last_name,email,phone,role,date_of_hire,date_of_birth,accrual_start_date',
    );
    expect(rows.sort()).toEqual(
      [
        '',
        `,calc1,"'=HYPERLINK(""http://evil.example"",""x"")",Plus,calc1@example.com,,'+1+1,,,`,
        `,calc2,'-2,'@SUM(A1),calc2@example.com,,'\tTab,,,`,
        `,calc3,"'\rReturn","Plain, ""quoted""",calc3@example.com,,Firefighter,,,`,
      ].sort(),
    );
  });
});

describe('a big roster import (issue 41, F5)', () => {
  it("holds the writer a batch at a time: another organization's write ends before the import", async () => {
    const big = await server.newOrg();
    const neighbour = await server.newOrg();
    const rows = Array.from({ length: 3000 }, (_, i) => `big${i},Big,Number${i},big${i}@example.com`);
    const order: string[] = [];
    const importing = big
      .post('/users/import', ['username,first_name,last_name,email', ...rows].join('\n'), {
        headers: { 'content-type': 'text/csv' },
      })
      .then((response) => {
        order.push('import');
        return response;
      });
    // the first batch is visible while the rest is still being written
    let seen = 0;
    while (seen === 0 && order.length === 0) seen = (await big.get('/users')).body.length;
    const neighbourWrite = await neighbour.put('/users', {
      username: 'next-door',
      first_name: 'Next',
      last_name: 'Door',
      mail: 'next@example.com',
      password: 'secret-password',
    });
    order.push('neighbour');
    const imported = await importing;
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toMatchObject({ dry_run: false, created: 3000, updated: 0, unchanged: 0 });
    expect(neighbourWrite.status).toBe(201);
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(3000);
    expect(order).toEqual(['neighbour', 'import']);
    expect((await big.get('/users')).body.length).toBe(3000);
  }, 120_000);

  it('allows an organization 10 imports that write an hour, then answers 429 with Retry-After', async () => {
    const busy = await server.newOrg();
    const roster = (i: number) => `username,first_name,last_name,email\nrate${i},Rate,Limit,rate${i}@example.com`;
    const post = (text: string, query = '') =>
      busy.post(`/users/import${query}`, text, { headers: { 'content-type': 'text/csv' } });
    // dry runs and refused rosters are not counted
    expect((await post(roster(0), '?dry_run=true')).status).toBe(200);
    expect((await post('username,nickname\nx,y')).status).toBe(422);
    for (let i = 1; i <= 10; i += 1) expect((await post(roster(i))).status).toBe(200);
    const refused = await post(roster(11));
    expect(refused.body).toEqual({
      status: 429,
      error: 'too_many_requests',
      error_message: expect.stringMatching(/^At most 10 roster imports an hour; retry in \d+ seconds\.$/),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await busy.get('/users')).body.map((user: { username: string }) => user.username)).not.toContain('rate11');
    // another organization has its own budget
    expect((await org.post('/users/import', roster(12), { headers: { 'content-type': 'text/csv' } })).status).toBe(200);
  });
});

describe('users import (CLI)', () => {
  it('imports a roster into the database of a running server, which shows it at once', async () => {
    expect(Object.keys(await usersByName())).not.toContain('gcli'); // GET /users computed and kept
    const roster = 'username,first_name,last_name,email,groups\ngcli,Gus,Cli,gus@example.com,A Shift\n';
    const dry = JSON.parse(
      (await cli(server, ['users', 'import', '--org', String(org.orgId), '--dry-run', '--json'], roster)).stdout,
    );
    expect(dry).toMatchObject({ dry_run: true, created: 1 });
    await expect(
      cli(
        server,
        ['users', 'import', '--org', String(org.orgId)],
        'username,first_name,last_name,email\nhcli,Hal,Cli,nope\n',
      ),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('line 2: The email (item 1) is not a valid e-mail address.'),
    });
    const { stdout } = await cli(server, ['users', 'import', '--org', String(org.orgId), '-'], roster);
    expect(stdout).toContain('created 1, updated 0');
    const users = await usersByName();
    expect(users.gcli).toMatchObject({ first_name: 'Gus', emails: ['gus@example.com'] });
    expect(users).not.toHaveProperty('hcli');
    expect(await namesOf(`/users/${users.gcli.user_id}/groups`)).toEqual(['A Shift']);
  }, 120_000);
});
