import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Deep pages of the photo list: pages by number skip rows on an index of ids, then
 * read one page of whole rows; pages by keyset (`before_id`) continue after a photo. Both must
 * give exactly the order of the list, with the filters applied, whatever the depth.
 */

let t: TestApp;
let admin: { authorization: string };
let event: FlashbulbEvent;
const ROWS = 250;

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  const world = await createRobotWorld(t);
  admin = world.admin;
  event = await createEvent(t, world.world.adminA);
  // Rows straight in SQL, with ties on created_at (ten photos per second) so the id breaks them,
  // every seventh hidden and every eleventh still inside its delay.
  await t.database.executeSql(
    `insert into photos (uid, event_id, sha256, storage_key, file_name, content_type, media_type,
       width, height, size_bytes, status, is_visible, derivatives, created_at, available_at)
     select 'pg' || g, $1, md5(g::text), 'events/x/photos/uid_pg' || g || '_uid/original.jpg',
       'IMG_' || g || '.jpg', 'image/jpeg', 'image', 64, 48, 100, 'ready',
       case when g % 7 = 0 then 0 else 1 end,
       '{"preview":"p.jpg","thumbnail":"t.jpg"}'::jsonb,
       now() - interval '1 hour' + (g / 10) * interval '1 second',
       case when g % 11 = 0 then now() + interval '1 day' else now() - interval '1 hour' end
     from generate_series(1, $2::int) g`,
    [event.id, ROWS],
  );
});
afterAll(async () => {
  await t.close();
});

const expectedUids = async (visibleOnly: boolean): Promise<string[]> => {
  const { rows } = await t.database.executeSql(
    `select uid from photos where event_id = $1 and available_at <= now()
       ${visibleOnly ? 'and is_visible = 1' : ''}
     order by created_at desc, id desc`,
    [event.id],
  );
  return rows.map((r) => String(r.uid));
};

const page = (body: Record<string, unknown>) =>
  t.ok(
    endpoints.ownerPhotoList,
    { event_id: event.id, max_size: 40, get_from_tmp: 0, ...body },
    admin,
  );

describe('photo list paging at depth', () => {
  it('pages by number give the list order, filters applied, to the last partial page', async () => {
    for (const visibleOnly of [false, true]) {
      const expected = await expectedUids(visibleOnly);
      expect(expected.length).toBeGreaterThan(150);
      const got: string[] = [];
      for (let n = 1; n <= Math.ceil(expected.length / 40) + 1; n += 1) {
        const result = await page({ page_number: n, ...(visibleOnly ? { is_visible: 1 } : {}) });
        got.push(...result.photos.map((p) => p.uid));
      }
      expect(got).toEqual(expected);
    }
  });

  it('pages by keyset continue after the given photo, the same order as by number', async () => {
    const expected = await expectedUids(false);
    const got: string[] = [];
    let before: number | undefined;
    for (;;) {
      const result = await page(before === undefined ? {} : { before_id: before });
      if (result.photos.length === 0) break;
      got.push(...result.photos.map((p) => p.uid));
      before = result.photos.at(-1)!.id;
    }
    expect(got).toEqual(expected);
  });
});
