import { verifyLogChain } from '../../src/core/log-chain.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoOrganization } from '../../src/cli/seed.js';
import { todayIn } from '../../src/core/time.js';
import { exportOrganization, type OrganizationDocument } from '../../src/transfer/export.js';
import { importOrganization } from '../../src/transfer/import.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { cli, normalizeIds, tokenFor } from './helpers.js';

/**
 * An organization built on SQLite (the demo seed, a certification with its file, a bank
 * adjustment) is exported with the CLI, imported with the CLI into a second database (PostgreSQL
 * when TEST_DATABASE_URL is set, else another SQLite file), exported there and imported back into
 * the first: what the API shows of the three is identical once ids and hrefs are normalized.
 */
const TZ = 'America/Chicago';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n');

let source: TestServer;
let target: TestServer;
let sourceToken: string;
let orgId: number;
let certificationUser: number;
let exported: OrganizationDocument;

interface Copy {
  server: TestServer;
  token: string;
}

async function get(copy: Copy, path: string): Promise<any> {
  const response = await copy.server.request('GET', path, { token: copy.token });
  expect(response.status, `${path}: ${response.text.slice(0, 300)}`).toBe(200);
  return response.body;
}

/** What the API shows of an organization: two months of schedule, users, time off, banks, logs, a certification file, the work period. */
async function snapshot(copy: Copy) {
  const month = todayIn(TZ).with({ day: 1 });
  const schedule = [];
  for (const offset of [0, 1]) {
    const start = month.add({ months: offset });
    schedule.push(await get(copy, `/schedule?start=${start} 00:00:00&end=${start.add({ months: 1 })} 00:00:00`));
  }
  const users = await get(copy, '/users');
  const userIds: number[] = users.map((user: { user_id: number }) => user.user_id);
  const timeOffs = await get(
    copy,
    `/time_offs?start=${month.subtract({ months: 3 })} 00:00:00&end=${month.add({ months: 3 })} 00:00:00&limit=1000`,
  );
  const banks = [];
  for (const id of userIds) {
    banks.push({
      bank: await get(copy, `/users/${id}/timeoff/accrual/bank`),
      ledger: await get(copy, `/users/${id}/timeoff/accrual/transactions`),
    });
  }
  const logs = [];
  let page: string | null = '/logs?limit=200';
  while (page) {
    const body: { data: unknown[]; next: string | null } = await get(copy, page);
    logs.push(...body.data);
    page = body.next ? body.next.replace(copy.server.url, '') : null;
  }
  const certified = userIds.find((id) => id === certificationUser) ?? userIds[userIds.length - 1];
  const certifications: Array<{ id: number; file: { href: string } | null }> = await get(
    copy,
    `/users/${certified}/certifications`,
  );
  const withFile = certifications.find((c) => c.file);
  const file = withFile
    ? await copy.server.request('GET', withFile.file!.href.replace(copy.server.url, ''), { token: copy.token })
    : undefined;
  const workPeriod = await get(copy, '/work_period');
  return {
    document: normalizeIds({ schedule, users, timeOffs, banks, logs, certifications, workPeriod }, copy.server.url),
    fileBytes: file ? Buffer.from(file.text, 'latin1').length : 0,
    fileText: file?.text,
  };
}

beforeAll(async () => {
  source = await startServer({ databaseUrl: undefined });
  target = await startServer();
  expect([source.app.dbHandle.dialect, target.app.dbHandle.dialect]).toEqual([
    'sqlite',
    process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite',
  ]);
  const seeded = await seedDemoOrganization(source.app.db, source.config.secretKey, TZ);
  orgId = seeded.organization_id;
  sourceToken = await tokenFor(source, seeded.client_id, seeded.client_secret);
  const org = { server: source, token: sourceToken };
  const post = async (path: string, body: unknown) => {
    const response = await source.request('POST', path, { token: sourceToken, body });
    expect(response.status, `${path}: ${response.text}`).toBeLessThan(300);
    return response.body;
  };
  const users = await get(org, '/users');
  const ids: number[] = users.map((user: { user_id: number }) => user.user_id);
  certificationUser = ids[ids.length - 1];
  const certification = await post('/certifications', { name: 'Paramedic', cert_id: 'EMT-P', created_by: ids[0] });
  await post(`/users/${certificationUser}/certifications`, {
    id: certification.id,
    number: 'P-1234',
    issued_on: '2025-02-01',
    expires_on: '2027-02-01',
  });
  const upload = await fetch(`${source.url}/v1/users/${certificationUser}/certifications/${certification.id}/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sourceToken}`, 'content-type': 'application/pdf' },
    body: PDF,
  });
  expect(upload.status).toBe(200);
  const period = await source.request('PATCH', '/work_period', {
    token: sourceToken,
    body: { days: 28, threshold_hours: 212, start: '2026-01-04 07:00:00' },
  });
  expect(period.status, period.text).toBe(200);
  const types: Array<{ id: number }> = await get(org, '/time_off_types');
  await post(`/users/${certificationUser}/timeoff/accrual/bank`, {
    time_off_type_id: types[0].id,
    hours: 12.5,
    admin_id: ids[0],
    notes: 'Carried over',
  });
  // calendar accruals are credited when a bank is first read: credit them before the export carries them
  for (const id of ids) await get(org, `/users/${id}/timeoff/accrual/bank`);
}, 120_000);

