/**
 * What an organization export carries of each tenant table (every table with `organization_id`),
 * and how each reference is carried over to the new ids on import. The list of tables is read from
 * the database itself; `tables.test.ts` fails when a table with `organization_id` is neither here
 * nor in {@link NOT_EXPORTED}, or when a column that looks like a reference is not classified.
 * A text column holding ids inside JSON (or another shape) cannot be told by its name: add it to
 * `remap` with the column.
 */

/** The new id of a row of `table` that had `oldId` in the export; undefined when the export had no such row. */
export type IdLookup = (table: string, oldId: number) => number | undefined;

/** A column whose value holds ids in a shape of its own (JSON text, or a table named by another column). */
export type Remap = (value: unknown, row: Record<string, unknown>, lookup: IdLookup) => unknown;

export interface TablePolicy {
  /**
   * column → the table whose id it holds (ids without a row in the export become null, or 0 when the
   * column is not null)
   */
  refs?: Record<string, string>;
  /** columns holding ids in a shape of their own */
  remap?: Record<string, Remap>;
  /** columns never exported, with the value written in their place on import (secrets, leases, delivery state) */
  reset?: Record<string, unknown>;
  /**
   * columns named like references that hold no id of this database (a partner's ids, employee numbers),
   * copied as they are
   */
  external?: string[];
}

/** Tenant tables an export leaves out, and why. */
export const NOT_EXPORTED: Record<string, string> = {
  api_credential: 'credentials: the import creates a new one',
  access_token: 'tokens',
  stored_file_chunk: "certification files: the export's `files`, by the name their record gives",
  web_session: 'web app sessions',
  calendar_feed: 'feed URLs are secrets (token hashes): create the feeds again',
  idempotency_key: 'replay records of requests (24 hours)',
  outbox_event: 'webhook events already created: an imported webhook receives events created after the import',
  webhook_delivery: "the webhooks' delivery log",
  bulletin_board_lock: 'an editing lease of minutes',
  callback_offer: 'callback offer links are secrets (token hashes): the runner makes new ones',
  callback_decision: "decision records: evidence of this database's callbacks, their snapshots hold its ids",
  callback_decision_line: 'decision records (callback_decision)',
  callback_contact: 'decision records (callback_decision): the messages sent for callbacks',
  push_subscription: "a browser's push endpoint and keys belong to that device: members subscribe again",
  schedule_change: "a count of the organization's changes for the schedule's computed days (SQLite)",
  schedule_user_change: "the users whose changes the schedule's computed days are patched for (SQLite)",
  log_chain_head: "the newest hash of the log's chain: the import chains the imported log anew",
};

/** A JSON array of ids of one table. */
const idArray =
  (table: string): Remap =>
  (value, _row, lookup) => {
    if (typeof value !== 'string') return value;
    const ids = JSON.parse(value) as unknown[];
    return JSON.stringify(ids.map((id) => (typeof id === 'number' ? (lookup(table, id) ?? id) : id)));
  };

/** A JSON array of {qualifier_id, count} (group_minimum.min_qualified). */
const qualifierCounts: Remap = (value, _row, lookup) => {
  if (typeof value !== 'string') return value;
  const items = JSON.parse(value) as Array<{ qualifier_id: number; count: number }>;
  return JSON.stringify(
    items.map((q) => ({ ...q, qualifier_id: lookup('qualifier', q.qualifier_id) ?? q.qualifier_id })),
  );
};

/**
 * trade_placement.before: JSON of what a trade changed (src/resources/trades/placements.ts): a
 * shift's `user_id` and `traded_with`, or an occurrence's earlier exception with its `assignment_id`.
 */
const tradePlacementBefore: Remap = (value, _row, lookup) => {
  if (typeof value !== 'string') return value;
  const before = JSON.parse(value) as Record<string, unknown>;
  const map = (key: string, table: string) => {
    const id = before[key];
    if (typeof id === 'number') before[key] = lookup(table, id) ?? id;
  };
  map('user_id', USER);
  map('traded_with', USER);
  map('assignment_id', 'assignment');
  return JSON.stringify(before);
};

