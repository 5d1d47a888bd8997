import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAssignment,
  createRotation,
  placeOnRotation,
  workTypeId,
} from '../../src/resources/rotations/test-fixtures.js';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';

/**
 * Every create and update whose rules can fail on several fields at once: a request with two or
 * more independent faults (an end before its start, unknown ids…) answers one 422 naming each of
 * them, in the order the fields are checked, and writes nothing (no log entry, no record).
 */

const UNKNOWN = 999_999;

let server: TestServer;
let org: TestOrg;
/** Records the cases name: created once, never changed by a refused request. */
const ids: Record<string, number> = {};
let otherName = '';

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  ids.user = await org.createUser({ first_name: 'Ada', last_name: 'Field' });
  ids.other = await org.createUser({ first_name: 'Bo', last_name: 'Field' });
  ids.assignment = await createAssignment(org, { name: 'Engine 9' });
  ids.workType = await workTypeId(org);
  ids.rotation = await createRotation(org);
  const shift = await org.post('/shifts', {
    assignment_id: ids.assignment,
    user_id: ids.user,
    date: '2027-08-02',
    start: '2027-08-02 07:00:00',
    end: '2027-08-02 19:00:00',
    work_type_id: ids.workType,
  });
  expect(shift.status, shift.text).toBe(201);
  ids.shift = shift.body.id;
  ids.series = await placeOnRotation(org, {
    user_id: ids.other,
    rotation_id: ids.rotation,
    assignment_id: ids.assignment,
    start_date: '2027-09-01',
  });
  const event = await org.post('/signup_events', {
    admin_id: ids.user,
    title: 'Drill',
    start: '2027-08-20 08:00:00',
    end: '2027-08-20 12:00:00',
    employees_needed: 2,
    work_type_id: ids.workType,
  });
  expect(event.status, event.text).toBe(201);
  ids.event = event.body.id;
  const type = await org.post('/time_off_types', {
    label: 'Vacation',
    work_code: 'VAC',
    primary_color: '#3f5647',
    secondary_color: '#FFFFFF',
  });
  expect(type.status, type.text).toBe(201);
  const request = await org.post(`/users/${ids.user}/time_offs`, {
    start_date: '2027-11-01 07:00:00',
    end_date: '2027-11-01 19:00:00',
    time_off_type_id: type.body.id,
  });
  expect(request.status, request.text).toBe(201);
  ids.timeOff = request.body.id;
  const cycle = await org.post('/visual_cycles', {
    name: 'A',
    start: '2027-01-01 00:00:00',
    end: '2027-01-03 00:00:00',
    color: '#112233',
    text_color: '#FFFFFF',
  });
  expect(cycle.status, cycle.text).toBe(201);
  ids.cycle = cycle.body.id;
  otherName = (await org.get(`/users/${ids.other}`)).body.username;
  const partner = await org.post('/partner/users', { id: 5001, service_user_id: ids.user, partner_customer_id: 1 });
  expect(partner.status, partner.text).toBe(201);
  // some twenty writes: give a loaded machine time
}, 180_000);
afterAll(() => server?.close());

interface Case {
  /** the route, as its operation is named: the method, then the path */
  route: `${'POST' | 'PUT' | 'PATCH'} /${string}`;
  /** the path with the ids filled in, where the route's path has any */
  path?: () => string;
  body: () => unknown;
  /** every failing field, in the order the route checks them */
  messages: string[];
  /** a read whose answer the refused request must leave unchanged */
  unchanged: () => string;
  /**
   * A field the schema refuses, added to the body, and its message: the route runs its rule checks
   * on the fields the schema accepted, so the 422 names this field first and then every rule broken.
   */
  schemaFault?: {
    field: string;
    value: unknown;
    message: string /** the rules named, when not `messages` */;
    rules?: string[];
  };
}

