import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs, type TestOrg } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const bossId = await org.createUser({ first_name: 'Boss', last_name: 'Doe' });

const userHref = (id: number) => `${server.url}/v1/users/${id}`;

function bossAnnouncement(id: number, title: string | null, body: string) {
  return {
    id,
    company_id: org.orgId,
    title,
    body,
    first_name: 'Boss',
    last_name: 'Doe',
    user: { id: bossId, name: 'Boss Doe', href: userHref(bossId) },
  };
}

async function postAnnouncement(target: TestOrg, body: Record<string, unknown>): Promise<number> {
  const response = await target.post('/announcements', body);
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

/** The organization's newest system log entry: what Boss Doe did. */
async function expectNewestLog(event_description: string) {
  expect((await org.get('/logs')).body.data[0]).toEqual({
    log_id: expect.any(String),
    created: expect.any(String),
    event_description,
    user: { id: String(bossId), name: 'Boss Doe', href: userHref(bossId) },
  });
}

describe('POST /announcements', () => {
  it('creates an announcement authored by admin_id and answers with it', async () => {
    const response = await org.post('/announcements', {
      title: 'Test',
      body: '<p>This is a great HTML <strong>message!</strong></p>',
      admin_id: bossId,
    });
    expect(response).toSucceed(201, 'Announcement created successfully.', {
      id: expect.any(Number),
      announcement: bossAnnouncement(response.body.id, 'Test', '<p>This is a great HTML <strong>message!</strong></p>'),
    });
  });

  it('strips scripts, event handlers and javascript: URLs but keeps formatting', async () => {
    const response = await org.post('/announcements', {
      title: 'Sanitized',
      body:
        '<p onclick="steal()">Hello <strong>crew</strong></p><script>alert(1)</script>' +
        '<a href="javascript:alert(2)">bad link</a> <a href="https://example.com/roster">roster</a>',
      admin_id: bossId,
    });
    expect(response.status).toBe(201);
    expect(response.body.announcement.body).toBe(
      '<p>Hello <strong>crew</strong></p><a rel="noopener noreferrer">bad link</a> ' +
        '<a href="https://example.com/roster" rel="noopener noreferrer">roster</a>',
    );
  });

  it('shows no user and null names when no admin_id or user_id is given', async () => {
    const response = await org.post('/announcements', { body: '<p>From the dispatch system</p>' });
    expect(response.status).toBe(201);
    expect(response.body.announcement).toEqual({
      id: response.body.id,
      company_id: org.orgId,
      title: null,
      body: '<p>From the dispatch system</p>',
      first_name: null,
      last_name: null,
      user: null,
    });
  });

  it('requires body', async () => {
    const response = await org.post('/announcements', { title: 'No body' });
    expect(response).toBeInvalid(['The body field is required.']);
  });

  it('rejects a body that is empty once sanitized', async () => {
    const response = await org.post('/announcements', { body: '<script>alert(1)</script>' });
    expect(response).toBeInvalid(['The body field must contain text after removing disallowed HTML.']);
  });

  it('rejects an admin_id that is not a user of the organization', async () => {
    const stranger = await other.createUser();
    const response = await org.post('/announcements', { body: '<p>x</p>', admin_id: stranger });
    expect(response).toBeInvalid(['The selected admin id is invalid.']);
  });

  it('writes a system log entry naming the author', async () => {
    await postAnnouncement(org, { title: 'Logged', body: '<p>log me</p>', admin_id: bossId });
    await expectNewestLog('Boss Doe posted announcement Logged.');
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/announcements', { body: '<p>x</p>' });
  });
});

describe('GET /announcements', () => {
  it('lists the latest non-deleted announcements first, in pages with offset links', async () => {
    const fresh = await server.newOrg();
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push(await postAnnouncement(fresh, { title: `A${n}`, body: `<p>${n}</p>` }));
    const deleted = await fresh.del(`/announcements/${ids[1]}`);
    expect(deleted.status).toBe(200);

    const first = await fresh.get('/announcements', { query: { limit: 1 } });
    expect(first.status).toBe(200);
    const plain = (id: number, n: number) => ({
      id,
      company_id: fresh.orgId,
      title: `A${n}`,
      body: `<p>${n}</p>`,
      first_name: null,
      last_name: null,
      user: null,
    });
    expect(first.body).toEqual({
      data: [plain(ids[2], 3)],
      pagination: { prev: null, next: `${server.url}/v1/announcements?offset=1&limit=1` },
    });
    const second = await fresh.get('/announcements', { query: { offset: 1, limit: 1 } });
    expect(second.body).toEqual({
      data: [plain(ids[0], 1)],
      pagination: { prev: `${server.url}/v1/announcements?offset=0&limit=1`, next: null },
    });
    const all = await fresh.get('/announcements');
    expect(all.body).toEqual({ data: [plain(ids[2], 3), plain(ids[0], 1)], pagination: { prev: null, next: null } });
  });

  it("does not show another organization's announcements", async () => {
    await postAnnouncement(org, { body: '<p>only for org</p>' });
    const response = await (await server.newOrg()).get('/announcements');
    expect(response.body).toEqual({ data: [], pagination: { prev: null, next: null } });
  });

  it('loads authors in a number of queries that does not grow with the page', async () => {
    const fresh = await server.newOrg();
    const authors = [await fresh.createUser(), await fresh.createUser(), await fresh.createUser()];
    await postAnnouncement(fresh, { body: '<p>warm</p>', admin_id: authors[0] });
    const before = server.queryCount();
    await fresh.get('/announcements');
    const oneAuthor = server.queryCount() - before;
    for (const author of authors) await postAnnouncement(fresh, { body: '<p>more</p>', admin_id: author });
    const start = server.queryCount();
    const response = await fresh.get('/announcements');
    expect(response.body.data).toHaveLength(4);
    expect(server.queryCount() - start).toBe(oneAuthor);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/announcements');
  });
});

describe('PUT /announcements/{id}', () => {
  it('replaces title and body, sanitizing the body, and keeps the author', async () => {
    const id = await postAnnouncement(org, { title: 'Old', body: '<p>old</p>', admin_id: bossId });
    const response = await org.put(`/announcements/${id}`, {
      title: 'New',
      body: '<p onmouseover="x()">new <em>text</em></p>',
    });
    expect(response).toSucceed(200, 'Announcement updated successfully.', {
      id,
      announcement: bossAnnouncement(id, 'New', '<p>new <em>text</em></p>'),
    });
  });

  it('requires body', async () => {
    const id = await postAnnouncement(org, { body: '<p>x</p>' });
    const response = await org.put(`/announcements/${id}`, { title: 'only title' });
    expect(response).toBeInvalid(['The body field is required.']);
  });

  it('answers 404 for a missing, deleted or foreign announcement', async () => {
    const id = await postAnnouncement(org, { body: '<p>x</p>' });
    await expectNotFoundForOtherOrg(other, 'PUT', `/announcements/${id}`, { body: '<p>y</p>' });
    await org.del(`/announcements/${id}`);
    const response = await org.put(`/announcements/${id}`, { body: '<p>y</p>' });
    expect(response).toBeNotFound('Announcement');
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'PUT', '/announcements/1', { body: '<p>x</p>' });
  });
});

