import { orgColumns } from '../../core/db/org-rows.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { href } from '../../core/pagination.js';
import { EXTENSION, routeOptions } from '../../core/schemas.js';
import { addDays } from '../../core/time.js';
import {
  groupShortfalls,
  keptOccurrenceStaffing,
  periodOf,
  vacanciesOf,
  type GroupDayStaffing,
  type OccurrenceStaffing,
} from '../../scheduling/index.js';
import { GroupVacancy } from '../group-minimums/schemas.js';
import { selectCandidates } from '../callbacks/ordering/candidates.js';
import { findAssignmentOrInvalid } from '../assignments/repository.js';
import { findListOrInvalid, type ListLimitsRow } from '../lists/repository.js';
import { findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import { CandidatesQuery, CandidatesResponse, VacanciesQuery, Vacancy } from './schemas.js';

const tags = ['Schedule'];
const route = routeOptions(tags);

/** What an assignment's entry and a group's share: the day, the times, the staffing and the people on it. */
function entryFields<Item extends Pick<GroupDayStaffing, 'date' | 'start' | 'end' | 'userIds' | 'staffing'>>(
  request: FastifyRequest,
  item: Item,
  users: Map<number, UserRow>,
) {
  const { staffing } = item;
  return {
    date: item.date,
    start: item.start as Item['start'],
    end: item.end as Item['end'],
    needed: staffing.needed,
    scheduled: staffing.scheduled,
    open: staffing.open,
    qualifier_shortfalls: staffing.qualifier_shortfalls,
    short_from: staffing.short_from,
    short_until: staffing.short_until,
    people: item.userIds.map((id) => ({
      id,
      href: href(request, `/users/${id}`),
      name: users.has(id) ? fullName(users.get(id)!) : '',
    })),
  };
}

function serialize(request: FastifyRequest, item: OccurrenceStaffing, users: Map<number, UserRow>): Vacancy {
  return {
    assignment: {
      id: item.assignment.id,
      href: href(request, `/assignments/${item.assignment.id}`),
      name: item.assignment.name,
    },
    ...entryFields(request, item, users),
  };
}

/** A group short on a day (extension beside the assignments' entries: docs/contract-rules.md). */
function serializeGroup(request: FastifyRequest, item: GroupDayStaffing, users: Map<number, UserRow>): GroupVacancy {
  return { group: item.group, ...entryFields(request, item, users) };
}

/** Every active user of the organization: the candidates of a vacancy filled without a list. */
async function everyoneAsList(db: Db, orgId: number) {
  const rows = await orgColumns(db, 'user_account', orgId, ['id', 'first_name', 'last_name', 'date_of_hire'])
    .where('deleted_at', 'is', null)
    .where('active', '=', 1)
    .orderBy('last_name')
    .orderBy('first_name')
    .orderBy('id')
    .execute();
  return rows.map((row, index) => ({ ...row, list_position: index + 1 }));
}

const NO_LIMITS: ListLimitsRow = {
  id: 0,
  name: 'everyone',
  max_consecutive_hours: 0,
  weekly_limit: 0,
  monthly_limit: 0,
  yearly_limit: 0,
  ordering: 'seniority',
  deleted_at: null,
};

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/vacancies',
    route('listVacancies', 'Open seats of the period (extension)', {
      ...EXTENSION,
      description:
        'Every occurrence of a work-shift assignment dated in the period that is short: fewer people on it ' +
        'than its positions to fill, or fewer holding a qualifier than it needs, judged by the people’s ' +
        'own qualifications (docs/schedule.md). Without `assignment_id`, each assignment group short of its ' +
        'minimum (GET /group_minimums) on a day of the period follows, an entry with `group` in place of ' +
        '`assignment` (docs/contract-rules.md).',
      querystring: VacanciesQuery,
      response: { 200: Type.Array(Type.Union([Vacancy, GroupVacancy])) },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const period = periodOf(request.query);
      if (request.query.assignment_id !== undefined)
        await findAssignmentOrInvalid(app.db, orgId, request.query.assignment_id);
      const ids = request.query.assignment_id === undefined ? undefined : [request.query.assignment_id];
      // the occurrences dated in the period, as the schedule lists them
      const days = new Set(period.days);
      const kept = { cache: app.engineCache, dataRevision: request.auth.orgRevision };
      const vacancies = (await vacanciesOf(app.db, orgId, period, timezone, ids, kept)).filter((v) => days.has(v.date));
      const groups = ids ? [] : await groupShortfalls(app.db, orgId, period, timezone, kept);
      const users = await findUsersByIds(app.db, orgId, [
        ...vacancies.flatMap((v) => v.userIds),
        ...groups.flatMap((g) => g.userIds),
      ]);
      return [
        ...vacancies.map((v) => serialize(request, v, users)),
        ...groups.map((g) => serializeGroup(request, g, users)),
      ];
    },
  );

  app.get(
    '/vacancies/candidates',
    route('listVacancyCandidates', 'Who may fill an occurrence (extension)', {
      ...EXTENSION,
      description:
        'The occurrence of the assignment on the date with its staffing, and the people who may fill it: ' +
        'free (no work, no approved time off then), holding every qualifier it is short of and within the ' +
        'list’s hour limits, in the list’s contact order; without `list_id`, every active user by name ' +
        'with no hour limits.',
      querystring: CandidatesQuery,
      response: { 200: CandidatesResponse },
    }),
    async (request) => {
      const { orgId, timezone } = request.auth;
      const { assignment_id: assignmentId, date, list_id: listId } = request.query;
      await findAssignmentOrInvalid(app.db, orgId, assignmentId);
      const list = listId === undefined ? NO_LIMITS : await findListOrInvalid(app.db, orgId, listId);
      const day = { start: `${date} 00:00:00`, end: `${addDays(date, 1)} 00:00:00` };
      const kept = { cache: app.engineCache, dataRevision: request.auth.orgRevision };
      const staffings = await keptOccurrenceStaffing(kept, app.db, orgId, periodOf(day), timezone, [assignmentId]);
      const occurrence = staffings.find((o) => o.date === date);
      if (!occurrence) throw invalidParams('The assignment does not occur on that date.');
      const { staffing } = occurrence;
      const span = { start: staffing.short_from ?? occurrence.start, end: staffing.short_until ?? occurrence.end };
      const required = staffing.qualifier_shortfalls.length
        ? {
            date,
            qualifiers: staffing.qualifier_shortfalls.map((q) => ({ id: q.id, shortcode: q.shortcode || `#${q.id}` })),
          }
        : undefined;
      const members = listId === undefined ? await everyoneAsList(app.db, orgId) : undefined;
      const selection = await selectCandidates(
        app.db,
        orgId,
        list,
        { ...span, ordering: list.ordering, assignmentId },
        timezone,
        required,
        members,
      );
      const users = await findUsersByIds(app.db, orgId, [
        ...occurrence.userIds,
        ...selection.userIds,
        ...selection.skipped.map((s) => s.user_id),
      ]);
      const ref = (id: number) => ({
        id,
        href: href(request, `/users/${id}`),
        name: users.has(id) ? fullName(users.get(id)!) : '',
      });
      return {
        vacancy: serialize(request, occurrence, users),
        candidates: selection.userIds.map((id, index) => ({ user: ref(id), position: index + 1 })),
        skipped: selection.skipped.map((s) => ({ user: ref(s.user_id), reason: s.reason })),
      };
    },
  );
};

export default routes;
