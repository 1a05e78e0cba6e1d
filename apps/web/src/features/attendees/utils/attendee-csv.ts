import type { Attendee } from '@flashbulb/shared';

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): a cell
 * starting with one of them is prefixed with an apostrophe so it stays text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: formula starts neutralised, then quoted when it holds a quote, comma or break. */
export const csvCell = (value: string | number | null | undefined): string => {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Rows to CSV text (RFC 4180 line breaks). */
export const toCsv = (rows: readonly (readonly (string | number | null | undefined)[])[]): string =>
  rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';

export interface AttendeeCsvHeader {
  readonly uid: string;
  readonly privateId: string;
  readonly albumLink: string;
}

/** The generated-ids sheet: the id as printed, the private id and the album link. */
export const attendeesCsv = (
  attendees: readonly Pick<Attendee, 'display_uid' | 'private_id' | 'album_url'>[],
  header: AttendeeCsvHeader,
): string =>
  toCsv([
    [header.uid, header.privateId, header.albumLink],
    ...attendees.map((a) => [a.display_uid, a.private_id, a.album_url]),
  ]);
