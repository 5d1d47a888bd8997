import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { startServer, useOrgs } from '../../../test/helpers/server.js';
import { createCredential } from './credentials.js';

/** OAuth token lifetime, revocation (RFC 7009) and the removal of expired tokens (docs/security.md, "OAuth"). */

const { server, org } = await useOrgs();

const tokenFor = async (clientId: string, clientSecret: string) =>
  (
    await server.request('POST', '/oauth/access_token', {
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    })
  ).body as { access_token: string; expires_in: number; expires: number };

const revoke = (body: Record<string, string>, headers: Record<string, string> = {}) =>
  server.request('POST', '/oauth/revoke', { body, form: true, headers });

const usersWith = (token: string) => server.request('GET', '/users', { token });

describe('token lifetime', () => {
  it('defaults to one hour, as the README says', () => {
    const config = loadConfig({ CREWPLAN_SECRET_KEY: 'k' });
    expect(config.tokenTtlSeconds).toBe(3600);
    const row = readFileSync('README.md', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `TOKEN_TTL_SECONDS` |'));
    expect(row?.split('|')[2].trim()).toBe(`\`${config.tokenTtlSeconds}\``);
  });

  it('is TOKEN_TTL_SECONDS when set', async () => {
    expect(loadConfig({ CREWPLAN_SECRET_KEY: 'k', TOKEN_TTL_SECONDS: '600' }).tokenTtlSeconds).toBe(600);
    const short = await startServer({ tokenTtlSeconds: 600 });
    try {
      const shortOrg = await short.newOrg();
      const response = await short.request('POST', '/oauth/access_token', {
        body: { grant_type: 'client_credentials', client_id: shortOrg.clientId, client_secret: shortOrg.clientSecret },
      });
      expect(response.body.expires_in).toBe(600);
      expect(response.body.expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 600);
    } finally {
      await short.close();
    }
  });

  it('refuses a TOKEN_TTL_SECONDS of 0 or under a minute', () => {
    expect(() => loadConfig({ CREWPLAN_SECRET_KEY: 'k', TOKEN_TTL_SECONDS: '30' })).toThrow(
      'TOKEN_TTL_SECONDS must be 60 or more, got "30"',
    );
  });
});

describe('POST /oauth/revoke', () => {
  it('revokes a token of the authenticated client: 200 with an empty body, then the token is refused', async () => {
    const { access_token } = await tokenFor(org.clientId, org.clientSecret);
    expect((await usersWith(access_token)).status).toBe(200);
    const response = await revoke({ token: access_token, client_id: org.clientId, client_secret: org.clientSecret });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect((await usersWith(access_token)).status).toBe(401);
    // the client's other tokens are untouched
    expect((await usersWith(org.token)).status).toBe(200);
  });

  it('takes HTTP Basic client authentication and a JSON body, and ignores token_type_hint', async () => {
    const { access_token } = await tokenFor(org.clientId, org.clientSecret);
    const basic = Buffer.from(`${org.clientId}:${org.clientSecret}`).toString('base64');
    const response = await server.request('POST', '/oauth/revoke', {
      body: { token: access_token, token_type_hint: 'refresh_token' },
      headers: { authorization: `Basic ${basic}` },
    });
    expect(response.status).toBe(200);
    expect((await usersWith(access_token)).status).toBe(401);
  });

  it('answers 200 for an unknown or already revoked token (RFC 7009 §2.2)', async () => {
    const credentials = { client_id: org.clientId, client_secret: org.clientSecret };
    expect((await revoke({ token: 'cpt_never_issued', ...credentials })).status).toBe(200);
    const { access_token } = await tokenFor(org.clientId, org.clientSecret);
    expect((await revoke({ token: access_token, ...credentials })).status).toBe(200);
    expect((await revoke({ token: access_token, ...credentials })).status).toBe(200);
  });

  it("leaves another client's token alone", async () => {
    const other = await createCredential(server.app.db, server.config.secretKey, org.orgId, 'second client');
    const { access_token } = await tokenFor(org.clientId, org.clientSecret);
    const response = await revoke({
      token: access_token,
      client_id: other.client_id,
      client_secret: other.client_secret,
    });
    expect(response.status).toBe(200);
    expect((await usersWith(access_token)).status).toBe(200);
  });

  it('refuses a request without valid client authentication or without a token', async () => {
    const { access_token } = await tokenFor(org.clientId, org.clientSecret);
    expect(await revoke({ token: access_token, client_id: org.clientId, client_secret: 'wrong' })).toAnswer(401, {
      status: 401,
      error: 'invalid_client',
      error_message: 'Client authentication failed.',
      error_description: 'Client authentication failed.',
    });
    expect(await revoke({ token: access_token })).toAnswer(401, {
      status: 401,
      error: 'invalid_client',
      error_message: 'Client authentication failed.',
      error_description: 'Client authentication failed.',
    });
    expect(await revoke({ client_id: org.clientId, client_secret: org.clientSecret })).toAnswer(400, {
      status: 400,
      error: 'invalid_request',
      error_message: 'The token parameter is required.',
      error_description: 'The token parameter is required.',
    });
    expect((await usersWith(access_token)).status).toBe(200);
  });
});

describe('expired tokens', () => {
  it('are deleted when the credential next gets a token', async () => {
    const { access_token } = await tokenFor(org.clientId, org.clientSecret);
    const count = async () =>
      Number(
        (
          await server.app.db
            .selectFrom('access_token')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organization_id', '=', org.orgId)
            .where('expires_at', '<=', Math.floor(Date.now() / 1000))
            .executeTakeFirstOrThrow()
        ).n,
      );
    await server.app.db
      .updateTable('access_token')
      .set({ expires_at: Math.floor(Date.now() / 1000) - 10 })
      .where('organization_id', '=', org.orgId)
      .execute();
    expect(await count()).toBeGreaterThan(0);
    expect((await usersWith(access_token)).status).toBe(401);
    await tokenFor(org.clientId, org.clientSecret);
    expect(await count()).toBe(0);
  });
});
