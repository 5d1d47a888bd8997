import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let userId: number;
const ids: Record<string, number> = {};

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from('1 0 obj <<>> endobj\n%%EOF\n')]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const DOC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);

beforeAll(async () => {
  server = await startServer({ uploadLimitBytes: 1024 });
  org = await server.newOrg();
  other = await server.newOrg();
  userId = await org.createUser({ first_name: 'Boss', last_name: 'Doe' });
  const adminId = await org.createUser();
  ids.captainList = (await org.post('/lists', { name: 'Captain' })).body.id;
  ids.ffList = (await org.post('/lists', { name: 'Firefighter' })).body.id;
  ids.rescue = (await org.post('/filters', { label: 'Rescue' })).body.id;
  ids.dive = (await org.post('/filters', { label: 'Dive' })).body.id;
  ids.platoon = (await org.post('/groups', { name: 'Platoon 1' })).body.id;
  ids.aShift = (await org.post('/groups', { name: 'A Shift' })).body.id;
  await org.post('/qualifiers', { name: 'Chief', shortcode: 'CHF' });
  await org.post('/qualifiers', { name: 'Captains', shortcode: 'CPT' });
  await org.post('/qualifiers', { name: 'Firefighters', shortcode: 'FF-01' });
  for (const q of (await org.get('/qualifiers')).body) ids[q.shortcode] = q.id;
  ids.cpr = (await org.post('/certifications', { name: 'CPR', cert_id: 'CPR', created_by: adminId })).body.id;
  ids.hazmat = (await org.post('/certifications', { name: 'Hazmat', cert_id: 'HZ', created_by: adminId })).body.id;
});
afterAll(() => server.close());

describe('PUT /users/{user_id}/titles', () => {
  it('replaces the callback lists of the user', async () => {
    const response = await org.put(`/users/${userId}/titles`, { ids: [ids.captainList, ids.ffList] });
    expect(response).toAnswer(200, { success: true });
    await org.put(`/users/${userId}/titles`, { ids: [ids.ffList] });
    const read = await org.get(`/users/${userId}/titles`);
    expect(read.body.map((l: { id: number }) => l.id)).toEqual([ids.ffList]);
  });

  it('refuses unknown list ids and changes nothing', async () => {
    const response = await org.put(`/users/${userId}/titles`, { ids: [ids.captainList, 999999] });
    expect(response).toBeInvalid(['The selected title id is invalid.']);
    expect((await org.get(`/users/${userId}/titles`)).body.map((l: { id: number }) => l.id)).toEqual([ids.ffList]);
  });

  it('answers 404 for another organization and requires a token', async () => {
    await expectNotFoundForOtherOrg(other, 'PUT', `/users/${userId}/titles`, { ids: [] });
    await expectAuthRequired(server, 'PUT', `/users/${userId}/titles`, { ids: [] });
  });
});

describe('GET /users/{user_id}/titles', () => {
  it('lists the user lists as GET /lists shows them', async () => {
    const response = await org.get(`/users/${userId}/titles`);
    expect(response).toAnswer(200, [
      {
        id: ids.ffList,
        name: 'Firefighter',
        max_consecutive_hours: 0,
        weekly_limit: 0,
        monthly_limit: 0,
        yearly_limit: 0,
        position: 2,
      },
    ]);
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}/titles`);
  });
});

/** PUT /users/{user_id}/<what> answers success for known ids and names an unknown one. */
async function expectReplaced(what: string, known: number[], kind: string) {
  expect(await org.put(`/users/${userId}/${what}`, { ids: known })).toAnswer(200, { success: true });
  const unknown = await org.put(`/users/${userId}/${what}`, { ids: [999999] });
  expect(unknown.body.error_message).toEqual([`The selected ${kind} id is invalid.`]);
}

describe('PUT /users/{user_id}/filters', () => {
  it('replaces the filters of the user', async () => {
    await expectReplaced('filters', [ids.rescue, ids.dive], 'filter');
    await expectNotFoundForOtherOrg(other, 'PUT', `/users/${userId}/filters`, { ids: [] });
  });
});

describe('GET /users/{user_id}/filters', () => {
  it('lists the user filters; a deleted filter drops out', async () => {
    await org.del(`/filters/${ids.dive}`);
    const response = await org.get(`/users/${userId}/filters`);
    expect(response).toAnswer(200, [
      { id: String(ids.rescue), label: 'Rescue', created_on: expect.any(String), user: null },
    ]);
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}/filters`);
  });
});

