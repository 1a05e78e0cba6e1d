import type { Database } from '../../db/database.ts';

/** The PostgreSQL channel that carries "photo ready" notices between processes. */
export const PHOTO_READY_CHANNEL = 'flashbulb_photo_ready';

export interface PhotoReadyNotice {
  photoId: number;
  eventId: number;
  /** Set when the photo only joined this attendee's album: other streams have nothing new. */
  attendeeId?: number;
  /**
   * Set when an instant link changed (its upload completed or was refused): news to that link's
   * page only; `photoId` is 0 for a refused upload.
   */
  instantLinkId?: number;
}

type Subscriber = (notice: PhotoReadyNotice) => void;

const parseNotice = (payload: string): PhotoReadyNotice | null => {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return null;
    const { photoId, eventId, attendeeId, instantLinkId } = value as Record<string, unknown>;
    if (typeof photoId !== 'number' || typeof eventId !== 'number') return null;
    return {
      photoId,
      eventId,
      ...(typeof attendeeId === 'number' ? { attendeeId } : {}),
      ...(typeof instantLinkId === 'number' ? { instantLinkId } : {}),
    };
  } catch {
    return null;
  }
};

/**
 * "Photo ready" notices through PostgreSQL `NOTIFY`: the worker that made the derivatives may be
 * another process than the one holding a kiosk's stream open. One `LISTEN` per process; notices are
 * fanned out in memory to the subscribers of their event.
 */
export class PhotoEventsRepository {
  private readonly subscribers = new Map<number, Set<Subscriber>>();
  private listening: Promise<() => Promise<void>> | undefined;
  private closed = false;

  constructor(private readonly database: Database) {}

  async photoReady(notice: PhotoReadyNotice): Promise<void> {
    if (this.closed) return;
    await this.database.executeSql('select pg_notify($1, $2)', [
      PHOTO_READY_CHANNEL,
      JSON.stringify(notice),
    ]);
  }

  /** Calls `onNotice` for every ready photo of the event until the answered function is called. */
  async subscribe(eventId: number, onNotice: Subscriber): Promise<() => void> {
    this.listening ??= this.database.listen(PHOTO_READY_CHANNEL, (payload) => {
      const notice = parseNotice(payload);
      if (!notice) return;
      for (const subscriber of this.subscribers.get(notice.eventId) ?? []) subscriber(notice);
    });
    await this.listening;
    let set = this.subscribers.get(eventId);
    if (!set) {
      set = new Set();
      this.subscribers.set(eventId, set);
    }
    set.add(onNotice);
    return () => {
      set.delete(onNotice);
      if (set.size === 0 && this.subscribers.get(eventId) === set) this.subscribers.delete(eventId);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    const unlisten = await this.listening?.catch(() => undefined);
    await unlisten?.().catch(() => undefined);
  }
}
