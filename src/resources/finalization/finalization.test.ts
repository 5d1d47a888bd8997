import { describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { useOrgs, type TestOrg } from '../../../test/helpers/server.js';
import { formatDate, todayIn } from '../../core/time.js';

const { server, org, other } = await useOrgs();
const adminId = await org.createUser({ first_name: 'Jane', last_name: 'Admin' });

async function createAssignment(target: TestOrg = org): Promise<number> {
  const response = await target.post('/assignments', {
    name: 'Engine 1',
    start: '2018-11-01 07:00:00',
    end: '2018-11-02 07:00:00',
    positions_to_fill: 3,
  });
  return response.body.id as number;
}

const allOk = { success: true, code: 200, status: 'ok', message: 'All finaliziations processed successfully.' };
const withErrors = {
  success: true,
  code: 200,
  status: 'ok',
  message: 'Finalizations processed with errors. See the error_messages field.',
};

/** Finalizing (post) or unfinalizing (del) the assignment on 2099-01-01: a 422 that names it. */
async function expectFutureRefused(method: 'post' | 'del', id: number) {
  const response = await org[method]('/finalization', {
    assignments: [{ id, dates: ['2099-01-01'] }],
    admin_id: adminId,
  });
  expect(response).toAnswer(422, {
    error: 'invalid_params',
    status: 422,
    error_message: [`Assignment (#${id}) Finalization is only allowed on past and current dates.`],
  });
}

describe('POST /finalization', () => {
  it('finalizes the listed dates and the start..end range, merged', async () => {
    const id = await createAssignment();
    const response = await org.post('/finalization', {
      assignments: [{ id, dates: ['2018-12-01', '2018-12-03'], start: '2018-12-03', end: '2018-12-04' }],
      admin_id: adminId,
    });
    expect(response).toAnswer(200, allOk);
    const again = await org.post(`/assignments/${id}/finalization`, { date: '2018-12-04', admin_id: adminId });
    expect(again.body.error_message).toEqual([`Assignment (#${id}) has already been finalized on 2018-12-04.`]);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      'Jane Admin finalized assignment Engine 1 on 2018-12-01, 2018-12-03, 2018-12-04.',
    );
  });

  it('reports mixed results with success_messages and error_messages', async () => {
    const id = await createAssignment();
    await org.post(`/assignments/${id}/finalization`, { date: '2018-12-05', admin_id: adminId });
    const response = await org.post('/finalization', {
      assignments: [{ id, dates: ['2018-12-01', '2018-12-05', '2099-01-01'] }],
      admin_id: adminId,
    });
    expect(response).toAnswer(200, {
      ...withErrors,
      success_messages: [`Assignment (#${id}) finalized on 2018-12-01.`],
      error_messages: [
        `Assignment (#${id}) is already finalized on 2018-12-05.`,
        `Assignment (#${id}) Finalization is only allowed on past and current dates.`,
      ],
    });
  });

  it('accepts today but not a future date; nothing succeeded is a 422', async () => {
    const id = await createAssignment();
    const today = formatDate(todayIn(org.timezone));
    expect(
      (await org.post('/finalization', { assignments: [{ id, dates: [today] }], admin_id: adminId })).body,
    ).toEqual(allOk);
    await expectFutureRefused('post', id);
  });

  it('lists an unknown or foreign assignment among the errors', async () => {
    const id = await createAssignment();
    const foreign = await createAssignment(other);
    const response = await org.post('/finalization', {
      assignments: [
        { id, dates: ['2018-12-01'] },
        { id: foreign, dates: ['2018-12-01'] },
      ],
      admin_id: adminId,
    });
    expect(response.body).toEqual({
      ...withErrors,
      success_messages: [`Assignment (#${id}) finalized on 2018-12-01.`],
      error_messages: [`Assignment (#${foreign}) does not exist.`],
    });
  });

  it('is a 404 for an unknown admin', async () => {
    const id = await createAssignment();
    const response = await org.post('/finalization', {
      assignments: [{ id, dates: ['2018-12-01'] }],
      admin_id: 999999,
    });
    expect(response).toAnswer(404, {
      error: 'not found',
      status: 404,
      error_message: 'No query results for model [User].',
    });
  });

  it('requires dates or start and end for each assignment', async () => {
    const id = await createAssignment();
    const response = await org.post('/finalization', { assignments: [{ id, start: '2018-12-01' }], admin_id: adminId });
    expect(response).toBeInvalid([
      'The assignments.0.dates field is required when assignments.0.start and assignments.0.end are not present.',
    ]);
    // an empty list of dates names no date either (it had answered 422 with no message)
    const noDates = await org.post('/finalization', { assignments: [{ id, dates: [] }], admin_id: adminId });
    expect(noDates.body.error_message).toEqual([
      'The assignments.0.dates field is required when assignments.0.start and assignments.0.end are not present.',
    ]);
    const missing = await org.post('/finalization', { admin_id: adminId });
    expect(missing.status).toBe(422);
    expect(missing.body.error_message).toEqual(['The assignments field is required.']);
  });

  it('rejects a reversed or overlong range', async () => {
    const id = await createAssignment();
    const reversed = await org.post('/finalization', {
      assignments: [{ id, start: '2018-12-05', end: '2018-12-01' }],
      admin_id: adminId,
    });
    expect(reversed).toBeInvalid(['The assignments.0.end must be after the assignments.0.start.']);
    const long = await org.post('/finalization', {
      assignments: [{ id, start: '2010-01-01', end: '2018-12-01' }],
      admin_id: adminId,
    });
    expect(long).toBeInvalid(['The assignments.0 period may not be longer than 366 days.']);
  });

  it('requires a token', () =>
    expectAuthRequired(server, 'POST', '/finalization', {
      assignments: [{ id: 1, dates: ['2018-12-01'] }],
      admin_id: 1,
    }));
});

