import type { PublicKeyType } from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { AttendeeRecord } from '../../repositories/attendee.repository.ts';
import type { EventRecord } from '../../repositories/event.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photo.repository.ts';
import type { Actor } from '../actor.ts';
import type { EventAccess } from '../event-access.ts';
import type { Audience, KeyAccess } from './photo-presenter.ts';

/**
 * Who is calling a photo call: the key-resolution helpers of the photo services, kept together
 * so that one access layer can replace them.
 */
export interface Caller {
  event: EventRecord;
  robotId: number | null;
  audience: Audience;
  userId: number | null;
  /** The attendee behind an attendee key: the album is theirs, across their events. */
  attendee: AttendeeRecord | null;
}

export interface KeyInput {
  key_type?: PublicKeyType | undefined;
  key_value?: string | undefined;
}

export class PhotoCallers {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      access: EventAccess;
    },
  ) {}

  /** The event and audience a public key opens (the photo list, live streams, shares, mini-albums). */
  async audienceOf(keyType: PublicKeyType, keyValue: string): Promise<KeyAccess> {
    const caller = await this.byKey(keyType, keyValue);
    return { event: caller.event, audience: caller.audience, attendee: caller.attendee };
  }

  /** Robot and event-owner keys, or a signed-in owner, for uploads of an event given by code. */
  async uploader(actor: Actor | null, input: KeyInput, eventName: string): Promise<Caller> {
    if (input.key_type) {
      if (input.key_type !== 'robot' && input.key_type !== 'event_owner')
        throw new AppError('invalid_key');
      const resolved = await this.deps.access.resolveKey(
        input.key_type,
        input.key_value ?? '',
        eventName,
      );
      return {
        event: resolved.event,
        robotId: resolved.robotId,
        audience: 'owner',
        userId: null,
        attendee: null,
      };
    }
    if (!actor) throw new AppError('unauthorized_user');
    return {
      event: await this.deps.access.visibleByName(actor, eventName),
      robotId: null,
      audience: 'owner',
      userId: actor.userId,
      attendee: null,
    };
  }

  /** Any key type without an event code: the key itself names the event. */
  async byKey(keyType: PublicKeyType, keyValue: string): Promise<Caller> {
    const { event, robotId, attendee } = await this.deps.access.resolveKeyAlone(keyType, keyValue);
    const audience: Audience =
      keyType === 'private'
        ? 'private'
        : keyType === 'public'
          ? 'public'
          : keyType === 'attendee'
            ? 'attendee'
            : 'owner';
    return { event, robotId, audience, userId: null, attendee };
  }

  async caller(actor: Actor | null, input: KeyInput, eventId?: number): Promise<Caller> {
    if (input.key_type) return this.byKey(input.key_type, input.key_value ?? '');
    if (!actor) throw new AppError('unauthorized_user');
    if (eventId === undefined) throw new AppError('event_not_found', 'event_id');
    return {
      event: await this.deps.access.visibleById(actor, eventId),
      robotId: null,
      audience: 'owner',
      userId: actor.userId,
      attendee: null,
    };
  }

  /** A photo the caller may change (owners and event-owner keys), else `not_found`. */
  async ownedPhoto(
    actor: Actor | null,
    input: KeyInput,
    photoId: number,
    field: string,
  ): Promise<{ photo: PhotoRow; caller: Caller }> {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo) throw new AppError('not_found', field);
    let caller: Caller;
    try {
      caller = await this.caller(actor, input, photo.eventId);
    } catch (error) {
      if (error instanceof AppError && error.key === 'event_not_found')
        throw new AppError('not_found', field);
      throw error;
    }
    if (caller.event.row.id !== photo.eventId || caller.audience !== 'owner')
      throw new AppError('not_found', field);
    return { photo, caller };
  }
}
