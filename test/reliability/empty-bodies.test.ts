import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server.close());

/** Clients that set `Content-Type: application/json` on every request, body or not. */
const jsonHeader = { headers: { 'content-type': 'application/json' } };

describe('an empty body sent as application/json', () => {
  it('is no body on DELETE', async () => {
    const label = await org.post('/labels', { label: 'TMP', color: '#CCCCCC', text_color: '#333333' });
    expect(label.status, label.text).toBe(201);
    const response = await server.request('DELETE', `/v1/labels/${label.body.id}`, { token: org.token, ...jsonHeader });
    expect(response.status, response.text).toBe(200);
    expect((await org.get(`/labels/${label.body.id}`)).status).toBe(404);
  });

  it('is no body on a POST that takes none: the route answers, not the parser', async () => {
    const response = await server.request('POST', '/v1/time_offs/999999/approve', { token: org.token, ...jsonHeader });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('not found');
  });

  it('reads an empty JSON text as no body on a POST whose body is optional', async () => {
    // the body's validator replaces the whole body (an empty text is null): it must be handed the request
    const response = await server.request('POST', '/v1/time_offs/999999/approve', {
      token: org.token,
      body: '""',
      ...jsonHeader,
    });
    expect(response.status, response.text).toBe(404);
    expect(response.body.error).toBe('not found');
  });

  it('still refuses malformed JSON with 400 in the error format', async () => {
    const response = await server.request('POST', '/v1/labels', { token: org.token, body: '{"label":', ...jsonHeader });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body).sort()).toEqual(['error', 'error_message', 'status']);
  });
});