describe('DELETE /announcements/{id}', () => {
  it('soft-deletes the announcement and logs it', async () => {
    const id = await postAnnouncement(org, { title: 'Bye', body: '<p>x</p>' });
    const response = await org.del(`/announcements/${id}`);
    expect(response).toSucceed(200, 'Announcement deleted successfully.', {
      id,
    });
    const list = await org.get('/announcements');
    expect(list.body.data.map((a: { id: number }) => a.id)).not.toContain(id);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(`API client ${org.clientId} deleted announcement Bye.`);
  });

  it('names the acting user given by the admin_id query parameter in the log', async () => {
    const id = await postAnnouncement(org, { title: 'Old news', body: '<p>x</p>' });
    const response = await org.del(`/announcements/${id}`, undefined, { query: { admin_id: bossId } });
    expect(response).toSucceed(200, 'Announcement deleted successfully.', {
      id,
    });
    await expectNewestLog('Boss Doe deleted announcement Old news.');
  });

  it('answers 404 when deleting twice or from another organization', async () => {
    const id = await postAnnouncement(org, { body: '<p>x</p>' });
    await expectNotFoundForOtherOrg(other, 'DELETE', `/announcements/${id}`);
    expect((await org.del(`/announcements/${id}`)).status).toBe(200);
    const again = await org.del(`/announcements/${id}`);
    expect(again).toBeNotFound('Announcement');
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'DELETE', '/announcements/1');
  });
});
