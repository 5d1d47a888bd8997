import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let creatorId: number;
let caseyId: number;

const exposureForm = {
  title: 'Exposure Form',
  fields: [
    { title: 'Date of Exposure', required: true },
    { title: 'Type of Exposure', options: ['Chemical', 'Biological'] },
    { title: 'PPE Worn', multiple: true },
    { title: 'Witnesse(s)' },
  ],
};

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone: 'America/Los_Angeles' });
  other = await server.newOrg();
  creatorId = await org.createUser({ first_name: 'Brandon', last_name: 'Service' });
  caseyId = await org.createUser({ first_name: 'Casey', last_name: 'McIntosh' });
});
afterAll(() => server.close());

async function createForm(target: TestOrg, body: Record<string, unknown>): Promise<number> {
  const response = await target.post('/forms', body);
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

describe('POST /forms (extension)', () => {
  it('defines a form and answers with its id', async () => {
    const response = await org.post('/forms', { ...exposureForm, user_id: creatorId });
    expect(response).toSucceed(201, 'Form created successfully.', {
      id: expect.any(Number),
    });
    const form = await org.get(`/forms/${response.body.id}`);
    expect(form.body).toEqual({
      id: response.body.id,
      title: 'Exposure Form',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      created_by: 'Brandon Service',
      fields: [
        { title: 'Date of Exposure', multiple: false, required: true },
        { title: 'Type of Exposure', multiple: false, required: false, options: ['Chemical', 'Biological'] },
        { title: 'PPE Worn', multiple: true, required: false },
        { title: 'Witnesse(s)', multiple: false, required: false },
      ],
    });
  });

  it('rejects a form without fields or with a repeated field title', async () => {
    const empty = await org.post('/forms', { title: 'Empty', fields: [] });
    expect(empty).toBeInvalid(['The fields must have at least 1 item.']);
    const repeated = await org.post('/forms', { title: 'Twice', fields: [{ title: 'A' }, { title: 'A' }] });
    expect(repeated).toBeInvalid(['The field title "A" appears more than once.']);
  });

  it('rejects an unknown user_id', async () => {
    const response = await org.post('/forms', { ...exposureForm, user_id: 999999 });
    expect(response).toBeInvalid(['The selected user id is invalid.']);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/forms', exposureForm);
  });
});

describe('GET /forms/', () => {
  it('answers an object keyed by form id with title, created_at and created_by', async () => {
    const fresh = await server.newOrg({ timezone: 'America/Chicago' });
    const author = await fresh.createUser({ first_name: 'John', last_name: 'Doe' });
    const first = await createForm(fresh, { title: 'Test form', fields: [{ title: 'Q' }], user_id: author });
    const second = await createForm(fresh, { title: 'Truck Check - Daily', fields: [{ title: 'Q' }] });
    const datetime = expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const expected = {
      [String(first)]: { title: 'Test form', created_at: datetime, created_by: 'John Doe' },
      [String(second)]: {
        title: 'Truck Check - Daily',
        created_at: datetime,
        created_by: `API client ${fresh.clientId}`,
      },
    };
    const withSlash = await fresh.get('/forms/');
    expect(withSlash).toAnswer(200, expected);
    expect((await fresh.get('/forms')).body).toEqual(expected);
  });

  it('leaves out deleted forms and other organizations forms', async () => {
    const fresh = await server.newOrg();
    const kept = await createForm(fresh, { title: 'Kept', fields: [{ title: 'Q' }] });
    const gone = await createForm(fresh, { title: 'Gone', fields: [{ title: 'Q' }] });
    expect((await fresh.del(`/forms/${gone}`)).status).toBe(200);
    await createForm(other, { title: 'Foreign', fields: [{ title: 'Q' }] });
    expect(Object.keys((await fresh.get('/forms/')).body)).toEqual([String(kept)]);
    expect((await (await server.newOrg()).get('/forms/')).body).toEqual({});
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/forms/');
  });
});

describe('POST /forms/{id}/submissions (extension) and GET /forms/{id}/submissions', () => {
  it('records submissions and lists them with value or values, in the form field order', async () => {
    const formId = await createForm(org, exposureForm);
    const submit = await org.post(`/forms/${formId}/submissions`, {
      user_id: caseyId,
      submission: [
        { title: 'PPE Worn', values: ['Gloves', 'Eye Protection'] },
        { title: 'Date of Exposure', value: '9/23/2015' },
        { title: 'Type of Exposure', value: 'Chemical' },
      ],
    });
    expect(submit).toSucceed(201, 'Form submitted successfully.', {
      id: expect.any(Number),
    });

    const list = await org.get(`/forms/${formId}/submissions`);
    expect(list).toAnswer(200, [
      {
        user: { id: String(caseyId), name: 'Casey McIntosh', href: `${server.url}/v1/users/${caseyId}` },
        submitted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[78]00$/),
        submission: [
          { title: 'Date of Exposure', value: '9/23/2015' },
          { title: 'Type of Exposure', value: 'Chemical' },
          { title: 'PPE Worn', values: ['Gloves', 'Eye Protection'] },
        ],
      },
    ]);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe('Casey McIntosh submitted form Exposure Form.');
  });

  it('answers an empty array for a form without submissions', async () => {
    const formId = await createForm(org, exposureForm);
    const response = await org.get(`/forms/${formId}/submissions`);
    expect(response).toAnswer(200, []);
  });

  it('rejects answers that do not fit the form', async () => {
    const formId = await createForm(org, exposureForm);
    const cases: Array<[unknown[], string]> = [
      [[{ title: 'Type of Exposure', value: 'Chemical' }], 'The submission field "Date of Exposure" is required.'],
      [
        [
          { title: 'Date of Exposure', value: 'x' },
          { title: 'Shoe size', value: '9' },
        ],
        'The submission field "Shoe size" is not a field of this form.',
      ],
      [
        [
          { title: 'Date of Exposure', value: 'x' },
          { title: 'PPE Worn', value: 'Gloves' },
        ],
        'The submission field "PPE Worn" must be answered with values (an array of strings).',
      ],
      [
        [{ title: 'Date of Exposure', values: ['x'] }],
        'The submission field "Date of Exposure" must be answered with value (a string).',
      ],
      [
        [
          { title: 'Date of Exposure', value: 'x' },
          { title: 'Type of Exposure', value: 'Noise' },
        ],
        'The submission field "Type of Exposure" must be one of: Chemical, Biological.',
      ],
    ];
    for (const [submission, message] of cases) {
      const response = await org.post(`/forms/${formId}/submissions`, { user_id: caseyId, submission });
      expect(response.status, message).toBe(422);
      expect(response).toBeInvalid([message]);
    }
    const unknownUser = await org.post(`/forms/${formId}/submissions`, {
      user_id: 999999,
      submission: [{ title: 'Date of Exposure', value: 'x' }],
    });
    expect(unknownUser).toBeInvalid(['The selected user id is invalid.']);
    expect((await org.get(`/forms/${formId}/submissions`)).body).toEqual([]);
  });

  it('answers 404 for a missing or foreign form', async () => {
    const formId = await createForm(org, exposureForm);
    await expectNotFoundForOtherOrg(other, 'GET', `/forms/${formId}/submissions`);
    await expectNotFoundForOtherOrg(other, 'POST', `/forms/${formId}/submissions`, { user_id: 1, submission: [] });
    const missing = await org.get('/forms/999999/submissions');
    expect(missing).toBeNotFound('Form');
  });

  it('loads the submitting users in a number of queries that does not grow with the submissions', async () => {
    const formId = await createForm(org, { title: 'Count', fields: [{ title: 'Q' }] });
    const submitters = [await org.createUser(), await org.createUser(), await org.createUser()];
    await org.post(`/forms/${formId}/submissions`, {
      user_id: submitters[0],
      submission: [{ title: 'Q', value: 'a' }],
    });
    let start = server.queryCount();
    await org.get(`/forms/${formId}/submissions`);
    const withOne = server.queryCount() - start;
    for (const id of submitters)
      await org.post(`/forms/${formId}/submissions`, { user_id: id, submission: [{ title: 'Q', value: 'b' }] });
    start = server.queryCount();
    const response = await org.get(`/forms/${formId}/submissions`);
    expect(response.body).toHaveLength(4);
    expect(server.queryCount() - start).toBe(withOne);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/forms/1/submissions');
    await expectAuthRequired(server, 'POST', '/forms/1/submissions', { user_id: 1, submission: [] });
  });
});

describe('DELETE /forms/{id} (extension)', () => {
  it('deletes the form; it is then a 404', async () => {
    const formId = await createForm(org, exposureForm);
    await expectNotFoundForOtherOrg(other, 'DELETE', `/forms/${formId}`);
    const response = await org.del(`/forms/${formId}`);
    expect(response).toSucceed(200, 'Form deleted successfully.');
    expect((await org.get(`/forms/${formId}/submissions`)).status).toBe(404);
    expect((await org.del(`/forms/${formId}`)).status).toBe(404);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'DELETE', '/forms/1');
  });
});
