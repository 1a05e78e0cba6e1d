import { z } from 'zod';
import { ATTENDEE_KEY_ERRORS } from './attendee-fields.ts';
import { defineEndpoint } from '../endpoint.ts';
import { flagSchema } from '../events/event-settings.ts';
import { keyBody } from '../events/events.ts';
import { idSchema } from '../identity/users.ts';

/**
 * Favourites (a heart on a photo) kept with an attendee's album, so they follow the guest to
 * another device. Other guests keep theirs on the device only (the page's local storage).
 */

/** Most favourites one album keeps (a selection is downloaded, bought or printed in one step). */
export const FAVOURITES_MAX = 500;

const favouritesResult = z.object({
  photo_ids: z.array(z.number().int()).describe('The album’s favourites, newest mark first'),
});

export const attendeeFavourites = defineEndpoint({
  path: '/attendee/favourites/retrieve',
  auth: 'key',
  tag: 'attendees',
  summary: 'The photos the attendee marked as favourites in their album (attendee key only)',
  body: z.object({ ...keyBody }),
  result: favouritesResult,
  errors: ATTENDEE_KEY_ERRORS,
});

export const setAttendeeFavourite = defineEndpoint({
  path: '/attendee/favourites/update',
  auth: 'key',
  tag: 'attendees',
  summary:
    'Marks (favourite 1) or unmarks (0) photos of the attendee’s own album as favourites; a photo outside the album is not_found and nothing changes',
  body: z.object({
    ...keyBody,
    photo_id_array: z
      .array(idSchema, { error: 'invalid_value' })
      .min(1, 'invalid_value')
      .max(FAVOURITES_MAX, 'too_many_photos'),
    favourite: flagSchema,
  }),
  result: favouritesResult,
  errors: [...ATTENDEE_KEY_ERRORS, 'not_found', 'too_many_photos'],
});
