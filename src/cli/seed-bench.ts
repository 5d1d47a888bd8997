import { orgColumns } from '../core/db/org-rows.js';
import { v7 as timeOrderedUuid } from 'uuid';
import { Presets, SingleBar } from 'cli-progress';
import type { Insertable } from 'kysely';
import type { Config } from '../config.js';
import type { AuthContext } from '../core/auth/context.js';
import { createCredential, type IssuedCredential } from '../core/auth/credentials.js';
import { hashPassword } from '../core/auth/secrets.js';
import type { OutboxPayload } from '../core/audit.js';
import type { DatabaseHandle } from '../core/db/index.js';
import { withTransaction, type Db } from '../core/db/transaction.js';
import { appendToLogChain } from '../core/log-chain.js';
import type { Database } from '../core/db/types.js';
import { nowUtc, type Temporal, todayIn } from '../core/time.js';
import { createAssignment } from '../resources/assignments/rules.js';
import { createOrganization } from '../resources/organizations/repository.js';
import { defaultWorkTypeId } from '../resources/work-types/repository.js';
import { createRotation } from '../resources/rotations/rules.js';
import { lastOccurrenceEnd } from '../scheduling/recurrence.js';
import { APPROVED, PENDING } from '../resources/time-offs/table.js';
import { createTimeOffType } from '../resources/time-off-types/rules.js';
import { newUserState } from '../resources/users/repository.js';
import { fullName } from '../resources/users/serialize.js';

/**
 * `seed bench`: one large organization for the benchmarks (bench/run.ts). Small catalogs
 * (time off types, assignments, the rotation) go through the same rule functions the API uses;
 * the bulk (users, rotation members, one-off shifts, time off, the system log) is written in
 * batched multi-row inserts inside transactions, with the very columns, values and log/outbox rows
 * the API would have written for each.
 */
export interface BenchSeedOptions {
  users: number;
  assignments: number;
  /** months of schedule: rotations and one-off shifts from `months / 2` months back */
  months: number;
  timeOffs: number;
  /** total system log entries (the entity log lines plus older history up to this number) */
  logs: number;
  timezone: string;
  onProgress?: (step: string, done: number, total: number) => void;
}

export const BENCH_DEFAULTS: Omit<BenchSeedOptions, 'onProgress'> = {
  users: 2000,
  assignments: 150,
  months: 12,
  timeOffs: 20_000,
  logs: 200_000,
  timezone: 'America/Chicago',
};

export interface BenchSeedResult extends IssuedCredential {
  admin_id: number;
  /** first day of the seeded schedule; crew c of the rotation works day `window_start + 3k + c` */
  window_start: string;
  window_end: string;
  counts: Record<string, number>;
  seconds: number;
}

const MAX_BOUND_PARAMETERS = { sqlite: 32_766, postgres: 65_535 } as const;
const MAX_ROWS_PER_STATEMENT = 2_000;
const CREWS = ['A', 'B', 'C'] as const;
const FIRST_NAMES = [
  'Dana',
  'Marcus',
  'Alicia',
  'Tom',
  'Priya',
  'Sam',
  'Lena',
  'Jamal',
  'Grace',
  'Diego',
  'Hannah',
  'Ethan',
  'Olivia',
  'Noah',
  'Maya',
];
const LAST_NAMES = [
  'Whitfield',
  'Reyes',
  'Brooks',
  'Kowalski',
  'Natarajan',
  'Carter',
  'Liu',
  'Alvarez',
  'Moore',
  'Park',
  'Stone',
  'Fischer',
  'Novak',
  'Okafor',
];

type TableName = keyof Database & string;

class BulkWriter {
  constructor(
    private readonly handle: DatabaseHandle,
    private readonly progress: (done: number) => void,
  ) {}

  /** Rows per INSERT: under the engine's bound-parameter limit. */
  private batchSize(columns: number): number {
    return Math.max(
      1,
      Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_BOUND_PARAMETERS[this.handle.dialect] / columns)),
    );
  }

  /** Inserts every row in batches; returns the new ids in row order. */
  async insert<T extends TableName>(db: Db, table: T, rows: Array<Insertable<Database[T]>>): Promise<number[]> {
    if (rows.length === 0) return [];
    const size = this.batchSize(Object.keys(rows[0]!).length);
    const ids: number[] = [];
    for (let offset = 0; offset < rows.length; offset += size) {
      const batch = rows.slice(offset, offset + size);
      const inserted = await (db as Db)
        .insertInto(table)
        .values(batch as never)
        .returning('id' as never)
        .execute();
      for (const row of inserted as unknown as Array<{ id: number }>) ids.push(row.id);
      this.progress(batch.length);
    }
    return ids;
  }
}

