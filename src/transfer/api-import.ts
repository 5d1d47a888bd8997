import { isValidTimeZone, monthsFromTo, nowUtc } from '../core/time.js';
import { FORMAT, FORMAT_VERSION, type OrganizationDocument, type Row } from './export.js';
import { newUserState } from '../resources/users/repository.js';

/**
 * `import api`: an organization read through the public v1 API of a server that speaks it (another
 * crewplan, or the hosted platform), as an organization export document that importOrganization
 * writes. The API shows the schedule as it falls, not the rules that make it: what it cannot carry
 * is listed in the result's `not_carried`, never guessed.
 */

export interface ApiSource {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** First and last date of the schedule and time off to read (YYYY-MM-DD). */
  from: string;
  to: string;
  /** The organization's time zone when the source does not show it (GET /company). */
  timezone?: string;
}

export interface ApiReadResult {
  document: OrganizationDocument;
  /** Rows read, per table. */
  counts: Record<string, number>;
  /** What the public API could not carry, in sentences. */
  not_carried: string[];
}

type Json = any;

/** A JSON reader of the source API with a client-credentials token. */
async function connect(source: ApiSource) {
  const base = source.baseUrl.replace(/\/+$/, '');
  const tokenResponse = await fetch(`${base}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: source.clientId,
      client_secret: source.clientSecret,
    }),
  });
  if (!tokenResponse.ok)
    throw new Error(`${base} refused the credentials: HTTP ${tokenResponse.status} ${await tokenResponse.text()}`);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  return async function get(pathOrUrl: string, query: Record<string, string> = {}): Promise<Json> {
    const url = new URL(pathOrUrl.startsWith('http') ? pathOrUrl : `${base}/v1${pathOrUrl}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (!response.ok)
      throw new Error(
        `GET ${url.pathname}${url.search}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`,
      );
    return response.json();
  };
}

const bit = (value: unknown) => (value ? 1 : 0);
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
/** An instant the API shows with an offset, stored as UTC ISO text. */
const instant = (value: unknown) => (typeof value === 'string' && value ? new Date(value).toISOString() : null);