describe('PUT /users/{user_id}/groups', () => {
  it('replaces the groups of the user', async () => {
    await expectReplaced('groups', [ids.platoon, ids.aShift], 'group');
    expect((await org.put(`/users/${userId}/groups`, {})).status).toBe(422);
  });
});

describe('GET /users/{user_id}/groups', () => {
  it('lists the groups as {id, name}', async () => {
    const response = await org.get(`/users/${userId}/groups`);
    expect(response).toAnswer(200, [
      { id: ids.aShift, name: 'A Shift' },
      { id: ids.platoon, name: 'Platoon 1' },
    ]);
    expect(await org.get('/users/999999/groups')).toBeNotFound('User');
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}/groups`);
    await expectAuthRequired(server, 'GET', `/users/${userId}/groups`);
  });
});

describe('POST /users/{user_id}/qualifiers', () => {
  it('adds a qualifier at the end of the list by default', async () => {
    const response = await org.post(`/users/${userId}/qualifiers`, { id: ids.CPT });
    expect(response).toSucceed(201, 'Added user Boss Doe to qualifier Captains.');
    await org.post(`/users/${userId}/qualifiers`, { id: ids['FF-01'] });
    expect((await org.get(`/users/${userId}/qualifiers`)).body).toEqual([
      { id: ids.CPT, name: 'Captains', shortcode: 'CPT', ranking: 1 },
      { id: ids['FF-01'], name: 'Firefighters', shortcode: 'FF-01', ranking: 2 },
    ]);
  });

  it('refuses an unknown qualifier and one the user already has', async () => {
    expect(await org.post(`/users/${userId}/qualifiers`, { id: 999999 })).toBeInvalid([
      'The selected qualifier id is invalid.',
    ]);
    expect(await org.post(`/users/${userId}/qualifiers`, { id: ids.CPT })).toBeInvalid([
      'User Boss Doe already has qualifier Captains.',
    ]);
  });

  it('answers 404 for another organization and requires a token', async () => {
    await expectNotFoundForOtherOrg(other, 'POST', `/users/${userId}/qualifiers`, { id: ids.CHF });
    await expectAuthRequired(server, 'POST', `/users/${userId}/qualifiers`, { id: ids.CHF });
  });
});

describe('GET /users/{user_id}/qualifiers', () => {
  it('orders by ranking and hides deleted qualifiers', async () => {
    await org.post(`/users/${userId}/qualifiers`, { id: ids.CHF, ranking: 0 });
    await org.del(`/qualifiers/${ids['FF-01']}`);
    const response = await org.get(`/users/${userId}/qualifiers`);
    expect(response.body).toEqual([
      { id: ids.CHF, name: 'Chief', shortcode: 'CHF', ranking: 0 },
      { id: ids.CPT, name: 'Captains', shortcode: 'CPT', ranking: 1 },
    ]);
    await org.put(`/qualifiers/${ids['FF-01']}`, { undelete: 1 });
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}/qualifiers`);
  });
});

describe('PUT /users/{user_id}/qualifiers', () => {
  it('replaces all qualifiers with their rankings (position when left out)', async () => {
    const response = await org.put(`/users/${userId}/qualifiers`, {
      ids: [{ id: ids['FF-01'], ranking: 5 }, { id: ids.CHF }],
    });
    expect(response).toSucceed(200, 'Replaced user qualifiers.');
    expect((await org.get(`/users/${userId}/qualifiers`)).body).toEqual([
      { id: ids.CHF, name: 'Chief', shortcode: 'CHF', ranking: 2 },
      { id: ids['FF-01'], name: 'Firefighters', shortcode: 'FF-01', ranking: 5 },
    ]);
  });

  it('refuses unknown and duplicate ids', async () => {
    expect((await org.put(`/users/${userId}/qualifiers`, { ids: [{ id: 999999 }] })).status).toBe(422);
    expect((await org.put(`/users/${userId}/qualifiers`, { ids: [{ id: ids.CHF }, { id: ids.CHF }] })).status).toBe(
      422,
    );
    expect((await org.get(`/users/${userId}/qualifiers`)).body).toHaveLength(2);
  });
});