const CASES: Case[] = [
  {
    route: 'POST /shifts',
    body: () => ({
      assignment_id: UNKNOWN,
      user_id: UNKNOWN,
      date: '2027-08-10',
      start: '2027-08-10 19:00:00',
      end: '2027-08-10 07:00:00',
      work_type_id: UNKNOWN,
      labels: [UNKNOWN],
    }),
    messages: [
      'The end must be after the start.',
      'The selected assignment id is invalid.',
      'The selected user id is invalid.',
      'The selected work type id is invalid.',
      'The selected label id is invalid.',
    ],
    unchanged: () => `/shifts?user_id=${ids.user}`,
    schemaFault: { field: 'notes', value: 5, message: 'The notes field must be text or null.' },
  },
  {
    route: 'PATCH /shifts/{id}',
    path: () => `/shifts/${ids.shift}`,
    body: () => ({
      date: '2027-08-02',
      start: '2027-08-02 07:00:00',
      end: '2027-08-02 19:00:00',
      break_start: '2027-08-02 20:00:00',
      break_end: '2027-08-02 21:00:00',
      user_id: UNKNOWN,
      admin_id: UNKNOWN,
      qualifiers: [UNKNOWN],
    }),
    messages: [
      'The break must lie within the shift.',
      'The selected user id is invalid.',
      'The selected admin id is invalid.',
      'The selected qualifier id is invalid.',
    ],
    unchanged: () => `/shifts/${ids.shift}`,
    schemaFault: { field: 'hold_over', value: 'two', message: 'The hold over field must be a whole number.' },
  },
  {
    route: 'POST /recurring_shifts',
    body: () => ({
      user_id: UNKNOWN,
      rotation_id: ids.rotation,
      crew: 'Z',
      assignment_ids: [UNKNOWN],
      work_type_id: UNKNOWN,
      start_date: '2027-10-10',
      end_date: '2027-10-01',
    }),
    messages: [
      'The selected user id is invalid.',
      'The selected crew is invalid.',
      'The selected assignment id is invalid.',
      'The selected work type id is invalid.',
      'The end date must be after the start date.',
    ],
    unchanged: () => '/recurring_shifts',
  },
  {
    route: 'PATCH /recurring_shifts/{id}',
    path: () => `/recurring_shifts/${ids.series}`,
    body: () => ({ effective_date: '2020-01-01', rotation_id: UNKNOWN, assignment_id: UNKNOWN, admin_id: UNKNOWN }),
    messages: [
      'The effective date must be today or later: past occurrences never change.',
      'The selected rotation id is invalid.',
      'The selected assignment id is invalid.',
      'The selected admin id is invalid.',
    ],
    unchanged: () => `/recurring_shifts/${ids.series}`,
  },
  {
    route: 'POST /recurring_shifts/{id}/exceptions',
    path: () => `/recurring_shifts/${ids.series}/exceptions`,
    body: () => ({
      date: '2027-08-01',
      action: 'move',
      start: '2027-08-01 19:00:00',
      end: '2027-08-01 07:00:00',
      assignment_id: UNKNOWN,
      admin_id: UNKNOWN,
    }),
    messages: [
      'The recurring shift has no occurrence on that date.',
      'The selected admin id is invalid.',
      'The end must be after the start.',
      'The selected assignment id is invalid.',
    ],
    unchanged: () => `/recurring_shifts/${ids.series}`,
  },
  {
    route: 'POST /callbacks',
    body: () => ({
      list_id: UNKNOWN,
      initiated_by: UNKNOWN,
      start: '2027-08-12 19:00:00',
      end: '2027-08-12 07:00:00',
      positions_to_fill: 1,
      deadline: '2027-08-12 06:00:00',
      assignment_id: UNKNOWN,
      work_type_id: UNKNOWN,
    }),
    messages: [
      'The selected initiated by is invalid.',
      'The selected list id is invalid.',
      'The end must be after the start.',
      'The selected assignment id is invalid.',
      'The selected work type id is invalid.',
    ],
    unchanged: () => '/callbacks',
    schemaFault: { field: 'positions_to_fill', value: 0, message: 'The positions to fill must be at least 1.' },
  },
  {
    route: 'POST /trades',
    body: () => ({
      requesting_user: UNKNOWN,
      approving_user_id: UNKNOWN,
      start: '2027-08-12 19:00:00',
      end: '2027-08-12 07:00:00',
      swap_start: '2027-08-14 07:00:00',
      offered_user_ids: [ids.other, UNKNOWN],
    }),
    messages: [
      'The selected requesting user is invalid.',
      'The selected approving user id is invalid.',
      'The end must be after the start.',
      'The swap start and swap end must be sent together.',
      'The selected offered user ids is invalid.',
    ],
    unchanged: () => '/trades',
    // one trade, not a list: the schema's union still names the trade's refused field
    schemaFault: {
      field: 'notes',
      value: 5,
      message: 'The notes field must be text or null.',
      // a swap end alone is not judged beside a refused field: the other end may be the refused one
      rules: [
        'The selected requesting user is invalid.',
        'The selected approving user id is invalid.',
        'The end must be after the start.',
        'The selected offered user ids is invalid.',
      ],
    },
  },
  {
    route: 'POST /signup_events',
    body: () => ({
      admin_id: UNKNOWN,
      title: 'Drill',
      start: '2027-08-21 12:00:00',
      end: '2027-08-21 08:00:00',
      employees_needed: 2,
      work_type_id: UNKNOWN,
    }),
    messages: [
      'The selected admin id is invalid.',
      'The end must be after the start.',
      'The selected work type id is invalid.',
    ],
    unchanged: () => '/signup_events',

    schemaFault: {
      field: 'employees_needed',
      value: 'two',
      message: 'The employees needed field must be a whole number.',
    },
  },
  {
    route: 'PUT /signup_events/{id}',
    path: () => `/signup_events/${ids.event}`,
    body: () => ({
      admin_id: UNKNOWN,
      title: 'Drill',
      start: '2027-08-21 12:00:00',
      end: '2027-08-21 08:00:00',
      employees_needed: 2,
      work_type_id: ids.workType,
      work_subtype_id: UNKNOWN,
    }),
    messages: [
      'The selected admin id is invalid.',
      'The end must be after the start.',
      'The selected work subtype id is invalid.',
    ],
    unchanged: () => `/signup_events/${ids.event}`,

    schemaFault: {
      field: 'employees_needed',
      value: 'two',
      message: 'The employees needed field must be a whole number.',
    },
  },
  {
    route: 'POST /misc_hours',
    body: () => ({ user_id: UNKNOWN, date: '2027-08-12', work_type_id: UNKNOWN, start: '2027-08-12 07:00:00' }),
    messages: [
      'The start and end fields must be given together.',
      'The selected user id is invalid.',
      'The selected work type id is invalid.',
    ],
    unchanged: () => '/misc_hours?start=2027-01-01&end=2027-12-31',
  },
  {
    route: 'POST /availability_periods',
    body: () => ({
      user_id: UNKNOWN,
      start: '2027-08-12 19:00:00',
      end: '2027-08-12 07:00:00',
      admin_id: UNKNOWN,
      unavailability_reason_id: UNKNOWN,
    }),
    messages: [
      'The end must be after the start.',
      'The selected user id is invalid.',
      'The selected admin id is invalid.',
      'The selected unavailability reason id is invalid.',
    ],
    unchanged: () => '/availability_periods?start=2027-01-01%2000:00:00&end=2028-01-01%2000:00:00',

    schemaFault: { field: 'notes', value: 5, message: 'The notes field must be text or null.' },
  },
  {
    route: 'POST /assignments',
    body: () => ({
      name: 'Ladder 3',
      start: '2027-01-02 07:00:00',
      end: '2027-01-01 07:00:00',
      positions_to_fill: 1,
      rrule: 'FREQ=DAILY;BYHOUR=7',
      admin_id: UNKNOWN,
      qualifiers_needed: [{ id: UNKNOWN, minimum_staffing: 1 }],
    }),
    messages: [
      'The end must be after the start.',
      "The rrule may not carry BYHOUR: every occurrence keeps the start's time of day.",
      'The selected admin id is invalid.',
      'The selected qualifier id is invalid.',
    ],
    unchanged: () => '/assignments',
    schemaFault: { field: 'name', value: 5, message: 'The name field must be text.' },
  },
  {
    route: 'PATCH /assignments/{id}',
    path: () => `/assignments/${ids.assignment}`,
    body: () => ({ until: '2026-12-01', admin_id: UNKNOWN }),
    messages: ['The until must be after the start.', 'The selected admin id is invalid.'],
    unchanged: () => `/assignments/${ids.assignment}`,
  },
  {
    route: 'PATCH /users/{user_id}/time_offs/{id}',
    path: () => `/users/${ids.user}/time_offs/${ids.timeOff}`,
    body: () => ({ end_date: '2027-10-31 07:00:00', admin_ids: [UNKNOWN], time_off_type_id: UNKNOWN }),
    messages: [
      'The end date must be after the start date.',
      'The selected admin id is invalid.',
      'The selected time off type id is invalid.',
    ],
    unchanged: () => `/users/${ids.user}/time_offs`,
  },
  {
    route: 'POST /visual_cycles',
    body: () => ({
      name: 'B',
      start: '2027-01-03 00:00:00',
      end: '2027-01-01 00:00:00',
      color: '#112233',
      text_color: '#FFFFFF',
      created_by: UNKNOWN,
    }),
    messages: ['The selected created by is invalid.', 'The end must be after the start.'],
    unchanged: () => '/visual_cycles',
  },
  {
    route: 'PUT /visual_cycles/{id}',
    path: () => `/visual_cycles/${ids.cycle}`,
    body: () => ({ end: '2026-12-01 00:00:00', admin_id: UNKNOWN }),
    messages: ['The selected admin id is invalid.', 'The end must be after the start.'],
    unchanged: () => `/visual_cycles/${ids.cycle}`,
  },
  {
    route: 'PATCH /users/{user_id}',
    path: () => `/users/${ids.user}`,
    body: () => ({
      username: otherName,
      accrual_profile: { id: UNKNOWN },
      accrual_track: { id: UNKNOWN },
      fields: [{ id: UNKNOWN, value: 'x' }],
    }),
    messages: [
      'The username has already been taken.',
      'The selected accrual profile id is invalid.',
      'The selected accrual track id is invalid.',
      'The selected fields id is invalid.',
    ],
    unchanged: () => `/users/${ids.user}`,

    schemaFault: { field: 'first_name', value: 5, message: 'The first name field must be text.' },
  },
  {
    route: 'PUT /users',
    body: () => ({
      username: otherName,
      first_name: 'Cy',
      last_name: 'Field',
      mail: 'cy@example.org',
      password: 'long-enough-pass',
    }),
    messages: ['The username has already been taken.'],
    unchanged: () => '/users',
    schemaFault: { field: 'mail', value: 'not-an-address', message: 'The mail is not a valid e-mail address.' },
  },
  {
    route: 'POST /partner/users',
    body: () => ({ id: 5001, service_user_id: UNKNOWN, partner_customer_id: 1 }),
    messages: ['The id has already been taken.', 'The selected service user id is invalid.'],
    unchanged: () => '/partner/users',
  },
  {
    route: 'POST /ready_alerts',
    body: () => ({ type: 'group', ids: [UNKNOWN], body: 'Stand by', user_id: UNKNOWN }),
    messages: ['The selected user id is invalid.', 'The selected group id is invalid.'],
    unchanged: () => '/logs?limit=5',
  },
  {
    route: 'POST /forms',
    body: () => ({ title: 'Survey', user_id: UNKNOWN, fields: [{ title: 'Size' }, { title: 'Size' }] }),
    messages: ['The selected user id is invalid.', 'The field title "Size" appears more than once.'],
    unchanged: () => '/forms',
  },
  {
    route: 'POST /accrual_profiles',
    body: () => ({
      name: 'Standard',
      rules: [
        { time_off_type_id: UNKNOWN, method: 'days' },
        { time_off_type_id: UNKNOWN, method: 'month', hours: 8 },
      ],
    }),
    messages: [
      'A profile holds one rule per time off type.',
      'The selected time off type id is invalid.',
      'The interval field is required for the days method.',
      'The hours field is required for the days method.',
    ],
    unchanged: () => '/accrual_profiles',
  },
  {
    route: 'POST /accrual_tracks',
    body: () => ({
      name: 'Seniority',
      steps: [
        { profile_id: UNKNOWN, from_years: 0 },
        { profile_id: UNKNOWN, from_years: 0 },
      ],
    }),
    messages: ['Each step of a track starts at a different number of years.', 'The selected profile id is invalid.'],
    unchanged: () => '/accrual_tracks',
  },
  {
    route: 'POST /announcements',
    body: () => ({ body: '<script>alert(1)</script>', admin_id: UNKNOWN }),
    messages: ['The selected admin id is invalid.', 'The body field must contain text after removing disallowed HTML.'],
    unchanged: () => '/announcements',
  },
  {
    route: 'POST /qualifiers',
    body: () => ({ name: 'Medic', title_id: UNKNOWN, admin_id: UNKNOWN }),
    messages: ['The selected admin id is invalid.', 'The selected title id is invalid.'],
    unchanged: () => '/qualifiers',
  },
  {
    route: 'PUT /callback_auto_start',
    body: () => ({
      enabled: true,
      within_days: 3,
      initiated_by: UNKNOWN,
      lists: [
        { assignment_id: UNKNOWN, list_id: UNKNOWN },
        { assignment_id: UNKNOWN, list_id: UNKNOWN },
      ],
    }),
    messages: [
      'The selected initiated by is invalid.',
      'The lists name an assignment more than once.',
      `The lists assignment ids ${UNKNOWN}, ${UNKNOWN} do not exist.`,
      `The lists list ids ${UNKNOWN} do not exist.`,
    ],
    unchanged: () => '/callback_auto_start',
  },
  {
    route: 'POST /users/{user_id}/push_subscriptions',
    path: () => `/users/${ids.user}/push_subscriptions`,
    body: () => ({ endpoint: 'http://push.example.com/1', keys: { p256dh: 'AAAA', auth: 'AAAA' } }),
    messages: [
      'The endpoint must be an https URL.',
      'The keys p256dh must be a P-256 public key (65 bytes, base64url).',
      'The keys auth must be a 16-byte secret (base64url).',
    ],
    unchanged: () => `/users/${ids.user}/push_subscriptions`,
  },
];

