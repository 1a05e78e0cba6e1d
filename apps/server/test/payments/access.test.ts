import { endpoints, type FlashbulbEvent, type KeyPhoto, type Photo } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { bytesOf, pathOf } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * "done when": before payment no original or unwatermarked image of a paid event can be
 * fetched by any guest key (public, private, attendee) or through the signed media route; after
 * payment the payer's album — or the tagged part a partial-unlock button sells — shows originals
 * and the unwatermarked preview, and nobody else's.
 */

let t: TestApp;
let admin: { authorization: string };
let paid: FlashbulbEvent;
/** Photos of the paid event: [0], [1] in Ann's album ([1] tagged `vip`), [2] in Bob's. */
const shots: Photo[] = [];
let ann = '';
let bob = '';

type GuestKey = 'public' | 'private' | 'attendee';

const listAs = async (keyType: GuestKey, attendeeUid = ann): Promise<KeyPhoto[]> =>
  (
    await t.ok(endpoints.publicPhotoList, {
      key_type: keyType,
      key_value:
        keyType === 'public'
          ? paid.public_api_key
          : keyType === 'private'
            ? paid.private_api_key
            : attendeeUid,
      max_size: 100,
      page_number: 1,
    })
  ).photos;

const fetchBytes = async (url: string): Promise<{ status: number; body: Buffer }> => {
  const response = await t.app.inject({ method: 'GET', url: pathOf(url) });
  return { status: response.statusCode, body: response.rawPayload };
};

const stored = async (key: string): Promise<Buffer> =>
  bytesOf((await t.app.container.storage.get(key))!.body);

/** The bytes a paid event sells: every photo's original and unwatermarked preview. */
const sold = async (): Promise<Buffer[]> => {
  const rows = await t.app.container.repositories.photos.findByIds(shots.map((s) => s.id));
  const out: Buffer[] = [];
  for (const row of rows) {
    out.push(await stored(row.storageKey));
    out.push(await stored(row.derivatives.preview!));
  }
  return out;
};

/** Every URL a guest was given, fetched: none answers bytes the event sells. */
const expectNothingSold = async (photos: KeyPhoto[]) => {
  const forbidden = await sold();
  for (const photo of photos) {
    expect(photo.urls.original).toBeNull();
    for (const url of Object.values(photo.urls)) {
      if (!url) continue;
      const { status, body } = await fetchBytes(url);
      if (status === 200) expect(forbidden.some((b) => b.equals(body))).toBe(false);
    }
  }
};

const pay = async (attendeeUid: string, buttonIndex: number) => {
  const created = await t.ok(endpoints.createQrPayment, {
    key_type: 'attendee',
    key_value: attendeeUid,
    attendee_uid: attendeeUid,
    pricing_button_index: buttonIndex,
  });
  const paidNow = await t.ok(endpoints.testProviderPay, {
    payment_id: created.payment_id,
    card_number: '4242 4242 4242 4242',
  });
  expect(paidNow.status).toBe('paid');
};

beforeAll(async () => {
  t = await createTestApp();
  const { world, robotId, robot, ...keys } = await createRobotWorld(t);
  admin = keys.admin;
  paid = await createEvent(t, world.adminA, {
    full_name: 'Paid Gala',
    is_free: 0,
    robot_id_array: [robotId],
    opts: {
      description: 'Paid',
      unitPrice: 2,
      pricingButtons: [
        {
          buttonText: 'Whole album',
          priceFormula: '{Final_Amount}',
          digitals: true,
          prints: false,
          partialUnlockTags: false,
          printsPool: '',
        },
        {
          buttonText: 'VIP photos',
          priceFormula: '5',
          digitals: true,
          prints: false,
          partialUnlockTags: true,
          printsPool: '',
        },
      ],
    },
  });
  const generated = await t.ok(
    endpoints.generateAttendeeList,
    { attendee_count: 2, event_id_array: [paid.id], is_prepaid: 0, partial_unlock_tag: 'vip' },
    admin,
  );
  [ann, bob] = generated.attendees.map((a) => a.uid) as [string, string];
  const photos = t.app.container.repositories.photos;
  for (const [i, owner] of [ann, ann, bob].entries()) {
    const up = await uploadPhoto(t, robot, paid.name, await makeJpeg({ seed: 90 + i }));
    await waitForReady(t, admin.authorization, paid.id, up.id);
    await photos.update(up.id, { attendeeUid: owner, tags: i === 1 ? ['vip'] : ['stage'] });
    shots.push(up);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('a paid event before payment', () => {
  it('gives no key an original or an unwatermarked image, in the list or through media URLs', async () => {
    const lists = {
      public: await listAs('public'),
      private: await listAs('private'),
      attendee: await listAs('attendee', ann),
    };
    expect(lists.public).toHaveLength(3);
    expect(lists.private).toHaveLength(3);
    expect(lists.attendee.map((p) => p.id).sort()).toEqual([shots[0]!.id, shots[1]!.id].sort());
    for (const photos of Object.values(lists)) {
      for (const photo of photos) {
        // The preview a guest sees is the protector-watermarked one.
        expect(photo.urls.preview).toBe(photo.urls.protector_watermark);
        expect(photo.urls.preview).not.toBeNull();
      }
      await expectNothingSold(photos);
    }
  });

  it('refuses a guest’s media URL turned into the original or the unwatermarked preview', async () => {
    const [photo] = await listAs('private');
    const url = photo!.urls.protector_watermark!;
    for (const variant of ['original', 'preview']) {
      const forged = url.includes('/media/photos/')
        ? url.replace(/\/protector_watermark\?/, `/${variant}?`)
        : `${t.config.publicUrl}/media/photos/${photo!.id}/${variant}?a=g&e=9999999999&s=x`;
      expect((await fetchBytes(forged)).status).toBe(403);
    }
  });
});

describe('a paid event after payment', () => {
  it('a partial-unlock button opens only the photos carrying the attendee’s tag', async () => {
    await pay(ann, 1);
    const mine = await listAs('attendee', ann);
    const vip = mine.find((p) => p.id === shots[1]!.id)!;
    const other = mine.find((p) => p.id === shots[0]!.id)!;
    expect(vip.urls.original).toMatch(/\/original\?/);
    expect(vip.urls.preview).not.toBe(vip.urls.protector_watermark);
    const rows = await t.app.container.repositories.photos.findByIds([shots[1]!.id]);
    const original = await fetchBytes(vip.urls.original!);
    expect(original.status).toBe(200);
    expect(original.body.equals(await stored(rows[0]!.storageKey))).toBe(true);
    const preview = await fetchBytes(vip.urls.preview!);
    expect(preview.body.equals(await stored(rows[0]!.derivatives.preview!))).toBe(true);
    // The untagged photo stays locked and watermarked.
    expect(other.urls.original).toBeNull();
    expect(other.urls.preview).toBe(other.urls.protector_watermark);
  });

  it('the whole album opens for the payer only: originals and the unwatermarked preview', async () => {
    await pay(ann, 0);
    const mine = await listAs('attendee', ann);
    expect(mine).toHaveLength(2);
    for (const photo of mine) {
      expect(photo.urls.original).toMatch(/\/original\?/);
      expect(photo.urls.preview).toMatch(/\/preview\?/);
      expect((await fetchBytes(photo.urls.original!)).status).toBe(200);
    }
    // Bob, the public and the private key still see nothing the event sells.
    await expectNothingSold(await listAs('attendee', bob));
    await expectNothingSold(await listAs('public'));
    await expectNothingSold(await listAs('private'));
  });
});
