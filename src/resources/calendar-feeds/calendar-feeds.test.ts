import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import {
  approvedTimeOff,
  createAssignment,
  createRotation,
  placeOnRotation,
  workTypeId,
} from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';

/**
 * The feed is computed for "today - 30 days .. today + 180 days", so the test picks a zone with a
 * DST change inside that window (America/Chicago changes in March and November, Australia/Sydney in
 * April and October: one of them always has a change between 25 days back and 170 days ahead).
 */
function dstChangeInWindow(): { timezone: string; change: Temporal.PlainDate } {
  const today = Temporal.Now.plainDateISO('UTC');
  for (const timezone of ['America/Chicago', 'Australia/Sydney']) {
    const transition = today.subtract({ days: 25 }).toZonedDateTime(timezone).getTimeZoneTransition('next');
    if (transition && Temporal.PlainDate.compare(transition.toPlainDate(), today.add({ days: 170 })) < 0) {
      return { timezone, change: transition.toPlainDate() };
    }
  }
  throw new Error('no DST change in the window');
}

const { timezone, change } = dstChangeInWindow();
const day = (offset: number) => change.add({ days: offset }).toString();

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let stationId: number;
let crewA: number;
let crewB: number;
let timeOffId: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone });
  other = await server.newOrg({ timezone: 'UTC' });
  stationId = await createAssignment(org, {
    name: 'Station 9',
    start: `${day(-3)} 07:00:00`,
    end: `${day(-2)} 07:00:00`,
  });
  const rotationId = await createRotation(org, { anchor_date: day(-1), preset: '24/48' });
  const admin = await org.createUser({ first_name: 'Ada', last_name: 'Admin' });
  crewA = await org.createUser({ first_name: 'Avery', last_name: 'Alpha' });
  crewB = await org.createUser({ first_name: 'Blair', last_name: 'Bravo' });
  for (const [user_id, crew] of [
    [crewA, 'A'],
    [crewB, 'B'],
  ] as const)
    await placeOnRotation(org, {
      user_id,
      rotation_id: rotationId,
      assignment_id: stationId,
      crew,
      start_date: day(-3),
    });
  // crew A works day -1 (07:00 to 07:00 across the change), day +2, +5, …; a one-off shift on its day off
  await createShift(org, stationId, crewA, `${day(1)} 10:00:00`, `${day(1)} 14:00:00`, {
    work_type_id: await workTypeId(org, 'Overtime'),
  });
  // approved time off takes crew A off the day +2 occurrence
  timeOffId = await approvedTimeOff(org, crewA, admin, `${day(2)} 07:00:00`, `${day(3)} 07:00:00`);
});
afterAll(() => server.close());

interface ParsedEvent {
  uid: string;
  summary: string;
  start: string;
  end: string;
  tzid: string | undefined;
}

/** Parses a feed with ical.js, resolving TZIDs only through the feed's own VTIMEZONE components. */
function parseFeed(text: string): { events: ParsedEvent[]; zones: string[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zones = calendar.getAllSubcomponents('vtimezone').map((zone) => {
    ICAL.TimezoneService.register(zone);
    return String(zone.getFirstPropertyValue('tzid'));
  });
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      tzid: event.startDate.zone?.tzid,
    };
  });
  return { events, zones };
}

/** An organization-zone datetime `YYYY-MM-DD hh:mm:ss` as a UTC instant, computed independently of the feed. */
const utc = (local: string) =>
  Temporal.PlainDateTime.from(local.replace(' ', 'T'))
    .toZonedDateTime(timezone)
    .toInstant()
    .toString({ fractionalSecondDigits: 3 });

function feedWindow() {
  const today = Temporal.Now.plainDateISO(timezone);
  return { start: `${today.subtract({ days: 30 })} 00:00:00`, end: `${today.add({ days: 181 })} 00:00:00` };
}

interface ScheduleShift {
  id: number;
  start: string;
  end: string;
  length: number;
  recurring: boolean;
  user: { id: number; name: string };
}

