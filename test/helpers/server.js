import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createCredential } from '../../src/core/auth/credentials.js';
import { createOrganization } from '../../src/resources/organizations/repository.js';
let userCounter = 0;
/** Paths outside the /v1 prefix; every other relative path is taken as a /v1 path. */
const UNVERSIONED = /^\/(oauth|v1|healthz|readyz|docs|metrics|app)(\/|$|\?)/;
async function createPgSchema(url) {
    const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    return schema;
}
async function dropPgSchema(url, schema) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
}
/**
 * Starts the real server on a free port against a database of its own: a fresh SQLite file, or
 * (with TEST_DATABASE_URL=postgres://…) a fresh PostgreSQL schema that is dropped on close.
 */
export async function startServer(overrides = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'crewplan-test-'));
    const pgUrl = process.env.TEST_DATABASE_URL;
    const pgSchema = pgUrl ? await createPgSchema(pgUrl) : undefined;
    const config = loadConfig({ CREWPLAN_DATA_DIR: dir }, {
        databaseUrl: pgUrl,
        pgSchema,
        pgPoolSize: 5,
        sqlitePath: join(dir, 'test.sqlite'),
        secretKey: Buffer.from('test-secret-key'),
        logLevel: 'silent',
        rateLimitPerMinute: 0,
        tokenRateLimitPerMinute: 0,
        dataDir: dir,
        ...overrides,
    });
    const app = await buildApp(config, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const url = `http://127.0.0.1:${port}`;
    async function request(method, path, options = {}) {
        const target = new URL(UNVERSIONED.test(path) || !path.startsWith('/') ? path : `/v1${path}`, url);
        for (const [key, value] of Object.entries(options.query ?? {})) {
            if (value !== undefined)
                target.searchParams.set(key, String(value));
        }
        const headers = { ...(options.headers ?? {}) };
        let body;
        if (options.body !== undefined) {
            if (options.form) {
                headers['content-type'] ??= 'application/x-www-form-urlencoded';
                body = new URLSearchParams(options.body).toString();
            }
            else {
                headers['content-type'] ??= 'application/json';
                body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
            }
        }
        if (options.token)
            headers.authorization ??= `Bearer ${options.token}`;
        const response = await fetch(target, { method, headers, body });
        const text = await response.text();
        let parsed = text;
        try {
            parsed = text ? JSON.parse(text) : undefined;
        }
        catch {
            // not JSON: leave the text
        }
        return { status: response.status, body: parsed, headers: response.headers, text };
    }
    async function newOrg(options = {}) {
        const timezone = options.timezone ?? 'America/Chicago';
        const orgId = await createOrganization(app.db, { name: options.name ?? `Org ${randomBytes(3).toString('hex')}`, timezone });
        const credential = await createCredential(app.db, config.secretKey, orgId);
        const tokenResponse = await request('POST', '/oauth/access_token', {
            body: { grant_type: 'client_credentials', client_id: credential.client_id, client_secret: credential.client_secret },
            form: true,
        });
        if (tokenResponse.status !== 200)
            throw new Error(`token request failed: ${tokenResponse.text}`);
        const token = tokenResponse.body.access_token;
        const call = (method) => (path, body, opts = {}) => request(method, path, { token, ...opts, body: body ?? opts.body });
        const org = {
            orgId,
            timezone,
            clientId: credential.client_id,
            clientSecret: credential.client_secret,
            token,
            get: (path, opts = {}) => request('GET', path, { token, ...opts }),
            post: call('POST'),
            put: call('PUT'),
            patch: call('PATCH'),
            del: call('DELETE'),
            request: (method, path, body, opts = {}) => request(method, path, { token, ...opts, body: body ?? opts.body }),
            async createUser(overrides = {}) {
                userCounter += 1;
                const username = `user${userCounter}_${randomBytes(3).toString('hex')}`;
                const response = await org.put('/users', {
                    username,
                    first_name: `First${userCounter}`,
                    last_name: `Last${userCounter}`,
                    mail: `${username}@example.com`,
                    password: 'secret-password',
                    ...overrides,
                });
                if (response.status !== 201)
                    throw new Error(`user creation failed: ${response.text}`);
                return response.body.user_id;
            },
        };
        return org;
    }
    return {
        url,
        app,
        config,
        queryCount: () => app.dbHandle.stats.queries,
        newOrg,
        request,
        async close() {
            await app.close();
            if (pgUrl && pgSchema)
                await dropPgSchema(pgUrl, pgSchema);
            rmSync(dir, { recursive: true, force: true });
        },
    };
}
//# sourceMappingURL=server.js.map