/** The newest log entry's id: every write logs in its own transaction, so a refused one leaves it. */
async function newestLogId(): Promise<string | undefined> {
  const response = await org.get('/logs', { query: { limit: 1 } });
  expect(response.status).toBe(200);
  return response.body.data[0]?.log_id;
}

describe('one 422 names every failing field', () => {
  it.each(CASES.map((c) => [c.route, c] as const))('%s', async (_route, c) => {
    const before = await org.get(c.unchanged());
    const log = await newestLogId();
    const [method, path] = c.route.split(' ');
    const response = await org.request(method, c.path?.() ?? path, c.body());
    expect(response.status, response.text).toBe(422);
    expect(response.body).toEqual({ status: 422, error: 'invalid_params', error_message: c.messages });
    expect(await newestLogId()).toBe(log);
    expect((await org.get(c.unchanged())).body).toEqual(before.body);
  });
});

describe('a field the schema refuses hides none of the rules', () => {
  const faulty = CASES.filter((c) => c.schemaFault);
  it.each(faulty.map((c) => [c.route, c] as const))('%s', async (_route, c) => {
    const before = await org.get(c.unchanged());
    const log = await newestLogId();
    const [method, path] = c.route.split(' ');
    const { field, value, message, rules = c.messages } = c.schemaFault!;
    const response = await org.request(method, c.path?.() ?? path, { ...(c.body() as object), [field]: value });
    expect(response.status, response.text).toBe(422);
    expect(response.body).toEqual({ status: 422, error: 'invalid_params', error_message: [message, ...rules] });
    expect(await newestLogId()).toBe(log);
    expect((await org.get(c.unchanged())).body).toEqual(before.body);
  });
});
