import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'crewplan-cli-'));
const env = {
  ...process.env,
  CREWPLAN_DATA_DIR: dir,
  DATABASE_URL: join(dir, 'cli.sqlite'),
  CREWPLAN_SECRET_KEY: 'cli-test-key',
};

async function cli(...args: string[]) {
  const { stdout } = await run('npx', ['tsx', 'src/cli/main.ts', ...args], { env, timeout: 60_000 });
  return stdout;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run cli', () => {
  let organizationId: number;
  let secondClientId: string;

  it('org create --json prints the organization and its first credential', async () => {
    const out = JSON.parse(await cli('org', 'create', '--name', 'Station 9', '--timezone', 'America/Denver', '--json'));
    expect(out).toEqual({ organization_id: expect.any(Number), client_id: expect.any(String), client_secret: expect.any(String) });
    organizationId = out.organization_id;
  });

  it('rejects an unknown time zone', async () => {
    await expect(cli('org', 'create', '--name', 'Bad', '--timezone', 'Mars/Olympus', '--json')).rejects.toThrow(/time zone/);
  });

  it('credentials create, list and revoke', async () => {
    const created = JSON.parse(await cli('credentials', 'create', '--org', String(organizationId), '--json'));
    expect(created).toEqual({ organization_id: organizationId, client_id: expect.any(String), client_secret: expect.any(String) });
    secondClientId = created.client_id;
    const listed = JSON.parse(await cli('credentials', 'list', '--org', String(organizationId), '--json'));
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(created.client_secret);
    await cli('credentials', 'revoke', secondClientId);
    const after = JSON.parse(await cli('credentials', 'list', '--org', String(organizationId), '--json'));
    expect(after.find((c: { client_id: string }) => c.client_id === secondClientId).revoked_at).toEqual(expect.any(String));
  });

  it('migrate reports an up-to-date database', async () => {
    expect(await cli('migrate')).toMatch(/up to date/);
  });

  it('seed demo --json creates a demo organization with credentials', async () => {
    const out = JSON.parse(await cli('seed', 'demo', '--json'));
    expect(out).toMatchObject({ organization_id: expect.any(Number), client_id: expect.any(String), client_secret: expect.any(String) });
    expect(out.counts.users).toBeGreaterThan(5);
  });
});
