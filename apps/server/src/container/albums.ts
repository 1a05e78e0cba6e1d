import { HitCounterRepository } from '../repositories/operations/hit-counter.repository.ts';
import { UsageBudgets } from '../access/guest-limits.ts';
import { AlbumRepository } from '../repositories/albums/album.repository.ts';
import { UserRepository } from '../repositories/identity/user.repository.ts';
import type { Role } from '@flashbulb/shared';
import type { AlbumMailService } from '../services/messaging/album-mail.service.ts';
import { AlbumDownloadFiles } from '../services/albums/album-download-files.ts';
import { AlbumDownloadService } from '../services/albums/album-download.service.ts';
import { AlbumZipMailService } from '../services/albums/album-zip-mail.service.ts';
import { MiniAlbumService } from '../services/albums/mini-album.service.ts';
import { registerPhotoStreamListeners } from '../services/albums/photo-stream.listeners.ts';
import { PhotoStreamService } from '../services/albums/photo-stream.service.ts';
import { InstantPageService } from '../services/albums/instant-page.service.ts';
import { ShareService } from '../services/albums/share.service.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';
import type { Messaging } from './messaging.ts';
import type { Photos } from './photos.ts';
import type { LeadGate } from '../access/lead-gate.ts';

/** Albums: live streams, shares, mini-albums, downloads (attendees: container/attendees.ts). */
export const wireAlbums = (
  core: Core,
  events: Events,
  photos: Photos,
  messaging: Messaging,
  /** Wired later (notifications): the one album mail renderer and sender. */
  late: { albumMail?: () => AlbumMailService; leadGate: LeadGate },
) => {
  const { config, database, clock, secrets, storage, bus } = core;
  const { access } = events;
  const { events: eventRows } = events.repositories;
  const { photos: photoRows } = photos.repositories;
  const { photoListing } = photos.services;
  const { sms } = messaging.services;
  const albums = new AlbumRepository(database.db);
  const users = new UserRepository(database.db);
  registerPhotoStreamListeners(bus, photos.photoEvents);
  const albumDownloadFiles = new AlbumDownloadFiles({
    access,
    listing: photoListing,
    photoRows,
    events: eventRows,
    storage,
    secrets,
    clock,
    resolveKey: (keyType, keyValue) => access.resolveKey(keyType, keyValue),
    findUser: async (userId) => {
      const user = await users.findById(userId);
      return user && !user.disabledAt
        ? {
            userId: user.id,
            email: user.email,
            role: user.role as Role,
            organisationId: user.organisationId,
            sessionId: null,
          }
        : null;
    },
  });
  const albumZipMail = new AlbumZipMailService({
    files: albumDownloadFiles,
    storage,
    secrets,
    clock,
    jobs: core.jobs,
    mail: () => messaging.services.mail,
    mailFrom: config.mailFrom,
  });
  return {
    repositories: { albums },
    services: {
      instantPages: new InstantPageService({
        links: photos.repositories.instantLinks,
        photoRows,
        events: eventRows,
        listing: photoListing,
        notices: photos.photoEvents,
        clock,
      }),
      photoStream: new PhotoStreamService({
        photos: photoListing,
        photoRows,
        albums,
        notices: photos.photoEvents,
        events: eventRows,
        access,
        clock,
        leadGate: late.leadGate,
      }),
      shares: new ShareService({
        photos: photoListing,
        urls: photos.services.photoUrls,
        photoRows,
        albums,
        events: eventRows,
        access,
        storage,
        secrets,
        clock,
        publicUrl: config.publicUrl,
      }),
      albumDownloads: new AlbumDownloadService({
        access,
        files: albumDownloadFiles,
        zipMail: albumZipMail,
        photoRows,
        storage,
        publicUrl: config.publicUrl,
        leadGate: late.leadGate,
      }),
      albumZipMail,
      miniAlbums: new MiniAlbumService({
        albums,
        events: eventRows,
        photos: photoListing,
        access,
        albumMail: () => {
          if (!late.albumMail) throw new Error('albums: the album mail is not wired');
          return late.albumMail();
        },
        sms,
        clock,
        publicUrl: config.publicUrl,
        platformFrom: config.mailFrom,
        budgets: new UsageBudgets(new HitCounterRepository(database)),
        limits: config.guestLimits,
        instantLinks: photos.repositories.instantLinks,
        photoRows,
      }),
    },
  };
};
export type Albums = ReturnType<typeof wireAlbums>;
