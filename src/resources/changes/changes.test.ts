import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

/**
 * GET /v1/changes (extension): server-sent events that tell a board something of its organization
 * changed, whoever changed it (a request, a write behind the server's back), and nothing of
 * another organization's changes.
 */
let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let userId: number;

interface Stream {
  events: string[];
  contentType: string | null;
  /** Resolves with the events once `count` of kind `name` have come, or rejects after `ms`. */
  waitFor(name: string, count: number, ms?: number): Promise<string[]>;
  close(): void;
}

async function openStream(headers: Record<string, string>): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/v1/changes`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const events: string[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const name = /^event: (.+)$/m.exec(buffer.slice(0, end))?.[1];
        if (name) events.push(name);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
  })();
  const waitFor = async (name: string, count: number, ms = 2000) => {
    const until = Date.now() + ms;
    while (events.filter((event) => event === name).length < count) {
      if (Date.now() > until) throw new Error(`${count} ${name} events within ${ms} ms; heard ${events.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return events;
  };
  return { events, contentType: response.headers.get('content-type'), waitFor, close: () => abort.abort() };
}

const bearer = (of: TestOrg) => ({ authorization: `Bearer ${of.token}` });

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  other = await server.newOrg();
  userId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
});
afterAll(() => server.close());

describe('GET /v1/changes (extension)', () => {
  it('opens with a ready event, then tells of an API change within 2 s, to its organization only', async () => {
    const mine = await openStream(bearer(org));
    const theirs = await openStream(bearer(other));
    try {
      expect(mine.contentType).toMatch(/^text\/event-stream/);
      await mine.waitFor('ready', 1);
      await theirs.waitFor('ready', 1);
      const started = Date.now();
      expect((await org.put('/day_labels/2019-10-01', { label: 'A Shift', color: '#00acc1' })).status).toBe(200);
      await mine.waitFor('change', 1);
      expect(Date.now() - started).toBeLessThan(2000);
      // the other organization's stream hears nothing of it (its own change is heard, later)
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(theirs.events).toEqual(['ready']);
      await other.put('/day_labels/2019-10-01', { label: 'B Shift', color: '#00acc1' });
      await theirs.waitFor('change', 1);
      expect(mine.events.filter((event) => event === 'change')).toHaveLength(1);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('tells of a write made behind the server’s back (not through a request) within 2 s', async () => {
    const stream = await openStream(bearer(org));
    try {
      await stream.waitFor('ready', 1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      await server.app.db.updateTable('user_account').set({ first_name: 'Dane' }).where('id', '=', userId).execute();
      await stream.waitFor('change', 1);
    } finally {
      stream.close();
    }
  });

  it('serves a web app session, a member’s too', async () => {
    const memberId = await org.createUser({ first_name: 'Sam', last_name: 'Able', role: 'Firefighter' });
    const username = (await org.get(`/users/${memberId}`)).body.username as string;
    const signIn = await server.request('POST', '/app/session', {
      body: { organization_id: org.orgId, username, password: 'secret-password' },
      headers: { 'x-crewplan-session': '1' },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
    const stream = await openStream({ cookie, 'x-crewplan-session': '1' });
    try {
      await stream.waitFor('ready', 1);
      await org.put('/day_labels/2019-10-02', { label: 'C Shift', color: '#00acc1' });
      await stream.waitFor('change', 1);
    } finally {
      stream.close();
    }
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/changes'));

  it('answers 406 to a request that does not ask for a stream (a plain GET would wait forever)', async () => {
    const response = await org.get('/changes');
    expect(response.status).toBe(406);
    expect(response.body).toEqual({
      status: 406,
      error: 'not_acceptable',
      error_message: 'GET /v1/changes is a stream of server-sent events: send Accept: text/event-stream.',
    });
  });
});