/** Shifts of GET /v1/schedule over the feed's window. */
async function scheduledShifts(filter: (shift: ScheduleShift & { assignmentId: number }) => boolean) {
  const response = await org.get('/schedule', { query: feedWindow() });
  expect(response.status, response.text).toBe(200);
  const days = response.body.days as Array<{ assignments: Array<{ id: number; shifts: ScheduleShift[] }> }>;
  return days
    .flatMap((d) => d.assignments.flatMap((a) => a.shifts.map((s) => ({ ...s, assignmentId: a.id }))))
    .filter(filter);
}

async function createFeed(body: Record<string, unknown>): Promise<{ id: number; url: string }> {
  const response = await org.post('/calendar_feeds', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function fetchFeed(url: string) {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The feed at `url` answers the 404 of an unknown token. */
async function expectFeedGone(url: string) {
  const response = await fetchFeed(url);
  expect({ status: response.status, body: JSON.parse(response.text) }).toBeNotFound('CalendarFeed');
}

const instants = (items: Array<{ start: string; end: string }>) => items.map((i) => `${i.start}/${i.end}`).sort();

describe('calendar feeds (extension)', () => {
  it('requires a bearer token on the management routes', async () => {
    await expectAuthRequired(server, 'GET', '/calendar_feeds');
    await expectAuthRequired(server, 'POST', '/calendar_feeds', { user_id: 1 });
  });

  it('needs exactly one existing user or assignment', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'Exactly one of the user id and assignment id fields is required.'],
      [
        { user_id: crewA, assignment_id: stationId },
        'Exactly one of the user id and assignment id fields is required.',
      ],
      [{ user_id: 999999 }, 'The selected user id is invalid.'],
      [{ assignment_id: 999999 }, 'The selected assignment id is invalid.'],
    ];
    for (const [body, message] of cases) {
      const response = await org.post('/calendar_feeds', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response).toBeInvalid([message]);
    }
    const foreign = await other.post('/calendar_feeds', { user_id: crewA });
    expect(foreign.status).toBe(422);
  });

  it("serves a user's shifts as GET /schedule computes them, at the right UTC instants across DST", async () => {
    const feed = await createFeed({ user_id: crewA, name: 'phone' });
    expect(feed.url).toMatch(new RegExp(`^${server.url}/feeds/cpf_[A-Za-z0-9_-]{43}\\.ics$`));
    const response = await fetchFeed(feed.url);
    expect(response.status).toBe(200);
    expect(response.type).toMatch(/^text\/calendar/);
    const { events, zones } = parseFeed(response.text);
    expect(zones).toEqual([timezone]);

    const expected = await scheduledShifts((s) => s.user.id === crewA);
    expect(expected.some((s) => !s.recurring)).toBe(true);
    const shiftEvents = events.filter((e) => !e.uid.startsWith('time-off-'));
    expect(instants(shiftEvents)).toEqual(instants(expected.map((s) => ({ start: utc(s.start), end: utc(s.end) }))));
    expect(shiftEvents.every((e) => e.tzid === timezone)).toBe(true);

    // the occurrence across the change lasts 23 or 25 hours, and both ends are at 07:00 local time
    const across = events.find((e) => e.uid.startsWith('rotation-') && e.uid.endsWith(`-${day(-1)}@crewplan`))!;
    expect(across).toBeDefined();
    expect(across.start).toBe(utc(`${day(-1)} 07:00:00`));
    expect(across.end).toBe(utc(`${day(0)} 07:00:00`));
    const hours = (Date.parse(across.end) - Date.parse(across.start)) / 3_600_000;
    expect([23, 25]).toContain(hours);
    expect(expected.find((s) => s.start === `${day(-1)} 07:00:00`)?.length).toBe(hours);
    expect(across.summary).toBe('Station 9 (Regular Time)');

    // the occurrence taken by approved time off is gone; the time off is there instead
    expect(events.some((e) => e.start === utc(`${day(2)} 07:00:00`) && e.uid.startsWith('rotation-'))).toBe(false);
    const timeOff = events.filter((e) => e.uid.startsWith(`time-off-${timeOffId}-`));
    expect(timeOff).toHaveLength(1);
    expect(timeOff[0]).toMatchObject({ start: utc(`${day(2)} 07:00:00`), end: utc(`${day(3)} 07:00:00`) });
    expect(timeOff[0]!.summary).toMatch(/^Time off: Vacation/);

    const oneOff = shiftEvents.find((e) => e.uid.startsWith('shift-'))!;
    expect(oneOff).toMatchObject({
      start: utc(`${day(1)} 10:00:00`),
      end: utc(`${day(1)} 14:00:00`),
      summary: 'Station 9 (Overtime)',
    });
  });

  it("serves an assignment's shifts of every user and the time off that takes someone off it", async () => {
    const feed = await createFeed({ assignment_id: stationId });
    const { events } = parseFeed((await fetchFeed(feed.url)).text);
    const expected = await scheduledShifts((s) => s.assignmentId === stationId);
    expect(new Set(expected.map((s) => s.user.id))).toEqual(new Set([crewA, crewB]));
    const shiftEvents = events.filter((e) => !e.uid.startsWith('time-off-'));
    expect(instants(shiftEvents)).toEqual(instants(expected.map((s) => ({ start: utc(s.start), end: utc(s.end) }))));
    expect(shiftEvents.find((e) => e.start === utc(`${day(0)} 07:00:00`))?.summary).toBe('Blair Bravo (Regular Time)');
    expect(events.filter((e) => e.uid.startsWith('time-off-')).map((e) => e.summary)).toEqual([
      expect.stringMatching(/^Avery Alpha off: Vacation/),
    ]);
  });

  it('lists and shows feeds without their URL, only within the organization', async () => {
    const feed = await createFeed({ user_id: crewB, name: 'tablet' });
    const shown = await org.get(`/calendar_feeds/${feed.id}`);
    expect(shown).toAnswer(200, {
      id: feed.id,
      kind: 'user',
      user: { id: crewB, name: 'Blair Bravo', href: `${server.url}/v1/users/${crewB}` },
      assignment: null,
      name: 'tablet',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/),
      revoked_at: null,
    });
    const listed = await org.get('/calendar_feeds', { query: { user_id: crewB } });
    expect(listed.body.map((f: { id: number }) => f.id)).toEqual([feed.id]);
    expect(listed.text).not.toContain('cpf_');
    expect((await other.get(`/calendar_feeds/${feed.id}`)).status).toBe(404);
    expect((await other.del(`/calendar_feeds/${feed.id}`)).status).toBe(404);
    expect((await other.get('/calendar_feeds')).body).toEqual([]);
    const log = await org.get('/logs');
    expect(
      log.body.data.some((entry: { event_description: string }) =>
        entry.event_description.includes('created a calendar feed of Blair Bravo'),
      ),
    ).toBe(true);
  });

  it('answers 404 for a revoked feed and for an unknown token', async () => {
    const feed = await createFeed({ user_id: crewB });
    expect((await fetchFeed(feed.url)).status).toBe(200);
    const revoked = await org.del(`/calendar_feeds/${feed.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    await expectFeedGone(feed.url);
    expect((await org.del(`/calendar_feeds/${feed.id}`)).status).toBe(409);
    for (const path of ['/feeds/cpf_unknown.ics', `/feeds/${'x'.repeat(43)}.ics`, '/feeds/.ics']) {
      expect((await fetchFeed(`${server.url}${path}`)).status, path).toBe(404);
    }
  });

  it("stops serving a user's feed once the user is deleted, as for an unknown token", async () => {
    const leaving = await org.createUser({ first_name: 'Lee', last_name: 'Leaving' });
    const feed = await createFeed({ user_id: leaving });
    const kept = await createFeed({ user_id: crewB });
    expect((await fetchFeed(feed.url)).status).toBe(200);
    expect((await org.del(`/users/${leaving}`)).status).toBe(200);
    await expectFeedGone(feed.url);
    expect((await fetchFeed(kept.url)).status).toBe(200);
  });

  it("stops serving an assignment's feed once the assignment is deleted, as for an unknown token", async () => {
    const closing = await createAssignment(org, { name: 'Station 12' });
    const feed = await createFeed({ assignment_id: closing });
    const kept = await createFeed({ assignment_id: stationId });
    expect((await fetchFeed(feed.url)).status).toBe(200);
    expect((await org.del(`/assignments/${closing}`)).status).toBe(200);
    await expectFeedGone(feed.url);
    expect((await fetchFeed(kept.url)).status).toBe(200);
  });
});