/** Reads what the public API shows of the organization behind the credentials. */
export async function readOrganizationFromApi(source: ApiSource): Promise<ApiReadResult> {
  const get = await connect(source);
  const now = nowUtc();
  const company: Json = await get('/company').catch(() => ({}));
  const timezone: string | undefined = company.timezone ?? source.timezone;
  if (!timezone || !isValidTimeZone(timezone))
    throw new Error('the source does not show its time zone (GET /company): give --timezone');
  const tables: Record<string, Row[]> = {};
  const add = (table: string, row: Row) => {
    tables[table] ??= [];
    tables[table].push(row);
  };

  const users: Json[] = await get('/users');
  for (const u of users) {
    add('user_account', {
      id: u.user_id,
      username: u.username,
      password_hash: null,
      employee_id: u.employee_id ?? null,
      first_name: u.first_name,
      last_name: u.last_name,
      role: u.role ?? null,
      avatar_url: u.avatar_url ?? null,
      date_of_hire: u.date_of_hire ?? null,
      date_of_birth: u.date_of_birth ?? null,
      accrual_start_date: u.accrual_start_date ?? null,
      emails: JSON.stringify(u.emails ?? []),
      phone_numbers: JSON.stringify(u.phone_numbers ?? []),
      ...newUserState(now),
    });
  }
  for (const w of (await get('/work_types')) as Json[]) {
    add('work_type', {
      id: num(w.id),
      label: w.label,
      work_code: w.work_code ?? null,
      primary_color: w.primary_color ?? '#3B82F6',
      secondary_color: w.secondary_color ?? '#FFFFFF',
      excludes_from_callback: bit(w.excludes_from_callback),
      position: num(w.position) ?? 0,
      deleted_at: null,
    });
  }
  for (const t of (await get('/time_off_types')) as Json[]) {
    add('time_off_type', {
      id: num(t.id),
      label: t.label,
      work_code: t.work_code ?? null,
      primary_color: t.primary_color ?? '#3f5647',
      secondary_color: t.secondary_color ?? '#FFFFFF',
      force_include: bit(t.force_include),
      forward: bit(t.forward),
      required_buffer: num(t.required_buffer) ?? 0,
      instance_limit: num(t.instance_limit) ?? 0,
      allow_negative: 0,
      deleted_at: null,
      created_at: now,
    });
  }
  for (const q of (await get('/qualifiers')) as Json[]) {
    add('qualifier', {
      id: num(q.id),
      name: q.name,
      shortcode: q.shortcode ?? null,
      color: q.color ?? null,
      text_color: q.text_color ?? null,
      title_id: null,
      partner_credential_id: null,
      created_by: null,
      created_at: now,
      modified_by: null,
      modified_at: null,
      deleted_by: null,
      deleted_at: null,
    });
  }
  for (const g of (await get('/groups')) as Json[])
    add('user_group', { id: num(g.id), name: g.label ?? g.name, created_at: now });

  let membership = 0;
  let ledger = 0;
  for (const u of users) {
    for (const q of (await get(`/users/${u.user_id}/qualifiers`)) as Json[]) {
      add('user_qualifier', {
        id: ++membership,
        user_id: u.user_id,
        qualifier_id: num(q.id),
        ranking: num(q.ranking) ?? 0,
      });
    }
    for (const g of (await get(`/users/${u.user_id}/groups`)) as Json[]) {
      add('user_group_member', { id: ++membership, user_id: u.user_id, group_id: num(g.id) });
    }
    for (const balance of (await get(`/users/${u.user_id}/timeoff/accrual/bank`)) as Json[]) {
      if (!Number(balance.hours)) continue;
      add('accrual_transaction', {
        id: ++ledger,
        user_id: u.user_id,
        time_off_type_id: num(balance.time_off_type?.id),
        hours: Number(balance.hours),
        kind: 'manual',
        admin_id: null,
        notes: `Balance imported from ${source.baseUrl}`,
        time_off_id: null,
        period_key: null,
        created_at: now,
      });
    }
  }

  for (const a of (await get('/assignments')) as Json[]) {
    add('assignment', {
      id: num(a.id),
      name: a.name,
      position: num(a.position) ?? 0,
      date: String(a.date).slice(0, 10),
      start: a.start,
      end: a.end,
      positions_to_fill: num(a.positions_to_fill) ?? 1,
      is_work_shift: bit(a.is_work_shift ?? true),
      self_scheduling: bit(a.self_scheduling),
      self_scheduling_requires_approval: bit(a.self_scheduling_requires_approval),
      service_eligible: bit(a.service_eligible),
      hide_open_slots: bit(a.hide_open_slots),
      color: a.color ?? '#F5F4F2',
      location: a.location ? JSON.stringify(a.location) : null,
      rrule: a.rrule ?? null,
      until_date: a.until ?? null,
      notes: a.notes ?? null,
      created_by: null,
      deleted_at: null,
      created_at: now,
      updated_at: now,
    });
    for (const q of (a.qualifiers_needed ?? []) as Json[]) {
      add('assignment_qualifier', {
        id: ++membership,
        assignment_id: num(a.id),
        qualifier_id: num(q.id),
        minimum_staffing: num(q.minimum_staffing) ?? 1,
      });
    }
  }

  // the schedule as it falls, month by month: every shift becomes a one-off shift
  const seen = new Set<string>();
  let recurring = 0;
  for (const [first, last] of monthsFromTo(source.from, source.to)) {
    const start = first < source.from ? source.from : first;
    const end = last > source.to ? source.to : last;
    const period: Json = await get('/schedule', { start: `${start} 00:00:00`, end: `${end} 23:59:59` });
    for (const day of period.days ?? []) {
      for (const assignment of day.assignments ?? []) {
        for (const s of assignment.shifts ?? []) {
          const key = `${s.href ?? s.id}|${s.start}`;
          if (seen.has(key) || !s.user?.id) continue;
          seen.add(key);
          if (s.recurring) recurring += 1;
          add('shift', {
            id: seen.size,
            assignment_id: num(assignment.id),
            user_id: num(s.user?.id),
            date: String(s.start).slice(0, 10),
            start: s.start,
            end: s.end,
            work_type_id: num(s.work_type?.id),
            work_subtype_id: null,
            break_start: s.break_start ?? null,
            break_end: s.break_end ?? null,
            hold_over: num(s.hold_over) ?? 0,
            notes: s.notes ?? null,
            from_callback: null,
            traded_with: null,
            scheduled_by: num(s.scheduled_by?.id),
            created_at: now,
            updated_at: now,
          });
        }
      }
    }
  }

  const timeOffIds = new Set<number>();
  let repeated = 0;
  let page: string | null = '/time_offs';
  let query: Record<string, string> = { start: `${source.from} 00:00:00`, end: `${source.to} 23:59:59`, limit: '100' };
  while (page) {
    const body: Json = await get(page, query);
    for (const t of body.items ?? []) {
      // recurring time off shows once per occurrence, under one id: each occurrence becomes an entry
      if (timeOffIds.has(num(t.id)!)) repeated += 1;
      timeOffIds.add(num(t.id)!);
      add('time_off', {
        id: (tables.time_off?.length ?? 0) + 1,
        user_id: num(t.user?.id),
        time_off_type_id: num(t.time_off_type?.id),
        start: t.start,
        end: t.end,
        rrule: null,
        until: null,
        status: num(t.status) ?? 0,
        admin_ids: '[]',
        admin_id: num(t.admin?.id),
        requested_by_user: 0,
        user_note: t.user_note ?? null,
        traded_with: num(t.traded_with?.id ?? t.traded_with),
        request_date: instant(t.request_date) ?? now,
        approval_date: instant(t.approval_date),
        denial_date: null,
        acknowledgement_date: instant(t.acknowledgement_date),
        deleted_at: null,
      });
    }
    page = body.metadata?.links?.next ?? null;
    query = {};
  }

  const counts = Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, rows.length]));
  const notCarried = [
    'rotation patterns: the API shows the schedule as it falls, not the rotations, crews and recurring ' +
      `shifts behind it; ${recurring} recurring shift occurrences from ${source.from} to ${source.to} ` +
      'were written as one-off shifts, and nothing is scheduled outside that period',
    `recurring time off: ${repeated} further occurrences of recurring entries were written as entries of their own`,
    "accrual profiles, tracks and the bank ledger: each user's balance per time off type was written as one " +
      'manual bank entry',
    'passwords and API credentials: users sign in after an administrator sets a password',
    'the system log, shift labels and qualifiers, work subtypes, callback lists, trades, callbacks, signup ' +
      'events, finalized days, notes and the other extension records',
  ];
  const document: OrganizationDocument = {
    format: FORMAT,
    version: FORMAT_VERSION,
    exported_at: now,
    schema: null,
    organization: { name: company.name ?? `Imported from ${source.baseUrl}`, timezone, created_at: now },
    tables,
    files: {},
  };
  return { document, counts, not_carried: notCarried };
}