afterAll(async () => {
  await source?.close();
  await target?.close();
});

describe('org export / org import', () => {
  it('exports every kind of record, without credentials or secrets', async () => {
    const { stdout } = await cli(source, ['org', 'export', '--org', String(orgId)]);
    exported = JSON.parse(stdout);
    expect(exported).toMatchObject({
      format: 'crewplan-organization',
      version: 1,
      organization: { name: 'Demo Fire Department', timezone: TZ },
    });
    for (const table of [
      'user_account',
      'trade',
      'callback',
      'accrual_transaction',
      'user_certification',
      'system_log',
      'recurring_shift_exception',
    ]) {
      expect(exported.tables[table]?.length, table).toBeGreaterThan(0);
    }
    expect(Object.values(exported.files).map((data) => Buffer.from(data, 'base64'))).toEqual([PDF]);
    for (const table of ['api_credential', 'access_token', 'web_session', 'calendar_feed', 'outbox_event'])
      expect(exported.tables).not.toHaveProperty(table);
    expect(exported.tables.user_account.every((user) => !('password_hash' in user))).toBe(true);
    expect(stdout).not.toMatch(/scrypt\$|cps_|whsec_/);
  });

  it('imports into the other database and back: the API shows the same organization', async () => {
    const original = await snapshot({ server: source, token: sourceToken });
    expect(original.fileText).toBe(PDF.toString('latin1'));

    const { stdout } = await cli(target, ['org', 'import', '--json'], JSON.stringify(exported));
    const imported = JSON.parse(stdout);
    expect(Object.keys(imported).slice(0, 3)).toEqual(['organization_id', 'client_id', 'client_secret']);
    expect(imported.organization_id).toEqual(expect.any(Number));
    const copy = { server: target, token: await tokenFor(target, imported.client_id, imported.client_secret) };
    const copied = await snapshot(copy);
    expect(copied).toEqual(original);
    // the imported log is chained anew over its new ids, in the source's order
    expect(await verifyLogChain(target.app.db, imported.organization_id)).toMatchObject({
      ok: true,
      entries: exported.tables.system_log.length,
    });

    const back = await exportOrganization(target.app.db, imported.organization_id, target.config.dataDir);
    expect(back.warnings).toEqual([]);
    const returned = await importOrganization(source.app.db, back.document, {
      dataDir: source.config.dataDir,
      secretKey: source.config.secretKey,
    });
    expect(returned.dangling).toBe(0);
    const roundTrip = await snapshot({
      server: source,
      token: await tokenFor(source, returned.client_id, returned.client_secret),
    });
    expect(roundTrip).toEqual(original);
  }, 120_000);

  it('checks every value as the API does, naming table, row and field; writes nothing (F11)', async () => {
    const count = async () =>
      Number(
        (
          await source.app.db
            .selectFrom('organization')
            .select(source.app.db.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const bad = structuredClone(exported);
    const users = bad.tables.user_account;
    users[0].active = 'yes';
    users[1].date_of_birth = '2026-02-30';
    users[2].first_name = 42;
    bad.tables.webhook_endpoint = [
      {
        ...Object.fromEntries(
          Object.entries(exported.tables.webhook_endpoint?.[0] ?? {}).filter(([key]) => key !== 'url'),
        ),
        id: 1,
        url: 'http://[::a9fe:a9fe]/latest/meta-data',
        event_types: '["*"]',
        description: null,
        created_at: '2033-01-01T00:00:00.000Z',
        deleted_at: null,
      },
    ];
    const failure = importOrganization(source.app.db, bad, {
      dataDir: source.config.dataDir,
      secretKey: source.config.secretKey,
    });
    await expect(failure).rejects.toThrow(
      [
        'the export holds values this database does not take:',
        `table user_account, row 1 (id ${users[0].id}), field active: must be a whole number (got "yes")`,
        `table user_account, row 2 (id ${users[1].id}), field date_of_birth: must be a date that exists, as ` +
          'YYYY-MM-DD (got "2026-02-30")',
        `table user_account, row 3 (id ${users[2].id}), field first_name: must be text (got 42)`,
        'table webhook_endpoint, row 1 (id 1), field url: The url may only point to a public address: ' +
          '::a9fe:a9fe embeds 169.254.169.254, a link local address.',
      ].join('\n'),
    );
    expect(await count()).toBe(before);
  });

  it('writes nothing when the document does not fit the database', async () => {
    const before = (
      await source.app.db
        .selectFrom('organization')
        .select(source.app.db.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    const broken = structuredClone(exported);
    broken.tables.user_account[0].no_such_column = 1;
    await expect(
      importOrganization(source.app.db, broken, { dataDir: source.config.dataDir, secretKey: source.config.secretKey }),
    ).rejects.toThrow(/user_account has columns this database does not: no_such_column/);
    const failing = structuredClone(exported);
    failing.tables.user_account[1].username = failing.tables.user_account[0].username; // unique (organization_id, username)
    await expect(
      importOrganization(source.app.db, failing, {
        dataDir: source.config.dataDir,
        secretKey: source.config.secretKey,
      }),
    ).rejects.toThrow();
    const after = (
      await source.app.db
        .selectFrom('organization')
        .select(source.app.db.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    expect(after).toBe(before);
  });
});
