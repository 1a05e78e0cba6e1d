import type { Attendee } from '@flashbulb/shared';
import { toCsv } from '../../../../lib/csv.ts';

export { csvCell, toCsv } from '../../../../lib/csv.ts';

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
