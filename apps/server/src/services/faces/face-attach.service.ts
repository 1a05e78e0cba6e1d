import type { attachFoundPhotos, ParsedBodyOf } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AttendeeRepository } from '../../repositories/attendees/attendee.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { FaceSearchService } from './face-search.service.ts';

/** An attendee keeps what their selfie found: the found photos added to their album. */
export class FaceAttachService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      search: Pick<FaceSearchService, 'findForKey'>;
      /** Found photos an attendee adds to their album. */
      attendees: Pick<AttendeeRepository, 'linkEvent' | 'attach'>;
      bus?: SignalEmitter | undefined;
    },
  ) {}

  /**
   * `photo/search-by-face/attach`: an attendee adds photos their selfie finds to their album. The
   * selfie is searched again (consent, visibility and threshold as in the search), so only the
   * guest's own matches can be added; any other photo named refuses the whole call.
   */
  async attachFound(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof attachFoundPhotos>, 'key_type' | 'key_value'>,
  ): Promise<{ attendee_uid: string; attached_count: number }> {
    const owner = await this.deps.access.requireEventAccess(principal, 'attendee.album', {
      keyEvent: true,
    });
    const attendee = owner.attendee;
    if (!attendee) throw new AppError('invalid_key', 'key_type');
    const found = await this.deps.search.findForKey(principal, input);
    const byUid = new Map(found.rows.map(({ row }) => [row.uid, row]));
    const wanted = [...new Set(input.photo_uid_array)];
    const rows: PhotoRow[] = [];
    for (const uid of wanted) {
      const row = byUid.get(uid);
      if (!row) throw new AppError('not_found', 'photo_uid_array');
      rows.push(row);
    }
    const eventId = found.caller.event.row.id;
    await this.deps.attendees.linkEvent(attendee.row.id, eventId);
    const added = await this.deps.attendees.attach(
      attendee.row.id,
      rows.map((r) => r.id),
      'face',
    );
    if (added > 0)
      await this.deps.bus?.emit('attendee.photos_attached', {
        attendeeId: attendee.row.id,
        photos: rows.map((r) => ({ photoId: r.id, eventId: r.eventId })),
      });
    return { attendee_uid: attendee.row.uid, attached_count: added };
  }
}
