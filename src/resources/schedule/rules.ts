import type { FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../../core/db/index.js';
import { groupBy } from '../../core/maps.js';
import { href } from '../../core/pagination.js';
import { addDays, datesFromTo, formatLocalDateTime, type Temporal } from '../../core/time.js';
import type { EngineCache } from '../../scheduling/cache.js';
import { adjacentPeriods, groupDaysOf, keptPeriodDays, periodOf } from '../../scheduling/index.js';
import { findUsersByIds } from '../users/repository.js';
import { maskedJsonArray, timeOffViewer } from '../../core/masked-types.js';
import { renderDays, userRefOf, type ComputedDay, type ComputedPeriod } from './render.js';
import { scheduleDayItems } from './repository.js';
import type { ScheduleJson } from './schemas.js';

type Request = FastifyRequest;

/** A time off belongs to the dates from its start date to the day before its end date (at least its start date). */
function datesCovered(start: string, end: string): string[] {
  const first = start.slice(0, 10);
  const endDate = end.slice(0, 10);
  return datesFromTo(first, endDate > first ? addDays(endDate, -1) : first);
}

/** The spec's day.callbacks / day.trades items have no `date`: the day they sit under is theirs. */
const withoutDate = <T extends { date: string }>({ date: _date, ...item }: T): Omit<T, 'date'> => item;

/** `start=2015-03-08%2008:00:00`: spaces escaped, colons kept, as the samples write the links. */
function scheduleLink(request: Request, start: Temporal.PlainDateTime, end: Temporal.PlainDateTime): { href: string } {
  const encode = (dt: Temporal.PlainDateTime) => encodeURIComponent(formatLocalDateTime(dt)).replace(/%3A/g, ':');
  return { href: `${href(request, '/schedule')}?start=${encode(start)}&end=${encode(end)}` };
}

/** A rendered day's size in bytes, roughly. */
const bytesOf = (day: ComputedDay) =>
  day.timeOff.reduce((n, t) => n + t.json.length + (t.publicJson?.length ?? 0) + 16, 0) +
  (day.kellyDays?.length ?? 0) +
  64 +
  day.assignments.reduce((n, e) => n + (e?.length ?? 0) + 8, 0);

/**
 * GET /schedule as JSON: every day of the period with its assignments (shifts and staffing), time
 * off, callbacks, trades, misc hours, notes, activities and Kelly days. What the engine computes
 * comes from the engine cache (src/scheduling/cache.ts); callbacks, trades, misc hours and notes
 * are read every time, in one statement. The number of statements does not depend on the period.
 */
export async function buildScheduleJson(
  handle: DatabaseHandle,
  request: Request,
  query: { start: string; end: string },
  json: ScheduleJson,
  cache: EngineCache,
): Promise<Buffer> {
  const period = periodOf(query);
  const [firstDay, lastDay] = [period.days[0]!, period.days[period.days.length - 1]!];
  // read while the stamp is taken (on PostgreSQL a round trip of its own): none of it is the engine's
  const others = scheduleDayItems(handle, request, { start: period.start, end: period.end, firstDay, lastDay });
  others.catch(() => undefined); // awaited below; a failure of the engine's reads comes first
  const { orgId, timezone, orgRevision } = request.auth;
  const computed: ComputedPeriod = await keptPeriodDays(
    { cache, dataRevision: orgRevision },
    handle.db,
    orgId,
    { ...period, timezone, key: request.baseUrl },
    async () => (await others).misc.map((m) => m.user_id),
    {
      render: (facts, lookups, previous) => renderDays(request, period.days, json, { facts, lookups }, previous),
      bytes: (days) => days.reduce((sum, day) => sum + bytesOf(day), 0),
    },
  );
  const { callbacks, trades, misc, notes } = await others;
  const unnamed = misc.map((m) => m.user_id).filter((id) => !computed.facts.people.has(id));
  const users = unnamed.length > 0 ? await findUsersByIds(handle.db, orgId, unnamed) : undefined;
  const callbacksByDate = groupBy(callbacks.map(withoutDate), (c) => datesCovered(c.start, c.end));
  const tradesByDate = groupBy(trades.map(withoutDate), (t) => datesCovered(t.start, t.end));
  const miscByDate = groupBy(misc, (m) => [m.date]);
  const none = json.strings([]);
  const viewer = timeOffViewer(request.auth);
  // the days as pieces of one buffer: the engine's parts were encoded once, when they were computed
  const chunks = period.days.flatMap((date, i) => {
    const day = computed.days[i]!;
    const items = notes.get(date);
    // the row's other fields are not in ScheduleMisc: the serializer leaves them out
    const miscOfDay = (miscByDate.get(date) ?? []).map((m) => {
      return { ...m, href: href(request, `/misc/${m.id}`), user: userRefOf(request, computed.facts, m.user_id, users) };
    });
    const entries = day.assignments.filter((entry) => entry !== undefined);
    const groups = groupDaysOf(computed.facts, date).map(({ group, start, end, staffing }) => ({
      group,
      start,
      end,
      staffing,
    }));
    // the properties in ScheduleDay's order, as the response's serializer writes them
    return [
      Buffer.from(`${i === 0 ? '' : ','}{"date":${JSON.stringify(date)},"assignments":[`),
      ...entries.flatMap((entry, at) => (at === 0 ? [entry] : [COMMA, entry])),
      Buffer.from(`],"time_off":${maskedJsonArray(day.timeOff, viewer)}`),
      Buffer.from(
        `,"callbacks":${json.callbacks(callbacksByDate.get(date) ?? [])}` +
          `,"trades":${json.trades(tradesByDate.get(date) ?? [])}` +
          `,"misc":${json.misc(miscOfDay)},"notes":${items ? json.strings(items.notes) : none}` +
          `,"activities":${items ? json.strings(items.activities) : none}${day.kellyDays ? ',"kelly_days":' : ''}`,
      ),
      ...(day.kellyDays ? [day.kellyDays] : []),
      Buffer.from(groups.length ? `,"group_staffing":${json.groupStaffing(groups)}}` : '}'),
    ];
  });
  const links = adjacentPeriods(period);
  const envelope = json.envelope({
    start: period.start,
    end: period.end,
    days: [],
    prev: scheduleLink(request, ...links.prev),
    next: scheduleLink(request, ...links.next),
  });
  const at = envelope.indexOf('"days":[]') + '"days":['.length;
  return Buffer.concat([Buffer.from(envelope.slice(0, at)), ...chunks, Buffer.from(envelope.slice(at))]);
}

const COMMA = Buffer.from(',');
