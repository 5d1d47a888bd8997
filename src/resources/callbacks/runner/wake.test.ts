import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestOrg } from '../../../../test/helpers/server.js';
import { callbackScene, listOf, runnerSuite, startCallbackOn } from '../test-fixtures.js';

/**
 * The server's own runner polls every 15 s (the default CALLBACK_RUNNER_POLL_MS) and is woken by the changes it
 * acts on: a new callback is offered, and a declined offer passed on, within a second.
 */
const suite = runnerSuite({ mail: true, start: () => startServer({ callbackRunnerPollMs: 15_000 }) });
let org: TestOrg;
let adminId: number;
let stationId: number;

beforeAll(async () => {
  const chief = { first_name: 'Chief', last_name: 'Waker', mail: 'chief@wake.test' };
  ({ org, adminId, stationId } = await callbackScene(suite.server, 'Station Wake', chief, {
    name: 'Engine 12',
    date: '2032-05-01',
  }));
});

async function crew(prefix: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= count; i += 1)
    ids.push(await org.createUser({ first_name: prefix, last_name: `M${i}`, mail: `${prefix}${i}@wake.test` }));
  return ids;
}

const offersTo = (prefix: string) =>
  suite.mails.filter((m) => m.subject.startsWith('Callback offer') && m.to.some((to) => to.startsWith(prefix)));

describe('the runner is woken', () => {
  it('by a new callback: its offers go out within a second, all at once', async () => {
    const people = await crew('new', 6);
    const listId = await listOf(org, 'Wake list', people, { contact_at_once: 6 });
    await startCallbackOn({ org, adminId, stationId }, listId, '2032-05-10', { positions_to_fill: 6 });
    // from the commit (the response): the runner would otherwise wait for its poll, 15 s away
    await vi.waitFor(() => expect(offersTo('new').length).toBeGreaterThan(0), { timeout: 1000, interval: 10 });
    await vi.waitFor(() => expect(offersTo('new')).toHaveLength(6), { timeout: 2000, interval: 10 });
    expect(new Set(offersTo('new').map((m) => m.to[0]))).toEqual(
      new Set(people.map((_, i) => `new${i + 1}@wake.test`)),
    );
  });

  it('by a declined offer: the next person is offered within a second', async () => {
    const people = await crew('next', 2);
    const listId = await listOf(org, 'Next list', people);
    await startCallbackOn({ org, adminId, stationId }, listId, '2032-05-12');
    await vi.waitFor(() => expect(offersTo('next1@')).toHaveLength(1), { timeout: 1000, interval: 10 });
    const token = /\/offers\/(cpo_[A-Za-z0-9_-]+)/.exec(offersTo('next1@')[0].text)![1];
    const declined = await suite.server.request('POST', `${suite.server.url}/offers/${token}`, {
      body: { answer: 'decline' },
      form: true,
      token: null,
    });
    expect(declined.status, declined.text).toBeLessThan(400);
    await vi.waitFor(() => expect(offersTo('next2@')).toHaveLength(1), { timeout: 1000, interval: 10 });
  });
});
