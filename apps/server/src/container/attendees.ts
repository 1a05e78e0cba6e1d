import { mailThumbnails, type AlbumMailService } from '../services/messaging/album-mail.service.ts';
import { ImageEngine } from '../repositories/photos/image-engine.ts';
import { KioskMediaRepository } from '../repositories/attendees/kiosk-media.repository.ts';
import { LeadRepository } from '../repositories/attendees/lead.repository.ts';
import { AttendeeFavouritesRepository } from '../repositories/attendees/attendee-favourites.repository.ts';
import { AttendeeFavouritesService } from '../services/attendees/attendee-favourites.service.ts';
import { ThrottleRepository } from '../repositories/identity/throttle.repository.ts';
import { AttendeePrivacyRepository } from '../repositories/attendees/attendee-privacy.repository.ts';
import { AttendeePrivacyService } from '../services/attendees/attendee-privacy.service.ts';
import { AttendeeCardService } from '../services/attendees/attendee-card.service.ts';
import { AttendeeService } from '../services/attendees/attendee.service.ts';
import { KioskDeskService } from '../services/attendees/kiosk-desk.service.ts';
import { KioskMediaService } from '../services/attendees/kiosk-media.service.ts';
import { LeadService } from '../services/attendees/lead.service.ts';
import { PassCodeService } from '../services/attendees/pass-code.service.ts';
import type { Albums } from './albums.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';
import type { Photos } from './photos.ts';

/**
 * Attendees (docs/domains/albums.md, attendee part): the owner's attendee admin, the guest's
 * album and card checks, the kiosk's desk, kiosk media, pass codes and leads. The attendee
 * repository itself is wired with the access layer (container/events.ts), which resolves keys.
 */
export const wireAttendees = (
  core: Core,
  events: Events,
  photos: Photos,
  albums: Albums,
  /** Wired later (notifications): the one album mail renderer and sender. */
  late: { albumMail?: () => AlbumMailService } = {},
) => {
  const { config, database, clock, secrets, storage, bus } = core;
  const { access } = events;
  const { events: eventRows, attendees } = events.repositories;
  const { photos: photoRows } = photos.repositories;
  const { photoListing } = photos.services;
  const { albums: albumRows } = albums.repositories;
  const kioskMediaRows = new KioskMediaRepository(database.db);
  const leadRows = new LeadRepository(database.db);
  // What the console's attendee calls and the kiosk desk both make and link albums with.
  const albumDeps = {
    attendees,
    albums: albumRows,
    access,
    clock,
    publicUrl: config.publicUrl,
    bus,
  };
  return {
    repositories: { kioskMedia: kioskMediaRows, leads: leadRows },
    services: {
      attendees: new AttendeeService({
        ...albumDeps,
        mailList: (job) => core.jobs.send('attendees.mail-list', job),
        quotas: core.quotas,
      }),
      attendeeCards: new AttendeeCardService({
        attendees,
        events: eventRows,
        photos: photoRows,
        access,
        clock,
      }),
      kioskDesk: new KioskDeskService({
        ...albumDeps,
        albumMail: late.albumMail,
        secrets,
        throttle: new ThrottleRepository(database.db, database),
        thumbnails: async (event, attendeeId, limit) =>
          mailThumbnails(
            await attendees.recentPhotos(attendeeId, event.id, limit * 2),
            event,
            (row) => photoListing.presentForGuest(row, 'private', { event }),
            clock.now(),
            limit,
          ),
      }),
      kioskMedia: new KioskMediaService({
        rows: kioskMediaRows,
        access,
        storage,
        images: new ImageEngine(),
        clock,
        bus,
        photos: photoRows,
        albums: albumRows,
        attendees,
        uploads: photos.services.photoUploads,
      }),
      passCodes: new PassCodeService({ rows: kioskMediaRows, access, clock }),
      // Privacy requests: an attendee's export and erasure.
      attendeePrivacy: new AttendeePrivacyService({
        access,
        rows: new AttendeePrivacyRepository(database.db),
        storage,
        secrets,
        clock,
        publicUrl: config.publicUrl,
        bus,
        jobs: core.jobs,
        deleteOwedStorage: () => photos.services.storageDeletions.run(),
      }),
      // Favourites kept with an attendee's album.
      attendeeFavourites: new AttendeeFavouritesService({
        access,
        rows: new AttendeeFavouritesRepository(database.db),
        photoRows,
        listing: photoListing,
      }),
      // Leads of events that collect them (the album gate, the console list and export).
      leads: new LeadService({ access, rows: leadRows, clock, secrets, bus }),
    },
  };
};
export type Attendees = ReturnType<typeof wireAttendees>;