interface LogLine {
  action: string;
  description: string;
  actor: { userId: number | null; name: string };
  entityType?: string;
  entityId?: number;
  after?: unknown;
  createdAt: string;
}

/** The system-log row and outbox event that writeLog (src/core/audit.ts) writes for a change. */
function logRows(auth: AuthContext, line: LogLine) {
  const description = `${line.actor.name} ${line.description}`;
  const entityId = line.entityId === undefined ? null : String(line.entityId);
  const after = line.after ?? null;
  const changes = line.after === undefined ? null : JSON.stringify({ before: null, after });
  const eventId = timeOrderedUuid();
  const payload: OutboxPayload = {
    id: eventId,
    type: line.action,
    created_at: line.createdAt,
    organization_id: auth.orgId,
    data: {
      entity_type: line.entityType ?? null,
      entity_id: entityId,
      description,
      actor: { user_id: line.actor.userId, name: line.actor.name, client_id: auth.clientId },
      before: null,
      after,
    },
  };
  return {
    log: {
      organization_id: auth.orgId,
      created_at: line.createdAt,
      action: line.action,
      entity_type: line.entityType ?? null,
      entity_id: entityId,
      description,
      actor_user_id: line.actor.userId,
      actor_name: line.actor.name,
      client_id: auth.clientId,
      changes,
    },
    outbox: {
      organization_id: auth.orgId,
      event_id: eventId,
      type: line.action,
      payload: JSON.stringify(payload),
      created_at: line.createdAt,
    },
  };
}

async function writeLogLines(db: Db, writer: BulkWriter, auth: AuthContext, lines: LogLine[]): Promise<void> {
  const rows = lines.map((line) => logRows(auth, line));
  await appendToLogChain(
    db,
    auth.orgId,
    rows.map((r) => r.log),
  );
  await writer.insert(
    db,
    'outbox_event',
    rows.map((r) => r.outbox),
  );
}

interface BenchUser {
  id: number;
  first_name: string;
  last_name: string;
  username: string;
  crewOffset: number;
  assignmentId: number;
}

function userBody(index: number) {
  const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
  const last = `${LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length]}${index + 1}`;
  const username = `bench.user${index + 1}`;
  return {
    username,
    first_name: first,
    last_name: last,
    mail: `${username}@bench.crewplan.test`,
    employee_id: `B${String(index + 1).padStart(5, '0')}`,
    role: index === 0 ? 'Admin' : 'Firefighter',
    phone_numbers: [`555${String(1_000_000 + index).slice(-7)}`],
    date_of_hire: `20${String(10 + (index % 14)).padStart(2, '0')}-0${1 + (index % 9)}-15`,
  };
}

/** The organization's users as PUT /users writes them (one scrypt hash reused: hashing 2,000 would take minutes). */
async function seedUsers(db: Db, writer: BulkWriter, auth: AuthContext, count: number, lines: LogLine[]) {
  const passwordHash = await hashPassword('bench-password');
  const now = nowUtc();
  const bodies = Array.from({ length: count }, (_, index) => userBody(index));
  const ids = await writer.insert(
    db,
    'user_account',
    bodies.map((body) => ({
      organization_id: auth.orgId,
      username: body.username,
      password_hash: passwordHash,
      employee_id: body.employee_id,
      first_name: body.first_name,
      last_name: body.last_name,
      role: body.role,
      avatar_url: null,
      date_of_hire: body.date_of_hire,
      date_of_birth: null,
      accrual_start_date: body.date_of_hire,
      emails: JSON.stringify([body.mail]),
      phone_numbers: JSON.stringify(body.phone_numbers),
      ...newUserState(now),
    })),
  );
  const client = { userId: null, name: `API client ${auth.clientId}` };
  bodies.forEach((body, index) => {
    lines.push({
      action: 'user.created',
      description: `created user ${fullName(body)} (${body.username}).`,
      actor: client,
      entityType: 'user',
      entityId: ids[index],
      after: { ...body, password: undefined },
      createdAt: now,
    });
  });
  return bodies.map((body, index) => ({ ...body, id: ids[index]! }));
}

