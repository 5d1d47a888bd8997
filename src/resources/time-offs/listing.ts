import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { linkTo } from '../../core/pagination.js';
import { assertPeriod, formatLocalDateTime, normalizeLocalDateTime, parseLocalDateTime } from '../../core/time.js';
import { findTimeOffTypesByIds } from '../time-off-types/repository.js';
import { findUsersByIds } from '../users/repository.js';
import { findTimeOffOrThrow, listTimeOffsOverlapping } from './repository.js';
import { DEFAULT_PAGE_ITEMS, type ListTimeOffsQuery } from './schemas.js';
import { serializeSegment, userIdsOf, type Related } from './serialize.js';
import { segmentsOfEntries as segmentsOf, type EntrySegment } from '../../scheduling/index.js';
import { APPROVED, PENDING, type TimeOffRow } from './table.js';

type Request = Pick<FastifyRequest, 'baseUrl' | 'auth'>;

/** Unbounded recurring leave is shown for this long after its first occurrence by GET /time_offs/{id}. */
const UNBOUNDED_SHOWN_MONTHS = 12;

const addMonths = (local: string, months: number) => formatLocalDateTime(parseLocalDateTime(local)!.add({ months }));
const earlier = (a: string, b: string) => (a < b ? a : b);
const later = (a: string, b: string) => (a > b ? a : b);

export async function loadRelated(db: Db, orgId: number, entries: TimeOffRow[]): Promise<Related> {
  const [users, types] = await Promise.all([
    findUsersByIds(db, orgId, userIdsOf(entries)),
    findTimeOffTypesByIds(
      db,
      orgId,
      entries.map((entry) => entry.time_off_type_id),
    ),
  ]);
  return { users, types };
}

/**
 * A page holds at most `limit` segments: when more start within the month, it ends where the
 * first left-over segment starts (never between segments that start at the same time).
 */
function cutToLimit(segments: EntrySegment[], pageStart: string, monthEnd: string, limit: number) {
  if (segments.length <= limit) return { kept: segments, pageEnd: monthEnd };
  let cut = segments[limit].segment.start;
  if (cut <= pageStart) cut = segments.find((s) => s.segment.start > pageStart)?.segment.start ?? monthEnd;
  return { kept: segments.filter((s) => s.segment.start < cut), pageEnd: cut };
}

/** GET /time_offs: pattern 1, at most one month (and `limit` segments) per page. */
export async function readTimeOffPage(db: Db, request: Request, query: ListTimeOffsQuery) {
  const { orgId, timezone } = request.auth;
  const start = normalizeLocalDateTime(query.start);
  const end = normalizeLocalDateTime(query.end);
  assertPeriod(start, end);
  const pageStart = query.after === undefined ? start : normalizeLocalDateTime(query.after);
  if (pageStart < start || pageStart >= end) throw invalidParams('The after must be a date within start and end.');
  const limit = query.limit ?? DEFAULT_PAGE_ITEMS;
  const monthEnd = earlier(addMonths(pageStart, 1), end);
  const statuses = query.status === undefined ? [PENDING, APPROVED] : [query.status];

  const entries = await listTimeOffsOverlapping(db, orgId, { start: pageStart, end: monthEnd, statuses });
  const isFirstPage = pageStart === start;
  // A segment belongs to the page it starts on; one that started before the period goes on the first page.
  const onPage = (await segmentsOf(db, orgId, entries, pageStart, monthEnd, timezone)).filter(
    ({ segment }) => segment.start < monthEnd && segment.end > pageStart && (isFirstPage || segment.start >= pageStart),
  );
  const { kept, pageEnd } = cutToLimit(onPage, pageStart, monthEnd, limit);
  const related = await loadRelated(
    db,
    orgId,
    kept.map((s) => s.entry),
  );

  const link = (after: string) => linkTo(request, '/time_offs', { start, end, after, limit, status: query.status });
  return {
    items: kept.map(({ entry, segment }) => serializeSegment(request, entry, segment, related)),
    metadata: {
      start,
      end,
      page_start: pageStart,
      page_end: pageEnd,
      links: {
        prev: isFirstPage ? null : link(later(start, addMonths(pageStart, -1))),
        next: pageEnd < end ? link(pageEnd) : null,
      },
    },
  };
}

/** GET /time_offs/{id}: every segment of every occurrence of the entry. */
export async function readTimeOff(db: Db, request: Request, id: number) {
  const { orgId, timezone } = request.auth;
  const entry = await findTimeOffOrThrow(db, orgId, id);
  const until = entry.until ?? addMonths(entry.start, UNBOUNDED_SHOWN_MONTHS);
  const [segments, related] = await Promise.all([
    segmentsOf(db, orgId, [entry], entry.start, until, timezone),
    loadRelated(db, orgId, [entry]),
  ]);
  return { items: segments.map(({ segment }) => serializeSegment(request, entry, segment, related)), metadata: [] };
}
