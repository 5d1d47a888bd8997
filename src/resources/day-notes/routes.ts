import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { writeLog } from '../../core/audit.js';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { sanitize } from '../../core/html.js';
import { created, EXTENSION, ok, routeOptions, SuccessWith, SuccessWithId } from '../../core/schemas.js';
import { assertPeriod, formatDate, todayIn } from '../../core/time.js';
import { listDayNoteEntries, notesForRange, replaceDayNotes } from './repository.js';
import { addDayNote, changeDayNote, removeDayNote, serializeDayNoteEntry } from './rules.js';
import {
  ChangeDayNoteEntryBody,
  DateParams,
  DayNoteEntryParams,
  DayNoteEntryResponse,
  DayNotesBody,
  DayNotesQuery,
  DayNotesResponse,
  NewDayNoteEntryBody,
} from './schemas.js';

const tags = ['Schedule'];
const route = routeOptions(tags);

async function notesOfDate(db: Db, orgId: number, date: string) {
  const day = (await notesForRange(db, orgId, date, date)).get(date);
  return { date, notes: day?.notes ?? [], activities: day?.activities ?? [] };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/day_notes',
    route(
      'listDayNotes',
      'Notes and activities of the dates from start to end that have any (default today; extension)',
      { ...EXTENSION, querystring: DayNotesQuery, response: { 200: Type.Array(DayNotesResponse) } },
    ),
    async (request) => {
      const start = request.query.start ?? formatDate(todayIn(request.auth.timezone));
      const end = request.query.end ?? start;
      assertPeriod(start, end, { allowEqual: true });
      const byDate = await notesForRange(app.db, request.auth.orgId, start, end);
      return [...byDate].map(([date, day]) => ({ date, ...day }));
    },
  );

  app.get(
    '/day_notes/:date',
    route('getDayNotes', 'Notes and activities of one date (extension)', {
      ...EXTENSION,
      params: DateParams,
      response: { 200: DayNotesResponse },
    }),
    (request) => notesOfDate(app.db, request.auth.orgId, request.params.date),
  );

  app.put(
    '/day_notes/:date',
    route('replaceDayNotes', 'Replaces the notes and/or activities of a date (HTML, sanitized; extension)', {
      ...EXTENSION,
      description: 'A list that is sent replaces that list; a list left out is kept. `[]` clears it.',
      params: DateParams,
      body: DayNotesBody,
      response: { 200: DayNotesResponse },
    }),
    async (request) => {
      const { date } = request.params;
      const { notes, activities } = request.body;
      if (notes === undefined && activities === undefined)
        throw invalidParams('The notes or activities field is required.');
      return withTransaction(app.db, async (trx) => {
        if (notes) await replaceDayNotes(trx, request.auth.orgId, date, 'note', notes.map(sanitize));
        if (activities) await replaceDayNotes(trx, request.auth.orgId, date, 'activity', activities.map(sanitize));
        const after = await notesOfDate(trx, request.auth.orgId, date);
        await writeLog(trx, request.auth, {
          action: 'day_notes.updated',
          description: `updated the notes and activities of ${date}.`,
          entityType: 'day_notes',
          entityId: date,
          after,
        });
        return after;
      });
    },
  );

  app.delete(
    '/day_notes/:date',
    route('deleteDayNotes', 'Removes every note and activity of a date (extension)', {
      ...EXTENSION,
      params: DateParams,
      response: { 200: DayNotesResponse },
    }),
    async (request) => {
      const { date } = request.params;
      return withTransaction(app.db, async (trx) => {
        const before = await notesOfDate(trx, request.auth.orgId, date);
        await replaceDayNotes(trx, request.auth.orgId, date, 'note', []);
        await replaceDayNotes(trx, request.auth.orgId, date, 'activity', []);
        await writeLog(trx, request.auth, {
          action: 'day_notes.deleted',
          description: `removed the notes and activities of ${date}.`,
          entityType: 'day_notes',
          entityId: date,
          before,
        });
        return { date, notes: [], activities: [] };
      });
    },
  );

  app.get(
    '/day_notes/:date/entries',
    route('listDayNoteEntries', 'The notes and activities of one date with their ids, notes first (extension)', {
      ...EXTENSION,
      params: DateParams,
      response: { 200: Type.Array(DayNoteEntryResponse) },
    }),
    async (request) =>
      (await listDayNoteEntries(app.db, request.auth.orgId, request.params.date)).map(serializeDayNoteEntry),
  );

  app.post(
    '/day_notes/:date/entries',
    route('addDayNoteEntry', 'Adds one note (or activity) to a date; the others stay as they are (extension)', {
      ...EXTENSION,
      params: DateParams,
      body: NewDayNoteEntryBody,
      response: { 201: SuccessWith({ entry: DayNoteEntryResponse }) },
    }),
    async (request, reply) => {
      const { date } = request.params;
      const row = await withTransaction(app.db, (trx) => addDayNote(trx, request.auth, date, request.body));
      reply.status(201);
      return created(`Note #${row.id} added to ${date}`, { entry: serializeDayNoteEntry(row) });
    },
  );

  app.patch(
    '/day_notes/:date/entries/:id',
    route('changeDayNoteEntry', 'Replaces the HTML of one note or activity of a date, by its id (extension)', {
      ...EXTENSION,
      params: DayNoteEntryParams,
      body: ChangeDayNoteEntryBody,
      response: { 200: SuccessWith({ entry: DayNoteEntryResponse }) },
    }),
    async (request) => {
      const { date, id } = request.params;
      const row = await withTransaction(app.db, (trx) => changeDayNote(trx, request.auth, date, id, request.body.html));
      return { ...ok(`Note #${id} of ${date} changed`), entry: serializeDayNoteEntry(row) };
    },
  );

  app.delete(
    '/day_notes/:date/entries/:id',
    route('deleteDayNoteEntry', 'Removes one note or activity of a date, by its id (extension)', {
      ...EXTENSION,
      params: DayNoteEntryParams,
      response: { 200: SuccessWithId },
    }),
    async (request) => {
      const { date, id } = request.params;
      await withTransaction(app.db, (trx) => removeDayNote(trx, request.auth, date, id));
      return ok(`Note #${id} of ${date} removed`, { id });
    },
  );
};

export default routes;