describe('DELETE /users/{user_id}/qualifiers/{id}', () => {
  it('removes one qualifier from the user', async () => {
    const response = await org.del(`/users/${userId}/qualifiers/${ids.CHF}`);
    expect(response).toSucceed(200, 'Removed user Boss Doe from qualifier Chief.');
    expect((await org.get(`/users/${userId}/qualifiers`)).body.map((q: { id: number }) => q.id)).toEqual([
      ids['FF-01'],
    ]);
  });

  it('answers 404 when the user does not have it, and for another organization', async () => {
    expect(await org.del(`/users/${userId}/qualifiers/${ids.CHF}`)).toBeNotFound('UserQualifier');
    await expectNotFoundForOtherOrg(other, 'DELETE', `/users/${userId}/qualifiers/${ids['FF-01']}`);
  });
});

describe('POST /users/{user_id}/certifications', () => {
  it('records a certification held by the user', async () => {
    const response = await org.post(`/users/${userId}/certifications`, {
      id: ids.cpr,
      number: 'CPR-778',
      issued_on: '2025-01-10',
      expires_on: '2027-01-10',
      notes: 'Renewed',
    });
    expect(response).toSucceed(201, 'Added certification CPR to user Boss Doe.', {
      id: ids.cpr,
    });
    await org.post(`/users/${userId}/certifications`, { id: ids.hazmat });
  });

  it('refuses unknown certifications, duplicates and expiry before issue', async () => {
    expect(await org.post(`/users/${userId}/certifications`, { id: 999999 })).toBeInvalid([
      'The selected certification id is invalid.',
    ]);
    expect((await org.post(`/users/${userId}/certifications`, { id: ids.cpr })).status).toBe(422);
    const other2 = await org.createUser();
    expect(
      (
        await org.post(`/users/${other2}/certifications`, {
          id: ids.cpr,
          issued_on: '2025-01-10',
          expires_on: '2024-01-10',
        })
      ).status,
    ).toBe(422);
  });

  it('answers 404 for another organization', () =>
    expectNotFoundForOtherOrg(other, 'POST', `/users/${userId}/certifications`, { id: ids.cpr }));
});

/** The Hazmat record as the user holds it before the PUT below: nothing but the certification. */
const hazmatAsHeld = () => ({
  id: ids.hazmat,
  name: 'Hazmat',
  cert_id: 'HZ',
  number: null,
  issued_on: null,
  expires_on: null,
  notes: null,
  file: null,
});

describe('GET /users/{user_id}/certifications', () => {
  it('lists the user certifications', async () => {
    const response = await org.get(`/users/${userId}/certifications`);
    expect(response).toAnswer(200, [
      {
        id: ids.cpr,
        name: 'CPR',
        cert_id: 'CPR',
        number: 'CPR-778',
        issued_on: '2025-01-10',
        expires_on: '2027-01-10',
        notes: 'Renewed',
        file: null,
      },
      hazmatAsHeld(),
    ]);
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}/certifications`);
  });
});

describe('GET /users/{user_id}/certifications/{id}', () => {
  it('returns one record by certification id; 404 when the user does not hold it', async () => {
    expect((await org.get(`/users/${userId}/certifications/${ids.hazmat}`)).body).toEqual(hazmatAsHeld());
    expect(await org.get(`/users/${userId}/certifications/999999`)).toBeNotFound('UserCertification');
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}/certifications/${ids.hazmat}`);
  });
});

describe('PUT /users/{user_id}/certifications/{id}', () => {
  it('changes only the fields sent', async () => {
    const response = await org.put(`/users/${userId}/certifications/${ids.hazmat}`, { number: 'HZ-1', notes: null });
    expect(response).toSucceed(200, 'Updated certification Hazmat of user Boss Doe.', {
      id: ids.hazmat,
    });
    expect((await org.get(`/users/${userId}/certifications/${ids.hazmat}`)).body).toMatchObject({
      number: 'HZ-1',
      notes: null,
    });
    expect((await org.put(`/users/${userId}/certifications/${ids.cpr}`, { expires_on: '2020-01-01' })).status).toBe(
      422,
    );
    await expectNotFoundForOtherOrg(other, 'PUT', `/users/${userId}/certifications/${ids.hazmat}`, { number: 'X' });
  });
});

