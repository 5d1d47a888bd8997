import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { type ICalCalendar } from 'ical-generator';
import type { Db } from '../../core/db/transaction.js';
import { PUBLIC_VIEWER, visibleTimeOffType } from '../../core/masked-types.js';
import { localToZoned, todayIn, type Temporal } from '../../core/time.js';
import { findAssignmentsByIds } from '../assignments/repository.js';
import type { AssignmentRow } from '../assignments/table.js';
import { scheduleFacts, type ApprovedTimeOff, type WorkedPiece } from '../../scheduling/index.js';
import { workTypesByIds } from '../../scheduling/index.js';
import { findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { CalendarFeedRow } from './table.js';

/** A feed shows the days from 30 days before today to 180 days after it (organization zone). */
export const FEED_DAYS_BACK = 30;
export const FEED_DAYS_AHEAD = 180;
/** REFRESH-INTERVAL / X-PUBLISHED-TTL suggested to calendar clients. */
const REFRESH_SECONDS = 3600;

export interface FeedWindow {
  /** local datetimes, [start, end) */
  start: string;
  end: string;
}

export function feedWindow(timezone: string, today: Temporal.PlainDate = todayIn(timezone)): FeedWindow {
  const midnight = (date: Temporal.PlainDate) => `${date.toString()} 00:00:00`;
  return {
    start: midnight(today.subtract({ days: FEED_DAYS_BACK })),
    end: midnight(today.add({ days: FEED_DAYS_AHEAD + 1 })),
  };
}

interface FeedContent {
  /** work as worked, as GET /schedule shows it (the engine's pieces: time off cuts them) */
  shifts: WorkedPiece[];
  timeOff: ApprovedTimeOff[];
}

/**
 * The work and approved time off of a feed, from the scheduling engine: a user's feed has the
 * user's work and time off; an assignment's feed has the assignment's work and the time off that
 * takes someone off some of it.
 */
async function feedContent(db: Db, feed: CalendarFeedRow, timezone: string, window: FeedWindow): Promise<FeedContent> {
  const subject = feed.user_id !== null ? { userIds: [feed.user_id] } : { assignmentIds: [feed.assignment_id!] };
  const facts = await scheduleFacts(db, feed.organization_id, { ...window, ...subject, timezone });
  const shifts = facts.worked.filter((piece) => piece.start < window.end && piece.end > window.start);
  const timeOff = facts.timeOff.map((c) => c.timeOff);
  if (feed.user_id !== null) return { shifts, timeOff: timeOff.filter((t) => t.user_id === feed.user_id) };
  return {
    shifts,
    timeOff: timeOff.filter((t) =>
      facts.work.some((w) => w.user_id === t.user_id && w.start < t.end && w.end > t.start),
    ),
  };
}

function locationText(location: string | null): string | null {
  if (!location) return null;
  try {
    const parts = JSON.parse(location) as Record<string, unknown>;
    const text = ['address', 'city', 'state', 'zip', 'country']
      .map((key) => parts[key])
      .filter((value): value is string => typeof value === 'string' && value.trim() !== '')
      .join(', ');
    return text || null;
  } catch {
    return null;
  }
}

interface Names {
  users: Map<number, UserRow>;
  assignments: Map<number, AssignmentRow>;
  workTypes: Map<number, { label: string }>;
}

function addShift(calendar: ICalCalendar, item: WorkedPiece, names: Names, timezone: string, perUser: boolean): void {
  const assignment = names.assignments.get(item.assignment_id);
  const user = names.users.get(item.user_id);
  const workType = names.workTypes.get(item.work_type_id)?.label ?? '';
  const who = user ? fullName(user) : `User ${item.user_id}`;
  const where = assignment?.name ?? `Assignment ${item.assignment_id}`;
  calendar.createEvent({
    // a shift cut by time off is more than one piece: pieces after the first carry their start
    id:
      (item.recurring ? `rotation-${item.id}-${item.date}` : `shift-${item.id}`) +
      (item.start === item.scheduled_start ? '' : `-${item.start.replace(/\D/g, '')}`) +
      '@crewplan',
    start: localToZoned(item.start, timezone),
    end: localToZoned(item.end, timezone),
    timezone,
    summary: `${perUser ? where : who} (${workType})`,
    description: [`${who}: ${where}`, `Work type: ${workType}`, item.notes ? `Notes: ${item.notes}` : '']
      .filter(Boolean)
      .join('\n'),
    location: locationText(assignment?.location ?? null),
    categories: [{ name: 'Shift' }],
  });
}

function addTimeOff(
  calendar: ICalCalendar,
  timeOff: ApprovedTimeOff,
  names: Names,
  timezone: string,
  perUser: boolean,
): void {
  const user = names.users.get(timeOff.user_id);
  const who = user ? fullName(user) : `User ${timeOff.user_id}`;
  // a feed's URL is its credential and is shared: it names a masked type as nobody in particular sees it
  const type = visibleTimeOffType(PUBLIC_VIEWER, timeOff, timeOff.time_off_type).name;
  calendar.createEvent({
    id: `time-off-${timeOff.id}-${timeOff.start.replace(/\D/g, '')}@crewplan`,
    start: localToZoned(timeOff.start, timezone),
    end: localToZoned(timeOff.end, timezone),
    timezone,
    summary: perUser ? `Time off: ${type}` : `${who} off: ${type}`,
    description: `${who}: ${type} (approved)`,
    categories: [{ name: 'Time off' }],
  });
}

/** The feed as iCalendar text (RFC 5545): events with TZID and the zone's VTIMEZONE. */
export async function renderFeed(
  db: Db,
  feed: CalendarFeedRow & { organization_name: string; timezone: string },
  window: FeedWindow = feedWindow(feed.timezone),
): Promise<string> {
  const { timezone } = feed;
  const orgId = feed.organization_id;
  const content = await feedContent(db, feed, timezone, window);
  const userIds = [
    ...content.shifts.map((i) => i.user_id),
    ...content.timeOff.map((t) => t.user_id),
    feed.user_id ?? 0,
  ];
  const assignmentIds = [...content.shifts.map((i) => i.assignment_id), feed.assignment_id ?? 0];
  const [users, assignments, workTypes] = await Promise.all([
    findUsersByIds(db, orgId, userIds),
    findAssignmentsByIds(db, orgId, assignmentIds),
    workTypesByIds(
      db,
      orgId,
      content.shifts.map((i) => i.work_type_id),
    ),
  ]);
  const names: Names = { users, assignments, workTypes: workTypes.types };
  const perUser = feed.user_id !== null;
  const subject = perUser ? users.get(feed.user_id!) : assignments.get(feed.assignment_id!);
  const subjectName = subject ? ('name' in subject ? subject.name : fullName(subject)) : `Feed ${feed.id}`;
  const calendar = ical({
    name: `${subjectName} (${feed.organization_name})`,
    prodId: { company: 'crewplan', product: 'calendar-feeds', language: 'EN' },
    timezone: { name: null, generator: getVtimezoneComponent },
    ttl: REFRESH_SECONDS,
    x: { 'X-WR-TIMEZONE': timezone },
  });
  for (const item of content.shifts) addShift(calendar, item, names, timezone, perUser);
  for (const timeOff of content.timeOff) addTimeOff(calendar, timeOff, names, timezone, perUser);
  return calendar.toString();
}