/** system_log.entity_type (and misc_hour.source) → the table its id names. */
const ENTITY_TABLES: Record<string, string> = {
  user: 'user_account',
  group: 'user_group',
  filter: 'specialty_filter',
  company: 'company_profile',
  webhook: 'webhook_endpoint',
  day_notes: 'day_note',
  list: 'callback_list',
};

function entityTable(type: unknown): string | undefined {
  if (typeof type !== 'string') return undefined;
  return ENTITY_TABLES[type] ?? type;
}

/**
 * An id kept as text or integer next to a column naming its table; kept as it was when the table has no row of that id.
 */
const idOfNamedTable =
  (typeColumn: string): Remap =>
  (value, row, lookup) => {
    const table = entityTable(row[typeColumn]);
    if (!table || value === null || value === undefined || !/^\d{1,10}$/.test(String(value))) return value;
    const mapped = lookup(table, Number(value));
    if (mapped === undefined) return value;
    return typeof value === 'string' ? String(mapped) : mapped;
  };

/** callback.vacancy: the assignment occurrence a callback fills (JSON), with its qualifier shortfalls. */
const callbackVacancy: Remap = (value, _row, lookup) => {
  if (typeof value !== 'string') return value;
  const vacancy = JSON.parse(value) as { assignment_id?: unknown; qualifier_shortfalls?: Array<{ id?: unknown }> };
  if (typeof vacancy.assignment_id === 'number')
    vacancy.assignment_id = lookup('assignment', vacancy.assignment_id) ?? vacancy.assignment_id;
  for (const shortfall of vacancy.qualifier_shortfalls ?? []) {
    if (typeof shortfall.id === 'number') shortfall.id = lookup('qualifier', shortfall.id) ?? shortfall.id;
  }
  return JSON.stringify(vacancy);
};

/** forced_hire.explained: the order, each member's `user_id` a user's. */
const forcedOrderUsers: Remap = (value, _row, lookup) => {
  if (typeof value !== 'string') return value;
  const order = JSON.parse(value) as Array<{ user_id: number }>;
  return JSON.stringify(order.map((m) => ({ ...m, user_id: lookup(USER, m.user_id) ?? m.user_id })));
};

/** forced_hire.auto_key: `${assignment id}@${date}`, one automatic forced hire per vacancy. */
const forcedAutoKey: Remap = (value, _row, lookup) => {
  const match = typeof value === 'string' ? /^(\d+)@(.*)$/.exec(value) : null;
  return match ? `${lookup('assignment', Number(match[1])) ?? match[1]}@${match[2]}` : value;
};

/** ready_alert.target_ids: ids of the table the alert's `type` names; `classification` holds roles. */
const ALERT_TARGETS: Record<string, string> = { user: 'user_account', group: 'user_group', title: 'callback_list' };
const alertTargets: Remap = (value, row, lookup) => {
  const table = ALERT_TARGETS[String(row.type)];
  return table ? idArray(table)(value, row, lookup) : value;
};

/** accrual_transaction.period_key: `${accrual rule id}:${period end date}` marks a credited period. */
const periodKey: Remap = (value, _row, lookup) => {
  const match = typeof value === 'string' ? /^(\d+):(.*)$/.exec(value) : null;
  if (!match) return value;
  return `${lookup('accrual_rule', Number(match[1])) ?? match[1]}:${match[2]}`;
};

const USER = 'user_account';
const byUsers = (...columns: string[]) => Object.fromEntries(columns.map((column) => [column, USER]));