async function seedAssignments(
  db: Db,
  auth: AuthContext,
  count: number,
  windowStart: Temporal.PlainDate,
  adminId: number,
): Promise<number[]> {
  const ids: number[] = [];
  const first = windowStart.toString();
  const next = windowStart.add({ days: 1 }).toString();
  for (let index = 0; index < count; index += 1) {
    ids.push(
      await createAssignment(db, auth, {
        name: `Unit ${index + 1}`,
        position: index + 1,
        positions_to_fill: 4,
        start: `${first} 07:00:00`,
        end: `${next} 07:00:00`,
        admin_id: adminId,
      }),
    );
  }
  return ids;
}

/** Every user on the 24/48 rotation (crews A, B, C), spread evenly over the assignments. */
async function seedRotation(
  db: Db,
  writer: BulkWriter,
  auth: AuthContext,
  users: Array<Omit<BenchUser, 'crewOffset' | 'assignmentId'>>,
  assignmentIds: number[],
  windowStart: string,
  adminId: number,
  lines: LogLine[],
): Promise<BenchUser[]> {
  const rotationName = '24/48 A/B/C';
  const rotationId = await createRotation(db, auth, { name: rotationName, anchor_date: windowStart, preset: '24/48' });
  const workTypeId = await defaultWorkTypeId(db, auth.orgId, 'Regular Time');
  const now = nowUtc();
  const members = users.map((user, index) => ({
    ...user,
    crewOffset: index % CREWS.length,
    assignmentId: assignmentIds[Math.floor(index / CREWS.length) % assignmentIds.length]!,
  }));
  const values = members.map((member) => ({
    rotation_id: rotationId,
    assignment_ids: JSON.stringify([member.assignmentId]),
    crew_offset: member.crewOffset,
    kelly_offset: 0,
    end_date: null,
    work_type_id: workTypeId,
    work_subtype_id: null,
    break_start: null,
    break_length: 0,
    notes: null,
    scheduled_by: adminId,
  }));
  const ids = await writer.insert(
    db,
    'recurring_shift',
    members.map((member, index) => ({
      organization_id: auth.orgId,
      user_id: member.id,
      start_date: windowStart,
      previous_id: null,
      created_at: now,
      updated_at: now,
      ...values[index]!,
    })),
  );
  const admin = { userId: adminId, name: fullName(users[0]!) };
  members.forEach((member, index) => {
    lines.push({
      action: 'recurring_shift.created',
      description: `placed ${fullName(member)} on rotation ${rotationName} from ${windowStart}.`,
      actor: admin,
      entityType: 'recurring_shift',
      entityId: ids[index],
      after: { user_id: member.id, start_date: windowStart, ...values[index] },
      createdAt: now,
    });
  });
  return members;
}

/** The n-th day the member is on duty (07:00 to 07:00 the next day). */
const dutyDay = (windowStart: Temporal.PlainDate, member: BenchUser, cycle: number) =>
  windowStart.add({ days: 3 * cycle + member.crewOffset });
const short = (local: string) => local.slice(0, 16);

/** One overtime shift per member and month, on the day after a duty day (always off duty). */
async function seedShifts(
  db: Db,
  writer: BulkWriter,
  auth: AuthContext,
  members: BenchUser[],
  windowStart: Temporal.PlainDate,
  months: number,
  lines: LogLine[],
) {
  const overtime = await orgColumns(db, 'work_type', auth.orgId, ['id'])
    .where('label', '=', 'Overtime')
    .executeTakeFirstOrThrow();
  const now = nowUtc();
  const admin = members[0]!;
  const values = members.flatMap((member, index) =>
    Array.from({ length: months }, (_, month) => {
      const date = dutyDay(windowStart, member, month * 10 + (index % 9))
        .add({ days: 1 })
        .toString();
      return {
        assignment_id: member.assignmentId,
        user_id: member.id,
        date,
        start: `${date} 08:00:00`,
        end: `${date} 18:00:00`,
        break_start: null,
        break_end: null,
        work_type_id: overtime.id,
        work_subtype_id: null,
        hold_over: 0,
        notes: 'Covering a vacancy',
        from_callback: null,
        traded_with: null,
        scheduled_by: admin.id,
        member,
      };
    }),
  );
  const ids = await writer.insert(
    db,
    'shift',
    values.map(({ member: _member, ...row }) => ({
      ...row,
      organization_id: auth.orgId,
      created_at: now,
      updated_at: now,
    })),
  );
  values.forEach(({ member, ...row }, index) => {
    lines.push({
      action: 'shift.created',
      description: `scheduled a shift for ${fullName(member)}, ${short(row.start)} to ${short(row.end)}.`,
      actor: { userId: admin.id, name: fullName(admin) },
      entityType: 'shift',
      entityId: ids[index],
      after: { ...row, labels: [], qualifiers: [] },
      createdAt: now,
    });
  });
  return ids.length;
}

