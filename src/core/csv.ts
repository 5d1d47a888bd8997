/**
 * CSV that crewplan writes (RFC 4180: fields quoted when they hold a comma, a quote or a line
 * break; lines end with CRLF). A cell that a spreadsheet would read as a formula (it begins with
 * =, +, -, @, a tab or a carriage return) is written with a leading apostrophe, as OWASP advises
 * against CSV injection: the cell then shows its text and runs nothing.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows as CSV text, a header row first. */
export function toCsv(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  return [header, ...rows]
    .map((row) => row.map(csvCell).join(','))
    .join('\r\n')
    .concat('\r\n');
}