export const EXPORTED: Record<string, TablePolicy> = {
  // the log keeps its text and its before/after snapshots as written (they name the source's ids)
  system_log: {
    refs: byUsers('actor_user_id'),
    remap: { entity_id: idOfNamedTable('entity_type') },
    external: ['client_id'],
  },
  accrual_profile: {},
  accrual_track: {},
  // password hashes are credentials: imported users sign in to the web app after a password reset
  user_account: {
    refs: { accrual_track_id: 'accrual_track', accrual_profile_id: 'accrual_profile' },
    reset: { password_hash: null },
    external: ['employee_id'],
  },
  user_field: {},
  user_field_value: { refs: { user_id: USER, field_id: 'user_field' } },
  work_type: {},
  work_subtype: { refs: { work_type_id: 'work_type' } },

  assignment: { refs: byUsers('created_by') },
  assignment_qualifier: { refs: { assignment_id: 'assignment', qualifier_id: 'qualifier' } },
  assignment_group: {},
  assignment_group_member: { refs: { assignment_id: 'assignment', group_id: 'assignment_group' } },
  group_minimum: {
    refs: { assignment_group_id: 'assignment_group' },
    remap: { min_qualified: qualifierCounts },
  },
  off_limit: {
    refs: { assignment_group_id: 'assignment_group', qualifier_id: 'qualifier' },
    remap: { time_off_type_ids: idArray('time_off_type') },
  },
  time_off_blackout: { refs: { time_off_type_id: 'time_off_type' } },
  assignment_admin: { refs: { assignment_id: 'assignment', user_id: USER } },
  assignment_finalization: { refs: { assignment_id: 'assignment', admin_id: USER } },
  misc_hour: {
    refs: { user_id: USER, work_type_id: 'work_type', work_subtype_id: 'work_subtype' },
    remap: { source_id: idOfNamedTable('source') },
  },
  day_note: {},

  rotation: {},
  recurring_shift: {
    refs: {
      rotation_id: 'rotation',
      user_id: USER,
      work_type_id: 'work_type',
      work_subtype_id: 'work_subtype',
      scheduled_by: USER,
      previous_id: 'recurring_shift',
    },
    remap: { assignment_ids: idArray('assignment') },
  },
  recurring_shift_exception: { refs: { recurring_shift_id: 'recurring_shift', assignment_id: 'assignment' } },
  shift: {
    refs: {
      assignment_id: 'assignment',
      user_id: USER,
      work_type_id: 'work_type',
      work_subtype_id: 'work_subtype',
      from_callback: 'callback',
      traded_with: USER,
      scheduled_by: USER,
    },
  },
  shift_label: { refs: { shift_id: 'shift', label_id: 'label' } },
  shift_qualifier: { refs: { shift_id: 'shift', qualifier_id: 'qualifier' } },

  label: {},
  visual_cycle: { refs: byUsers('created_by', 'deleted_by') },
  day_label: {},
  user_group: {},
  user_group_member: { refs: { user_id: USER, group_id: 'user_group' } },
  specialty_filter: { refs: byUsers('created_by') },
  user_filter: { refs: { user_id: USER, filter_id: 'specialty_filter' } },
  callback_list: { refs: { notify_group_id: 'user_group' } },
  user_callback_list: { refs: { user_id: USER, list_id: 'callback_list' } },
  user_callback_setting: { refs: { user_id: USER } },
  callback_auto_accept: { refs: { user_id: USER }, remap: { assignment_ids: idArray('assignment') } },
  callback_auto_start: { refs: { initiated_by: USER }, reset: { lease_until: null } },
  callback_auto_start_list: { refs: { assignment_id: 'assignment', list_id: 'callback_list' } },
  qualifier: {
    refs: { title_id: 'callback_list', ...byUsers('created_by', 'modified_by', 'deleted_by') },
    // a partner credential is not exported
    reset: { partner_credential_id: null },
  },
  user_qualifier: { refs: { user_id: USER, qualifier_id: 'qualifier' } },
  certification: { refs: byUsers('created_by'), external: ['cert_id'] },
  // file_storage_name: the file travels embedded in the export and is stored under a new name
  user_certification: { refs: { user_id: USER, certification_id: 'certification' } },
  certification_notice: { refs: { user_id: USER, user_certification_id: 'user_certification' } },
  company_profile: {},
  partner_user: { refs: { service_user_id: USER }, external: ['partner_user_id', 'partner_customer_id'] },

  announcement: { refs: byUsers('user_id') },
  bulletin_board: { refs: byUsers('last_updated_by') },
  form: { refs: byUsers('created_by') },
  form_submission: { refs: { form_id: 'form', user_id: USER } },
  ready_alert: { refs: byUsers('sender_id'), remap: { target_ids: alertTargets } },
  ready_alert_delivery: { refs: { alert_id: 'ready_alert', user_id: USER } },
  // the secret is never exported: the import makes a new one and prints it; delivery starts after the import
  webhook_endpoint: {
    reset: {
      secret: null,
      secret_sealed: null,
      cursor_event_id: 0,
      cursor_tx_id: 0,
      failed_attempts: 0,
      next_attempt_at: null,
      lease_until: null,
    },
  },

  time_off_type: {},
  time_off: {
    refs: { user_id: USER, time_off_type_id: 'time_off_type', admin_id: USER, traded_with: USER },
    remap: { admin_ids: idArray(USER) },
  },
  accrual_rule: { refs: { profile_id: 'accrual_profile', time_off_type_id: 'time_off_type' } },
  accrual_track_step: { refs: { track_id: 'accrual_track', profile_id: 'accrual_profile' }, external: ['from_years'] },
  accrual_transaction: {
    refs: {
      user_id: USER,
      time_off_type_id: 'time_off_type',
      admin_id: USER,
      time_off_id: 'time_off',
      cause_log_id: 'system_log',
    },
    remap: { period_key: periodKey },
  },
  unavailability_reason: {},
  availability_period: { refs: { user_id: USER, admin_id: USER, unavailability_reason_id: 'unavailability_reason' } },

  signup_event: {
    refs: {
      work_type_id: 'work_type',
      work_subtype_id: 'work_subtype',
      ...byUsers('created_by', 'modified_by', 'deleted_by'),
    },
  },
  signup_event_user: { refs: { event_id: 'signup_event', user_id: USER, misc_hour_id: 'misc_hour' } },
  callback: {
    refs: {
      list_id: 'callback_list',
      assignment_id: 'assignment',
      work_type_id: 'work_type',
      ...byUsers('initiated_by', 'cancelled_by'),
    },
    remap: { vacancy: callbackVacancy },
    reset: { lease_until: null },
  },
  callback_user: { refs: { callback_id: 'callback', user_id: USER, shift_id: 'shift' } },
  callback_auto_started: { refs: { assignment_id: 'assignment', callback_id: 'callback' } },
  trade: { refs: byUsers('requesting_user_id', 'accepting_user_id', 'approving_user_id', 'approved_by') },
  trade_user: { refs: { trade_id: 'trade', user_id: USER } },
  trade_placement: {
    refs: { trade_id: 'trade', shift_id: 'shift', recurring_shift_id: 'recurring_shift' },
    remap: { before: tradePlacementBefore },
  },
  forced_list: { refs: { group_id: 'user_group', initiated_by: USER, work_type_id: 'work_type' } },
  forced_list_assignment: { refs: { group_id: 'user_group', assignment_id: 'assignment' } },
  forced_member: { refs: { group_id: 'user_group', user_id: USER } },
  forced_hire: {
    refs: {
      group_id: 'user_group',
      assignment_id: 'assignment',
      user_id: USER,
      shift_id: 'shift',
      ordered_by: USER,
      callback_id: 'callback',
    },
    remap: { explained: forcedOrderUsers, auto_key: forcedAutoKey },
  },
  forced_hire_contact: { refs: { forced_hire_id: 'forced_hire', user_id: USER } },
  bid_round: {
    refs: { group_id: 'user_group' },
    remap: { time_off_type_ids: idArray('time_off_type'), member_ids: idArray(USER) },
  },
  bid_turn: {
    refs: { round_id: 'bid_round', user_id: USER, time_off_id: 'time_off', time_off_type_id: 'time_off_type' },
  },
};

/**
 * Column names that look like references: the coverage test requires each such column of an
 * exported table to be in `refs`, `remap`, `reset` or `external`.
 */
export const REFERENCE_LIKE = /(^|_)(id|ids|by|with)$|^from_/;