const TIME_OFF_TYPES = [
  { label: 'Vacation', work_code: 'VAC', primary_color: '#3f5647', secondary_color: '#FFFFFF' },
  { label: 'Sick', work_code: 'SL', primary_color: '#2474a9', secondary_color: '#FFFFFF', force_include: true },
  { label: 'Kelly Day', work_code: 'KD', primary_color: '#7c3aed', secondary_color: '#FFFFFF' },
  { label: 'Comp Time', work_code: 'CT', primary_color: '#b45309', secondary_color: '#FFFFFF' },
];

/** Time off on duty days, 07:00 to 07:00: four in five approved by the admin, the rest requested by the user. */
async function seedTimeOffs(
  db: Db,
  writer: BulkWriter,
  auth: AuthContext,
  members: BenchUser[],
  windowStart: Temporal.PlainDate,
  days: number,
  total: number,
  lines: LogLine[],
) {
  const types: Array<{ id: number; label: string }> = [];
  for (const type of TIME_OFF_TYPES) types.push({ id: await createTimeOffType(db, auth, type), label: type.label });
  const now = nowUtc();
  const admin = members[0]!;
  const cycles = Math.floor(days / 3) - 1;
  // The k-th entry of each member falls in the k-th slice of the window, spread over the slice's days.
  const slice = Math.max(1, Math.floor(cycles / Math.ceil(total / members.length)));
  const entries = Array.from({ length: total }, (_, n) => {
    const index = n % members.length;
    const member = members[index]!;
    const k = Math.floor(n / members.length);
    const start = dutyDay(windowStart, member, k * slice + ((index * 7) % slice));
    const startLocal = `${start.toString()} 07:00:00`;
    const endLocal = `${start.add({ days: 1 }).toString()} 07:00:00`;
    const type = types[n % types.length]!;
    const approved = n % 5 !== 4;
    const values = {
      organization_id: auth.orgId,
      user_id: member.id,
      time_off_type_id: type.id,
      start: startLocal,
      end: endLocal,
      rrule: null,
      until: lastOccurrenceEnd(null, startLocal, endLocal),
      status: approved ? APPROVED : PENDING,
      admin_ids: JSON.stringify(approved ? [admin.id] : []),
      admin_id: approved ? admin.id : null,
      requested_by_user: approved ? 0 : 1,
      user_note: approved ? null : 'Family commitment',
      traded_with: null,
      request_date: now,
      approval_date: approved ? now : null,
      denial_date: null,
      acknowledgement_date: null,
      deleted_at: null,
    };
    return { values, member, type, approved };
  });
  const ids = await writer.insert(
    db,
    'time_off',
    entries.map((e) => e.values),
  );
  entries.forEach(({ values, member, type, approved }, index) => {
    const span = `${short(values.start)} to ${short(values.end)}`;
    lines.push({
      action: 'time_off.created',
      description:
        `${approved ? 'created approved' : 'requested'} time off (${type.label}) for ${fullName(member)}, ` +
        `${span}.`,
      actor: approved ? { userId: admin.id, name: fullName(admin) } : { userId: member.id, name: fullName(member) },
      entityType: 'time_off',
      entityId: ids[index],
      after: { ...values, organization_id: undefined },
      createdAt: now,
    });
  });
  return ids.length;
}

/** Older history so that the log holds `count` entries: profile updates over the past year, oldest first. */
function historyLines(members: BenchUser[], count: number): LogLine[] {
  const admin = members[0]!;
  const end = Date.now() - 86_400_000;
  const step = (365 * 86_400_000) / Math.max(1, count);
  return Array.from({ length: count }, (_, n) => {
    const member = members[n % members.length]!;
    return {
      action: 'user.updated',
      description: `updated user ${fullName(member)} (${member.username}).`,
      actor: { userId: admin.id, name: fullName(admin) },
      entityType: 'user',
      entityId: member.id,
      after: { phone_numbers: [`555${String(1_000_000 + n).slice(-7)}`] },
      createdAt: new Date(end - (count - n) * step).toISOString(),
    };
  });
}