describe('POST /users/{user_id}/certifications/{id}/file', () => {
  const upload = (body: Buffer, type: string, path = `/users/${userId}/certifications/${ids.cpr}/file`) =>
    fetch(`${server.url}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.token}`, 'content-type': type },
      body,
    });

  function multipart(name: string, data: Buffer, type: string) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type }), name);
    return fetch(`${server.url}/v1/users/${userId}/certifications/${ids.cpr}/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.token}` },
      body: form,
    });
  }

  it('stores a PDF sent as multipart and makes it downloadable', async () => {
    const response = await multipart('card.pdf', PDF, 'application/pdf');
    expect(response.status).toBe(200);
    const href = `${server.url}/v1/users/${userId}/certifications/${ids.cpr}/file`;
    expect(await response.json()).toEqual({
      success: true,
      code: 200,
      status: 'ok',
      message: 'Uploaded the file of certification CPR.',
      id: ids.cpr,
      file: {
        content_type: 'application/pdf',
        size: PDF.length,
        uploaded_at: expect.stringMatching(/[+-]\d{2}:\d{2}$/),
        href,
      },
    });
    const download = await org.get(`/users/${userId}/certifications/${ids.cpr}/file`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="certification-${ids.cpr}.pdf"`);
    expect(download.text).toBe(PDF.toString());
    expect(download.headers.get('content-length')).toBe(String(PDF.length));
    // stored in the database, which every server of it reads: nothing under the data directory
    expect(existsSync(join(server.config.dataDir, 'certifications'))).toBe(false);
  });

  it('rejects a file named .pdf whose bytes are not a PDF', async () => {
    const response = await multipart('evil.pdf', Buffer.from('<script>alert(1)</script>'), 'application/pdf');
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The file must be a file of type: pdf, jpeg, doc, docx.'],
    });
    expect((await org.get(`/users/${userId}/certifications/${ids.cpr}/file`)).headers.get('content-type')).toBe(
      'application/pdf',
    );
  });

  it('accepts raw JPEG and DOC bodies recognised by their bytes, replacing the file', async () => {
    const jpeg = await upload(JPEG, 'application/octet-stream');
    expect(jpeg.status).toBe(200);
    expect(((await jpeg.json()) as { file: unknown }).file).toMatchObject({
      content_type: 'image/jpeg',
      size: JPEG.length,
    });
    const doc = await upload(DOC, 'application/msword', `/users/${userId}/certifications/${ids.hazmat}/file`);
    expect(((await doc.json()) as { file: unknown }).file).toMatchObject({ content_type: 'application/msword' });
    const download = await org.get(`/users/${userId}/certifications/${ids.cpr}/file`);
    expect(download.headers.get('content-type')).toBe('image/jpeg');
  });

  it('rejects a raw body that is not a document, a file over the size limit and other content types', async () => {
    expect((await upload(Buffer.from('PK\u0003\u0004not a word file'), 'application/octet-stream')).status).toBe(422);
    expect((await upload(Buffer.concat([PDF, Buffer.alloc(2048)]), 'application/pdf')).status).toBe(413);
    const big = await multipart('big.pdf', Buffer.concat([PDF, Buffer.alloc(2048)]), 'application/pdf');
    expect(big.status).toBe(413);
    expect((await upload(Buffer.from('hello'), 'text/plain')).status).toBe(415);
  });

  it('answers 404 for a certification the user does not hold and for another organization', async () => {
    const stranger = await org.createUser();
    expect((await upload(PDF, 'application/pdf', `/users/${stranger}/certifications/${ids.cpr}/file`)).status).toBe(
      404,
    );
    const foreign = await fetch(`${server.url}/v1/users/${userId}/certifications/${ids.cpr}/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/pdf' },
      body: PDF,
    });
    expect(foreign.status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}/certifications/${ids.cpr}/file`);
  });
});

describe('DELETE /users/{user_id}/certifications/{id}', () => {
  it('removes one certification and its file', async () => {
    const response = await org.del(`/users/${userId}/certifications/${ids.cpr}`);
    expect(response).toSucceed(200, 'Removed certification CPR from user Boss Doe.');
    expect((await org.get(`/users/${userId}/certifications/${ids.cpr}/file`)).status).toBe(404);
    expect((await org.del(`/users/${userId}/certifications/${ids.cpr}`)).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'DELETE', `/users/${userId}/certifications/${ids.hazmat}`);
  });
});

describe('DELETE /users/{user_id}/certifications', () => {
  it('removes all certifications of the user', async () => {
    await expectNotFoundForOtherOrg(other, 'DELETE', `/users/${userId}/certifications`);
    const response = await org.del(`/users/${userId}/certifications`);
    expect(response).toSucceed(200, 'Removed all certifications from user Boss Doe.');
    expect((await org.get(`/users/${userId}/certifications`)).body).toEqual([]);
  });
});
