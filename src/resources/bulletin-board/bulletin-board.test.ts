import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

let server: TestServer;
let org: TestOrg;
let bossId: number;
let chiefId: number;

const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const userRef = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });
const conflictBody = (name: string) => ({
  status: 409,
  error: 'conflict',
  error_message: expect.stringMatching(
    new RegExp(`^The bulletin board is open for editing by ${name} until \\d{4}-\\d{2}-\\d{2}T`),
  ),
});

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone: 'Europe/Berlin' });
  bossId = await org.createUser({ first_name: 'Boss', last_name: 'Doe' });
  chiefId = await org.createUser({ first_name: 'Casey', last_name: 'Chief' });
});
afterAll(() => server.close());

describe('GET /bulletin_board', () => {
  it('shows null fields before the first write', async () => {
    const fresh = await server.newOrg();
    const response = await fresh.get('/bulletin_board');
    expect(response).toAnswer(200, { content: null, last_updated_by: null, last_updated_at: null });
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/bulletin_board');
  });
});

describe('PUT /bulletin_board', () => {
  it('replaces the board, sanitizing content, and GET shows it', async () => {
    const put = await org.put('/bulletin_board', {
      admin_id: bossId,
      content: '<h1>Hey there!!!</h1><p onclick="x()">Please read the UPDATED bulletin board</p><script>bad()</script>',
    });
    expect(put.status).toBe(200);
    const board = {
      content: '<h1>Hey there!!!</h1><p>Please read the UPDATED bulletin board</p>',
      last_updated_by: userRef(bossId, 'Boss Doe'),
      last_updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/),
    };
    expect(put).toSucceed(200, 'Bulletin board updated successfully.', {
      bulletin_board: board,
    });
    const get = await org.get('/bulletin_board');
    expect(get.body).toEqual(board);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe('Boss Doe updated the bulletin board.');
  });

  it('requires admin_id and content', async () => {
    const noAdmin = await org.put('/bulletin_board', { content: '<p>x</p>' });
    expect(noAdmin).toBeInvalid(['The admin id field is required.']);
    const noContent = await org.put('/bulletin_board', { admin_id: bossId });
    expect(noContent).toBeInvalid(['The content field is required.']);
  });

  it('rejects an unknown admin_id', async () => {
    const response = await org.put('/bulletin_board', { admin_id: 999999, content: '<p>x</p>' });
    expect(response).toBeInvalid(['The selected admin id is invalid.']);
  });

  it('keeps each organization on its own board', async () => {
    const other = await server.newOrg();
    const otherAdmin = await other.createUser();
    await other.put('/bulletin_board', { admin_id: otherAdmin, content: '<p>other org</p>' });
    await org.put('/bulletin_board', { admin_id: bossId, content: '<p>ours</p>' });
    expect((await other.get('/bulletin_board')).body.content).toBe('<p>other org</p>');
    expect((await org.get('/bulletin_board')).body.content).toBe('<p>ours</p>');
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'PUT', '/bulletin_board', { admin_id: 1, content: 'x' });
  });
});