export async function seedBench(
  handle: DatabaseHandle,
  config: Pick<Config, 'secretKey'>,
  options: BenchSeedOptions,
): Promise<BenchSeedResult> {
  const began = performance.now();
  const { db } = handle;
  const report = options.onProgress ?? (() => undefined);
  const windowStart = todayIn(options.timezone)
    .with({ day: 1 })
    .subtract({ months: Math.floor(options.months / 2) });
  const windowEnd = windowStart.add({ months: options.months });
  const days = windowStart.until(windowEnd).days;
  const entityLogs = options.users * 2 + options.users * options.months + options.timeOffs;
  const totalRows =
    options.users * 2 + options.users * options.months + options.timeOffs + 2 * Math.max(options.logs, entityLogs);
  let done = 0;
  const writer = new BulkWriter(handle, (rows) => {
    done += rows;
    report('rows', done, totalRows);
  });

  const name = 'Bench Fire District';
  const orgId = await createOrganization(db, { name, timezone: options.timezone });
  const credential = await createCredential(db, config.secretKey, orgId, 'bench');
  const auth: AuthContext = {
    orgId,
    orgName: name,
    timezone: options.timezone,
    clientId: credential.client_id,
    credentialId: 0,
  };
  const lines: LogLine[] = [];
  const counts = await withTransaction(db, async (trx) => {
    const users = await seedUsers(trx, writer, auth, options.users, lines);
    const adminId = users[0]!.id;
    const assignmentIds = await seedAssignments(trx, auth, options.assignments, windowStart, adminId);
    const members = await seedRotation(trx, writer, auth, users, assignmentIds, windowStart.toString(), adminId, lines);
    const shifts = await seedShifts(trx, writer, auth, members, windowStart, options.months, lines);
    const timeOffs = await seedTimeOffs(trx, writer, auth, members, windowStart, days, options.timeOffs, lines);
    return {
      members,
      adminId,
      counts: {
        users: users.length,
        assignments: assignmentIds.length,
        recurring_shifts: members.length,
        shifts,
        time_offs: timeOffs,
      },
    };
  });
  // The log so far holds the lines written by the rule functions (assignments, rotation, types).
  const { logged } = await db
    .selectFrom('system_log')
    .select((eb) => eb.fn.countAll<number>().as('logged'))
    .where('organization_id', '=', orgId)
    .executeTakeFirstOrThrow();
  const history = historyLines(counts.members, Math.max(0, options.logs - Number(logged) - lines.length));
  const CHUNK = 50_000;
  const ordered = [...history, ...lines];
  for (let offset = 0; offset < ordered.length; offset += CHUNK) {
    await withTransaction(db, (trx) => writeLogLines(trx, writer, auth, ordered.slice(offset, offset + CHUNK)));
  }
  return {
    ...credential,
    admin_id: counts.adminId,
    window_start: windowStart.toString(),
    window_end: windowEnd.toString(),
    counts: { ...counts.counts, logs: Number(logged) + ordered.length },
    seconds: Math.round((performance.now() - began) / 100) / 10,
  };
}

export function positiveInt(raw: string, name: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** The CLI's `seed bench`: a progress bar on a terminal (stderr), none with --json or when not a TTY. */
export async function runBenchSeed(
  handle: DatabaseHandle,
  config: Pick<Config, 'secretKey'>,
  options: Omit<BenchSeedOptions, 'onProgress'> & { json: boolean },
): Promise<BenchSeedResult> {
  const { json, ...seedOptions } = options;
  if (json || !process.stderr.isTTY) return seedBench(handle, config, seedOptions);
  const bar = new SingleBar(
    { stream: process.stderr, format: 'seed bench [{bar}] {percentage}% | {value}/{total} rows | {duration}s' },
    Presets.shades_classic,
  );
  bar.start(1, 0);
  try {
    const result = await seedBench(handle, config, {
      ...seedOptions,
      onProgress: (_step, done, total) => {
        bar.setTotal(total);
        bar.update(done);
      },
    });
    bar.update(bar.getTotal());
    return result;
  } finally {
    bar.stop();
  }
}
