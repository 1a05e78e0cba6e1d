import { endpoints, type Photo } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld } from '../helpers/events.ts';
import { completeUpload, makeJpeg, postToStorage, waitForReady } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Delay by tags (owner-console opts `isPhotoDelayCheckTags`, `photoDelayTags`,
 * `photoDelayTagsMinutes`): an uploaded photo carrying one of the tags stays out of the guest keys'
 * lists for the tag minutes, and the hold is logged. The rule's cases: photo-delay.unit.test.ts.
 */

const MINUTE = 60_000;
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'info' },
    { logStream: { write: (line: string) => void lines.push(line) } },
  );
});
afterAll(async () => {
  await t.close();
});

describe('delay by tags', () => {
  it('holds a tagged photo from guest keys for the tag minutes and logs it; others show at once', async () => {
    const world = await createEventWorld(t);
    // The test clock moves: API keys, unlike access tokens, do not expire.
    const admin = await apiKeyAuth(t, world.adminA);
    const event = await createEvent(
      t,
      { ...world.adminA, ...admin },
      {
        full_name: 'Held by tags',
        opts: {
          description: 'd',
          isPhotoDelayCheckTags: 1,
          photoDelayTags: ['review'],
          photoDelayTagsMinutes: 30,
        },
      },
    );
    const upload = async (fileName: string, seed: number, tags?: string[]) => {
      const { key } = await postToStorage(
        t,
        admin,
        event.name,
        fileName,
        await makeJpeg({ seed }),
        'image/jpeg',
      );
      const done = await (tags
        ? t.call(endpoints.photoUploadComplete, { key, tags }, admin)
        : completeUpload(t, admin, key));
      const photo = (done.body as { result: Photo }).result;
      return waitForReady(t, admin.authorization, event.id, photo.id);
    };
    const held = await upload('held.jpg', 31, ['Review', 'party']);
    const free = await upload('free.jpg', 32, ['party']);
    const guestNames = async (keyType: 'private' | 'public') =>
      (
        await t.ok(endpoints.publicPhotoList, {
          key_type: keyType,
          key_value: keyType === 'private' ? event.private_api_key : event.public_api_key,
          max_size: 10,
          page_number: 1,
        })
      ).photos.map((p) => p.file_name);

    expect(await guestNames('private')).toEqual(['free.jpg']);
    expect(await guestNames('public')).toEqual(['free.jpg']);
    // The operator sees both, and when the held one is due.
    const owner = await t.ok(endpoints.ownerPhotoList, { event_id: event.id }, admin);
    expect(owner.photos.map((p) => p.file_name).sort()).toEqual(['free.jpg', 'held.jpg']);
    const heldRow = owner.photos.find((p) => p.id === held.id)!;
    expect(
      new Date(heldRow.available_date).getTime() - new Date(heldRow.created_date).getTime(),
    ).toBe(30 * MINUTE);
    expect(free.id).not.toBe(held.id);

    // The hold is logged: which photo, which tags, for how long.
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'photo held by its tags');
    expect(logged).toEqual([
      expect.objectContaining({
        photoId: held.id,
        eventId: event.id,
        tags: ['Review'],
        minutes: 30,
      }),
    ]);

    t.clock.advance(30 * MINUTE - 1000);
    expect(await guestNames('private')).toEqual(['free.jpg']);
    t.clock.advance(1000);
    expect((await guestNames('private')).sort()).toEqual(['free.jpg', 'held.jpg']);
  });
});
