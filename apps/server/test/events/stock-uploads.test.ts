import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { makeJpeg } from '../helpers/photos.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let event: FlashbulbEvent;
let other: FlashbulbEvent;

beforeAll(async () => {
  t = await createTestApp();
  const world = await createEventWorld(t);
  event = await createEvent(t, world.adminA);
  other = await createEvent(t, world.adminB, { full_name: 'Other' });
});
afterAll(async () => {
  await t.close();
});

const ownerKey = () => ({
  key_type: 'event_owner' as const,
  key_value: event.owner_api_key,
  event_name: event.name,
});

const upload = async (
  grant: { url: string; fields: Record<string, string> },
  bytes: Buffer,
  type: string,
) => {
  const form = multipartBody(grantForm(grant.fields, bytes, { contentType: type }));
  return t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
};

describe('stock-image thumbnails', () => {
  it('makes a 400 px thumbnail of an uploaded stock image for the event-owner key', async () => {
    const grant = await t.ok(endpoints.stockImageUploadAccess, {
      ...ownerKey(),
      directory: 'gala',
      file_name: 'frame.jpg',
    });
    expect(
      (await upload(grant, await makeJpeg({ width: 1600, height: 1200 }), 'image/jpeg')).statusCode,
    ).toBe(201);
    const made = await t.ok(endpoints.thumbnailForStockImage, {
      ...ownerKey(),
      directory: 'gala',
      image_url: grant.public_url,
    });
    expect(made.imgSize).toBeGreaterThan(0);
    const served = await t.app.inject({ method: 'GET', url: new URL(made.imgUrl).pathname });
    expect(served.statusCode).toBe(200);
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([400, 300]);
    expect(made.imgUrl).toContain('/thumbnails/');
  });

  it('refuses other keys, other events’ images and missing files', async () => {
    const publicKey = await t.call(endpoints.thumbnailForStockImage, {
      key_type: 'public',
      key_value: event.public_api_key,
      event_name: event.name,
      image_url: 'stock-images/x.jpg',
    });
    expect(errorOf(publicKey)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const wrong = await t.call(endpoints.thumbnailForStockImage, {
      ...ownerKey(),
      key_value: other.owner_api_key,
      image_url: 'x',
    });
    expect(errorOf(wrong)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    const foreign = await t.call(endpoints.thumbnailForStockImage, {
      ...ownerKey(),
      image_url: `stock-images/${other.name}/a.jpg`,
    });
    expect(errorOf(foreign)).toMatchObject({
      status: 404,
      message_key: 'not_found',
      field: 'image_url',
    });
    const missing = await t.call(endpoints.thumbnailForStockImage, {
      ...ownerKey(),
      image_url: `stock-images/${event.name}/none.jpg`,
    });
    expect(errorOf(missing)).toMatchObject({ status: 404, message_key: 'not_found' });
  });
});

describe('faces to ignore', () => {
  it('grants uploads of jpg and png faces into the event’s ignore area', async () => {
    const grant = await t.ok(endpoints.ignoredFaceUploadAccess, {
      ...ownerKey(),
      file_name: 'staff-1.jpg',
    });
    expect(grant.key).toBe(`faces/${event.name}/ignore/staff-1.jpg`);
    expect((await upload(grant, await makeJpeg(), 'image/jpeg')).statusCode).toBe(201);
    const gif = await t.call(endpoints.ignoredFaceUploadAccess, {
      ...ownerKey(),
      file_name: 'a.gif',
    });
    expect(errorOf(gif)).toMatchObject({ status: 400, message_key: 'unsupported_picture_format' });
    const traversal = await t.call(endpoints.ignoredFaceUploadAccess, {
      ...ownerKey(),
      file_name: '../a.jpg',
    });
    expect(errorOf(traversal).status).toBe(400);
    const publicKey = await t.call(endpoints.ignoredFaceUploadAccess, {
      key_type: 'public',
      key_value: event.public_api_key,
      event_name: event.name,
      file_name: 'a.jpg',
    });
    expect(errorOf(publicKey)).toMatchObject({ status: 403, message_key: 'forbidden' });
  });
});
