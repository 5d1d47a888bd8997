import type { FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../../core/db/index.js';
import { href } from '../../core/pagination.js';
import { addDays, datesFromTo, formatLocalDateTime, type Temporal } from '../../core/time.js';
import type { EngineCache } from '../../scheduling/cache.js';
import { adjacentPeriods, computePeriodDays, patchPeriodDays, periodOf, type Period } from '../../scheduling/index.js';
import { findUsersByIds } from '../users/repository.js';
import { lookupsOf, renderDays, userRefOf, type ComputedPeriod, type ScheduleJson } from './render.js';
import { scheduleDayItems } from './repository.js';

type Request = FastifyRequest;

/** A time off belongs to the dates from its start date to the day before its end date (at least its start date). */
function datesCovered(start: string, end: string): string[] {
  const first = start.slice(0, 10);
  const endDate = end.slice(0, 10);
  return datesFromTo(first, endDate > first ? addDays(endDate, -1) : first);
}

/** Items by each of their keys, in their order. */
function byKeys<T>(items: T[], keysOf: (item: T) => string[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) for (const key of keysOf(item)) groups.set(key, [...(groups.get(key) ?? []), item]);
  return groups;
}

/** The spec's day.callbacks / day.trades items have no `date`: the day they sit under is theirs. */
const withoutDate = <T extends { date: string }>({ date: _date, ...item }: T): Omit<T, 'date'> => item;

/** `start=2015-03-08%2008:00:00`: spaces escaped, colons kept, as the samples write the links. */
function scheduleLink(request: Request, start: Temporal.PlainDateTime, end: Temporal.PlainDateTime): { href: string } {
  const encode = (dt: Temporal.PlainDateTime) => encodeURIComponent(formatLocalDateTime(dt)).replace(/%3A/g, ':');
  return { href: `${href(request, '/schedule')}?start=${encode(start)}&end=${encode(end)}` };
}

/** A kept period's size, roughly: a user row 600 bytes, a worked piece 500, and the days' JSON. */
function bytesOf(period: ComputedPeriod): number {
  let bytes = period.facts.people.size * 600;
  for (const pieces of period.facts.piecesByUser.values()) bytes += pieces.length * 500;
  for (const day of period.days) {
    bytes += day.timeOff.length + (day.kellyDays?.length ?? 0) + 64;
    for (const entry of day.assignments) bytes += (entry?.length ?? 0) + 8;
  }
  return bytes;
}

/**
 * The period's days as the engine computes them, rendered: from the engine cache while nothing the
 * engine reads has changed, patched for the users whose shifts or time off changed, else computed.
 */
async function computedPeriod(
  handle: DatabaseHandle,
  request: Request,
  period: Period,
  json: ScheduleJson,
  cache: EngineCache,
  extraUserIds: () => Promise<number[]>,
): Promise<ComputedPeriod> {
  const { db } = handle;
  const { orgId, timezone } = request.auth;
  const key = `schedule|${orgId}|${request.baseUrl}|${timezone}|${period.start}|${period.end}`;
  const stamp = await cache.stamp(orgId, request.auth.orgRevision);
  const kept = await cache.get<ComputedPeriod>(orgId, key, stamp);
  if (kept && !kept.changedUsers) return kept.value;
  let computed: ComputedPeriod;
  if (kept?.changedUsers) {
    const previous = kept.value;
    const patch = await patchPeriodDays(db, orgId, period, timezone, previous.facts, kept.changedUsers, (pieces) =>
      lookupsOf(db, orgId, pieces, previous.lookups),
    );
    const { days: facts, alongside: lookups } = patch;
    const days = renderDays(request, period.days, json, { facts, lookups }, { ...patch, days: previous.days });
    computed = { facts, lookups, days };
  } else {
    const { days: facts, alongside: lookups } = await computePeriodDays(
      db,
      orgId,
      period,
      timezone,
      extraUserIds,
      (pieces) => lookupsOf(db, orgId, pieces),
    );
    computed = { facts, lookups, days: renderDays(request, period.days, json, { facts, lookups }) };
  }
  cache.set(key, stamp, computed, bytesOf(computed));
  return computed;
}

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
  const computed = await computedPeriod(handle, request, period, json, cache, async () =>
    (await others).misc.map((m) => m.user_id),
  );
  const { callbacks, trades, misc, notes } = await others;
  const unnamed = misc.map((m) => m.user_id).filter((id) => !computed.facts.people.has(id));
  const users = unnamed.length > 0 ? await findUsersByIds(handle.db, request.auth.orgId, unnamed) : undefined;
  const callbacksByDate = byKeys(callbacks.map(withoutDate), (c) => datesCovered(c.start, c.end));
  const tradesByDate = byKeys(trades.map(withoutDate), (t) => datesCovered(t.start, t.end));
  const miscByDate = byKeys(misc, (m) => [m.date]);
  const none = json.strings([]);
  // the days as pieces of one buffer: the engine's parts were encoded once, when they were computed
  const chunks = period.days.flatMap((date, i) => {
    const day = computed.days[i]!;
    const items = notes.get(date);
    const miscOfDay = (miscByDate.get(date) ?? []).map((m) => ({
      id: m.id,
      href: href(request, `/misc/${m.id}`),
      date: m.date,
      length: m.length,
      user: userRefOf(request, computed.facts, m.user_id, users),
      work_type: m.work_type,
    }));
    const entries = day.assignments.filter((entry) => entry !== undefined);
    // the properties in ScheduleDay's order, as the response's serializer writes them
    return [
      Buffer.from(`${i === 0 ? '' : ','}{"date":${JSON.stringify(date)},"assignments":[`),
      ...entries.flatMap((entry, at) => (at === 0 ? [entry] : [COMMA, entry])),
      Buffer.from('],"time_off":'),
      day.timeOff,
      Buffer.from(
        `,"callbacks":${json.callbacks(callbacksByDate.get(date) ?? [])}` +
          `,"trades":${json.trades(tradesByDate.get(date) ?? [])}` +
          `,"misc":${json.misc(miscOfDay)},"notes":${items ? json.strings(items.notes) : none}` +
          `,"activities":${items ? json.strings(items.activities) : none}${day.kellyDays ? ',"kelly_days":' : ''}`,
      ),
      ...(day.kellyDays ? [day.kellyDays] : []),
      Buffer.from('}'),
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
