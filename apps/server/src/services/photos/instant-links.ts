import { randomBytes } from 'node:crypto';
import { INSTANT_CODE_ATTEMPTS, instantCodeFrom, instantLinkUrl } from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { InstantLinkRepository } from '../../repositories/photos/instant-link.repository.ts';
import type { PhotoEventsRepository } from '../../repositories/photos/photo-events.repository.ts';

/** A random code from the code alphabet (crypto random: codes are not guessable in order). */
export const drawInstantCode = (): string => {
  const bytes = randomBytes(32);
  let i = 0;
  return instantCodeFrom(() => {
    if (i >= bytes.length) {
      randomBytes(32).copy(bytes);
      i = 0;
    }
    return bytes[i++]!;
  });
};

/**
 * The collision rule: draw, try to store; a code the event already has is drawn again, at most
 * `attempts` times (then `something_wrong`: at six characters from 29 a clash is one in millions, five
 * in a row means something else is wrong).
 */
export const allocateInstantCode = async (
  tryStore: (code: string) => Promise<boolean>,
  draw: () => string = drawInstantCode,
  attempts: number = INSTANT_CODE_ATTEMPTS,
): Promise<string> => {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const code = draw();
    if (await tryStore(code)) return code;
  }
  throw new AppError('something_wrong');
};

/**
 * The upload side of instant links: made with the grant, tied to the photo when the upload
 * completes, marked failed when the completion refuses the file. A change is announced on the
 * live notices so an open instant page hears it at once.
 */
export class InstantLinks {
  constructor(
    private readonly deps: {
      links: InstantLinkRepository;
      notices: Pick<PhotoEventsRepository, 'photoReady'>;
      clock: Clock;
      publicUrl: string;
      draw?: () => string;
    },
  ) {}

  async create(
    event: { id: number; name: string },
    uploadKey: string,
    expiresAt: Date,
  ): Promise<{ code: string; url: string }> {
    const code = await allocateInstantCode(
      (candidate) =>
        this.deps.links.tryCreate({ eventId: event.id, code: candidate, uploadKey, expiresAt }),
      this.deps.draw,
    );
    return { code, url: instantLinkUrl(this.deps.publicUrl, event.name, code) };
  }

  async completed(uploadKey: string, photoId: number): Promise<void> {
    const link = await this.deps.links.completed(uploadKey, photoId);
    if (link)
      await this.deps.notices.photoReady({
        photoId,
        eventId: link.eventId,
        instantLinkId: link.id,
      });
  }

  async failed(uploadKey: string): Promise<void> {
    const link = await this.deps.links.failed(uploadKey, this.deps.clock.now());
    if (link)
      await this.deps.notices.photoReady({
        photoId: 0,
        eventId: link.eventId,
        instantLinkId: link.id,
      });
  }
}
