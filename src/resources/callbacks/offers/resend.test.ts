import { describe, expect, it, vi } from 'vitest';
import { callbackScene, listOf, logText, runnerSuite, startCallbackOn, usersOf } from '../test-fixtures.js';

/** POST /callbacks/{id}/users/{user_id}/resend (extension, docs/workflows.md "Re-sending an offer"). */
const suite = runnerSuite({ mail: true });
const linkIn = (text: string) => /\/offers\/(cpo_[A-Za-z0-9_-]+)/.exec(text)![1];

describe('POST /callbacks/{id}/users/{user_id}/resend', () => {
  it('revokes the open link and offers again with a fresh one; refuses what has nothing to re-send', async () => {
    const scene = await callbackScene(
      suite.server,
      'Resend Station',
      { first_name: 'Chief', last_name: 'Rs' },
      {
        name: 'Engine R',
        date: '2032-06-01',
      },
    );
    const { org, adminId } = scene;
    const ann = await org.createUser({ first_name: 'Ann', last_name: 'Rs', mail: 'ann.rs@example.com' });
    const ben = await org.createUser({ first_name: 'Ben', last_name: 'Rs', mail: 'ben.rs@example.com' });
    const list = await listOf(org, 'Resend list', [ann, ben]);
    const { id } = await startCallbackOn(scene, list, '2032-06-01');
    const runner = suite.runner();
    await runner.runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(suite.mailsTo('ann.rs@example.com')).toHaveLength(1));
    const first = linkIn(suite.mailsTo('ann.rs@example.com')[0].text);

    // Ben was never offered; a bad admin id; nobody on the list
    const notYet = await org.post(`/callbacks/${id}/users/${ben}/resend`, { admin_id: adminId });
    expect(notYet.status, notYet.text).toBe(422);
    expect(notYet.text).toContain('has not been offered');
    const bad = await org.post(`/callbacks/${id}/users/${ann}/resend`, {});
    expect(bad.status).toBe(422);
    expect(bad.text).toMatch(/admin/i);
    expect((await org.post(`/callbacks/999999/users/${ann}/resend`, { admin_id: adminId })).status).toBe(404);

    // of parallel re-sends exactly one wins
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => org.post(`/callbacks/${id}/users/${ann}/resend`, { admin_id: adminId })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 422)).toBe(true);
    expect((await usersOf(org, id)).find((u) => u.id === String(ann))).toMatchObject({
      status: 'pending',
      contact_time: null,
    });
    const old = await suite.server.request('GET', `${suite.server.url}/offers/${first}`, { token: null });
    expect(old.status).toBe(410);

    // the runner offers again: a second mail with a new link that works
    await runner.runOnce(new Date().toISOString());
    await vi.waitFor(() => expect(suite.mailsTo('ann.rs@example.com')).toHaveLength(2));
    const second = linkIn(suite.mailsTo('ann.rs@example.com')[1].text);
    expect(second).not.toBe(first);
    expect(suite.mailsTo('ben.rs@example.com')).toHaveLength(0);
    const page = await suite.server.request('GET', `${suite.server.url}/offers/${second}`, { token: null });
    expect(page.status).toBe(200);
    expect(await logText(org)).toContain(`re-sent the callback #${id} offer to user #${ann}.`);

    // once cancelled, nothing is re-sent
    expect((await org.post(`/callbacks/${id}/cancel`, { admin_id: adminId })).status).toBe(200);
    const cancelled = await org.post(`/callbacks/${id}/users/${ann}/resend`, { admin_id: adminId });
    expect(cancelled.status).toBe(422);
    expect(cancelled.text).toContain('cancelled');
  });
});