describe('DELETE /finalization', () => {
  it('removes finalizations of every listed date', async () => {
    const id = await createAssignment();
    await org.post('/finalization', {
      assignments: [{ id, start: '2018-12-01', end: '2018-12-02' }],
      admin_id: adminId,
    });
    const response = await org.del('/finalization', {
      assignments: [{ id, start: '2018-12-01', end: '2018-12-02' }],
      admin_id: adminId,
    });
    expect(response).toAnswer(200, allOk);
    const again = await org.del(`/assignments/${id}/finalization`, { date: '2018-12-01' });
    expect(again.body.error_message).toEqual([`Assignment (#${id}) is not finalized on 2018-12-01.`]);
  });

  it('reports mixed results', async () => {
    const id = await createAssignment();
    await org.post(`/assignments/${id}/finalization`, { date: '2018-12-01', admin_id: adminId });
    const response = await org.del('/finalization', {
      assignments: [{ id, dates: ['2018-12-01', '2018-12-05'] }],
      admin_id: adminId,
    });
    expect(response.body).toEqual({
      ...withErrors,
      success_messages: [`Assignment (#${id}) finalized on 2018-12-01.`],
      error_messages: [`Assignment (#${id}) is not finalized on 2018-12-05.`],
    });
  });

  it('rejects future dates; nothing succeeded is a 422', async () => {
    const id = await createAssignment();
    await expectFutureRefused('del', id);
  });

  it('is a 404 for an unknown admin', async () => {
    const id = await createAssignment();
    const response = await org.del('/finalization', { assignments: [{ id, dates: ['2018-12-01'] }], admin_id: 999999 });
    expect(response).toAnswer(404, {
      error: 'not found',
      status: 404,
      error_message: 'No query results for model [User].',
    });
  });

  it('requires a token', () =>
    expectAuthRequired(server, 'DELETE', '/finalization', {
      assignments: [{ id: 1, dates: ['2018-12-01'] }],
      admin_id: 1,
    }));
});
