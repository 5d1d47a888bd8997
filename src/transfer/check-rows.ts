import { ApiError } from '../core/errors.js';
import { isLocalDateTime, parseDate } from '../core/time.js';
import { checkWebhookUrl } from '../resources/webhooks/rules.js';
import type { WebhookTargets } from '../resources/webhooks/targets.js';
import type { ColumnInfo } from './catalog.js';
import type { OrganizationDocument } from './export.js';

/**
 * The values of an import document checked as the API checks what it stores (issue 41, F11): each
 * column's type (a whole number, a number, text, true or false), a value for a required column,
 * dates and times that exist (`2026-02-30` is none), and webhook URLs by the registration rule
 * (http or https, no credentials, a public address). Every problem names its table, row and field.
 */

/** Columns that hold a date (YYYY-MM-DD) and nothing else. */
const DATE_COLUMNS = new Set(['date', 'date_of_birth', 'date_of_hire', 'accrual_start_date', 'anchor_date']);
/** Columns that hold a date, a local date and time, or a UTC instant. */
const TIME_COLUMN = /(^|_)(date|start|end|at|on|time|until)($|_)/;
const LOOKS_LIKE_TIME = /^\d{4}-\d{2}-\d{2}/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const INTEGER_TYPES = new Set(['integer', 'bigint', 'smallint', 'int', 'int2', 'int4', 'int8']);
const TEXT_TYPES = /^(text|varchar|character varying|char)/;

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);

function isRealInstant(value: string): boolean {
  return INSTANT.test(value) && parseDate(value.slice(0, 10)) !== undefined && !Number.isNaN(Date.parse(value));
}

/** Why the value does not fit the column, or undefined. */
function valueProblem(column: ColumnInfo, value: unknown): string | undefined {
  if (value === null || value === undefined) return column.nullable ? undefined : 'is required (got null)';
  if (INTEGER_TYPES.has(column.type)) {
    if (typeof value === 'boolean') return undefined; // a flag exported by PostgreSQL
    return Number.isSafeInteger(value) ? undefined : `must be a whole number (got ${shown(value)})`;
  }
  if (column.type === 'boolean')
    return typeof value === 'boolean' || value === 0 || value === 1
      ? undefined
      : `must be true or false (got ${shown(value)})`;
  if (TEXT_TYPES.test(column.type)) {
    if (typeof value !== 'string') return `must be text (got ${shown(value)})`;
    if (DATE_COLUMNS.has(column.name) && value !== '' && parseDate(value) === undefined)
      return `must be a date that exists, as YYYY-MM-DD (got ${shown(value)})`;
    if (TIME_COLUMN.test(column.name) && LOOKS_LIKE_TIME.test(value)) {
      const fits = parseDate(value) !== undefined || isLocalDateTime(value) || isRealInstant(value);
      if (!fits) return `must be a date or time that exists (got ${shown(value)})`;
    }
    return undefined;
  }
  return typeof value === 'number' && Number.isFinite(value) ? undefined : `must be a number (got ${shown(value)})`;
}

/** Every problem of the document's rows (at most `limit`), each naming its table, row and field. */
export async function rowProblems(
  document: OrganizationDocument,
  columns: Map<string, ColumnInfo[]>,
  targets: WebhookTargets,
  limit = 50,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [table, rows] of Object.entries(document.tables)) {
    const known = new Map((columns.get(table) ?? []).map((column) => [column.name, column]));
    for (const [index, row] of rows.entries()) {
      const where = `table ${table}, row ${index + 1} (id ${shown(row.id)})`;
      for (const [field, value] of Object.entries(row)) {
        const column = known.get(field);
        const problem = column && valueProblem(column, value);
        if (problem) problems.push(`${where}, field ${field}: ${problem}`);
      }
      if (table === 'webhook_endpoint' && typeof row.url === 'string') {
        try {
          await checkWebhookUrl(row.url, targets);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          for (const message of ([] as string[]).concat(error.errorMessage))
            problems.push(`${where}, field url: ${message}`);
        }
      }
      if (problems.length >= limit) return problems.slice(0, limit);
    }
  }
  return problems;
}