describe('bulletin board editing lease (extension) and the 409 flow', () => {
  it('answers 409 to others while the board is held, then accepts the re-read, retried PUT after release', async () => {
    const lock = await org.post('/bulletin_board/lock', { admin_id: chiefId });
    expect(lock).toAnswer(201, {
      lock_id: expect.any(String),
      admin: userRef(chiefId, 'Casey Chief'),
      expires_at: expect.stringMatching(ISO_OFFSET),
    });

    const status = await org.get('/bulletin_board/lock');
    expect(status.body).toEqual({
      locked: true,
      admin: userRef(chiefId, 'Casey Chief'),
      expires_at: lock.body.expires_at,
    });

    const blocked = await org.put('/bulletin_board', { admin_id: bossId, content: '<p>boss edit</p>' });
    expect(blocked).toAnswer(409, conflictBody('Casey Chief'));

    const otherLock = await org.post('/bulletin_board/lock', { admin_id: bossId });
    expect(otherLock).toAnswer(409, conflictBody('Casey Chief'));

    const holderWrite = await org.put('/bulletin_board', {
      admin_id: chiefId,
      content: '<p>chief edit</p>',
      lock_id: lock.body.lock_id,
    });
    expect(holderWrite).toSucceed(200, 'Bulletin board updated successfully.', {
      bulletin_board: {
        content: '<p>chief edit</p>',
        last_updated_by: userRef(chiefId, 'Casey Chief'),
        last_updated_at: expect.stringMatching(ISO_OFFSET),
      },
    });

    const wrongRelease = await org.del('/bulletin_board/lock', undefined, { query: { admin_id: bossId } });
    expect(wrongRelease).toAnswer(409, conflictBody('Casey Chief'));
    const release = await org.del('/bulletin_board/lock', undefined, { query: { lock_id: lock.body.lock_id } });
    expect(release).toSucceed(200, 'Bulletin board closed for editing.');
    expect((await org.get('/bulletin_board/lock')).body).toEqual({ locked: false, admin: null, expires_at: null });

    const reread = await org.get('/bulletin_board');
    expect(reread.body.content).toBe('<p>chief edit</p>');
    const retried = await org.put('/bulletin_board', {
      admin_id: bossId,
      content: `${reread.body.content}<p>boss edit</p>`,
    });
    expect(retried.status).toBe(200);
    expect(retried.body.bulletin_board).toEqual({
      content: '<p>chief edit</p><p>boss edit</p>',
      last_updated_by: userRef(bossId, 'Boss Doe'),
      last_updated_at: expect.stringMatching(ISO_OFFSET),
    });
  });

  it('lets the holder write by admin_id, renews its lease, and frees the board once the lease expires', async () => {
    const first = await org.post('/bulletin_board/lock', { admin_id: chiefId, ttl_seconds: 1 });
    expect(first.status).toBe(201);
    const renewed = await org.post('/bulletin_board/lock', { admin_id: chiefId, ttl_seconds: 1 });
    expect(renewed).toAnswer(200, {
      lock_id: first.body.lock_id,
      admin: userRef(chiefId, 'Casey Chief'),
      expires_at: expect.stringMatching(ISO_OFFSET),
    });
    expect((await org.put('/bulletin_board', { admin_id: chiefId, content: '<p>by holder</p>' })).status).toBe(200);
    const early = await org.put('/bulletin_board', { admin_id: bossId, content: '<p>too early</p>' });
    expect(early).toAnswer(409, conflictBody('Casey Chief'));

    await new Promise((resolve) => setTimeout(resolve, 1200));
    const afterExpiry = await org.put('/bulletin_board', { admin_id: bossId, content: '<p>after expiry</p>' });
    expect(afterExpiry.status).toBe(200);
    expect(afterExpiry.body.bulletin_board).toEqual({
      content: '<p>after expiry</p>',
      last_updated_by: userRef(bossId, 'Boss Doe'),
      last_updated_at: expect.stringMatching(ISO_OFFSET),
    });
    const release = await org.del('/bulletin_board/lock', undefined, { query: { admin_id: chiefId } });
    expect(release).toBeNotFound('BulletinBoardLock');
    const next = await org.post('/bulletin_board/lock', { admin_id: bossId });
    expect(next.status).toBe(201);
    expect(next.body.lock_id).not.toBe(first.body.lock_id);
    expect((await org.del('/bulletin_board/lock', undefined, { query: { admin_id: bossId } })).status).toBe(200);
  });

  it('writes system log entries for opening and closing', async () => {
    const fresh = await server.newOrg();
    const admin = await fresh.createUser({ first_name: 'Ana', last_name: 'Lead' });
    await fresh.post('/bulletin_board/lock', { admin_id: admin });
    await fresh.del('/bulletin_board/lock', undefined, { query: { admin_id: admin } });
    const logs = await fresh.get('/logs');
    expect(logs.body.data.slice(0, 2).map((entry: { event_description: string }) => entry.event_description)).toEqual([
      'Ana Lead closed the bulletin board for editing.',
      expect.stringMatching(/^Ana Lead opened the bulletin board for editing until \d{4}-/),
    ]);
  });

  it('rejects a lease for an unknown admin and a too long lease', async () => {
    const unknown = await org.post('/bulletin_board/lock', { admin_id: 999999 });
    expect(unknown).toBeInvalid(['The selected admin id is invalid.']);
    const tooLong = await org.post('/bulletin_board/lock', { admin_id: bossId, ttl_seconds: 7200 });
    expect(tooLong).toBeInvalid(['The ttl seconds may not be greater than 3600.']);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/bulletin_board/lock', { admin_id: 1 });
    await expectAuthRequired(server, 'GET', '/bulletin_board/lock');
    await expectAuthRequired(server, 'DELETE', '/bulletin_board/lock');
  });
});
