import { FAVOURITES_MAX } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AttendeeFavouritesRepository } from '../../repositories/attendees/attendee-favourites.repository.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import { shownToGuests } from '../../repositories/photos/photo-visibility.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';

/**
 * Favourites kept with an attendee's album (a heart on a photo; docs/domains/albums.md,
 * "Favourites"): only the attendee key, only photos of its own album. Other guests keep theirs on
 * their device.
 */
export class AttendeeFavouritesService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      rows: AttendeeFavouritesRepository;
      photoRows: Pick<PhotoRepository, 'findById'>;
      listing: Pick<PhotoListingService, 'inScope'>;
    },
  ) {}

  async list(principal: Principal): Promise<{ photo_ids: number[] }> {
    const attendee = this.deps.access.requireAttendee(principal, 'attendee.album');
    return { photo_ids: await this.deps.rows.list(attendee.row.id) };
  }

  /**
   * Marks or unmarks photos. Every photo must be one the attendee's own album shows (its scope as
   * its list reads it, ready and shown to guests), else `not_found` and nothing changes.
   */
  async update(
    principal: Principal,
    input: KeylessBody<'setAttendeeFavourite'>,
  ): Promise<{ photo_ids: number[] }> {
    const attendee = this.deps.access.requireAttendee(principal, 'attendee.album');
    const grant = await this.deps.access.requireEventAccess(principal, 'photo.list', {
      keyEvent: true,
    });
    const ids = [...new Set(input.photo_id_array)];
    for (const id of ids) {
      const row = await this.deps.photoRows.findById(id);
      const shown = row?.status === 'ready' && shownToGuests(row);
      if (!row || !shown || !(await this.deps.listing.inScope(grant, row)))
        throw new AppError('not_found', 'photo_id_array');
    }
    if (input.favourite === 1) {
      const kept = new Set(await this.deps.rows.list(attendee.row.id));
      const added = ids.filter((id) => !kept.has(id)).length;
      if (kept.size + added > FAVOURITES_MAX)
        throw new AppError('too_many_photos', 'photo_id_array');
      await this.deps.rows.add(attendee.row.id, ids);
    } else {
      await this.deps.rows.remove(attendee.row.id, ids);
    }
    return { photo_ids: await this.deps.rows.list(attendee.row.id) };
  }
}
