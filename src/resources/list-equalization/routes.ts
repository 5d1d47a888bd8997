import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { toCsv } from '../../core/csv.js';
import { EXTENSION, IdName, IdParams, LocalDateTime, routeOptions } from '../../core/schemas.js';
import { assertPeriod, normalizeLocalDateTime } from '../../core/time.js';
import { findListOrThrow } from '../lists/repository.js';
import { equalizationOf, MEASURES, type Equalization } from './report.js';

const tags = ['Callbacks'];
const route = routeOptions(tags);

const HoursObject = Type.Object(Object.fromEntries(MEASURES.map((m) => [m, Type.Number()])));
const EqualizationResponse = Type.Object({
  list: IdName,
  start: Type.String(),
  end: Type.String(),
  people: Type.Array(
    Type.Object({
      user: IdName,
      member: Type.Boolean({ description: 'on the list now' }),
      ...Object.fromEntries(MEASURES.map((m) => [m, Type.Number({ description: `hours ${m}` })])),
    }),
  ),
  mean: HoursObject,
  standard_deviation: HoursObject,
});
const EqualizationQuery = Type.Object({
  start: LocalDateTime,
  end: LocalDateTime,
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
});

/** The report as CSV: one row per person, then the mean and the standard deviation. */
function equalizationCsv(report: Equalization): string {
  const header = ['user_id', 'name', 'member', ...MEASURES.map((m) => `${m}_hours`)];
  const rows = report.people.map((p) => [
    p.user.id,
    p.user.name,
    p.member ? 'yes' : 'no',
    ...MEASURES.map((m) => p[m]),
  ]);
  rows.push(['', 'mean', '', ...MEASURES.map((m) => report.mean[m])]);
  rows.push(['', 'standard deviation', '', ...MEASURES.map((m) => report.standard_deviation[m])]);
  return toCsv(header, rows);
}

/** Overtime equalization per list (docs/workflows.md, "Overtime equalization"). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/lists/:id/equalization',
    route(
      'getListEqualization',
      'Hours offered, accepted, refused, forced and worked per person of a list (extension)',
      {
        ...EXTENSION,
        description:
          'Over the callbacks of the list starting in [start, end), with the mean and the (population) standard ' +
          'deviation of each. CSV with `Accept: text/csv` or `format=csv`.',
        params: IdParams,
        querystring: EqualizationQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: EqualizationResponse },
      },
    ),
    async (request, reply) => {
      const { orgId, timezone } = request.auth;
      const start = normalizeLocalDateTime(request.query.start);
      const end = normalizeLocalDateTime(request.query.end);
      assertPeriod(start, end);
      const list = await findListOrThrow(app.db, orgId, request.params.id);
      const report = await equalizationOf(app.db, orgId, timezone, { id: list.id, name: list.name }, { start, end });
      const csv =
        request.query.format === 'csv' || (request.query.format === undefined && wantsCsv(request.headers.accept));
      if (!csv) return report;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="equalization-${list.id}.csv"`)
        .serializer((payload: unknown) => payload as string)
        .send(equalizationCsv(report) as never);
    },
  );
};

const wantsCsv = (accept: string | undefined) => accept !== undefined && /\btext\/csv\b/.test(accept);

export default routes;
