/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): a cell
 * starting with one of them gets a leading apostrophe and stays text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: a formula start neutralised, quoted when it holds a quote, comma or break. */
export const csvField = (value: string | number | null | undefined): string => {
  const raw = value === null || value === undefined ? '' : String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Rows as CSV text (RFC 4180: CRLF line ends). */
export const csvText = (
  rows: readonly (readonly (string | number | null | undefined)[])[],
): string => rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
