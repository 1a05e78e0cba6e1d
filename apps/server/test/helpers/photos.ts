import { VideoEngine } from '../../src/repositories/photos/video-engine.ts';
import { deflateSync } from 'node:zlib';
import { endpoints, type Photo } from '@flashbulb/shared';
import sharp from 'sharp';
import { grantForm, multipartBody } from './storage.ts';
import type { TestApp } from './test-app.ts';

export interface UploadAuth {
  key_type?: 'robot' | 'event_owner';
  key_value?: string;
  authorization?: string;
}

const authOptions = (auth: UploadAuth) =>
  auth.authorization ? { authorization: auth.authorization } : {};
const keyFields = (auth: UploadAuth) =>
  auth.key_type ? { key_type: auth.key_type, key_value: auth.key_value ?? '' } : {};

/** Grant → multipart POST to the storage URL → answers the grant's key and the storage status. */
export const postToStorage = async (
  t: TestApp,
  auth: UploadAuth,
  eventName: string,
  fileName: string,
  bytes: Buffer,
  contentType: string,
): Promise<{ key: string; status: number }> => {
  const grant = await t.ok(
    endpoints.photoUploadAccess,
    { ...keyFields(auth), event_name: eventName, file_name: fileName, content_type: contentType },
    authOptions(auth),
  );
  const form = multipartBody(grantForm(grant.fields, bytes, { filename: fileName, contentType }));
  const response = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  return { key: grant.key, status: response.statusCode };
};

export const completeUpload = (t: TestApp, auth: UploadAuth, key: string) =>
  t.call(endpoints.photoUploadComplete, { ...keyFields(auth), key }, authOptions(auth));

/** The whole robot path for one file; answers the photo. */
export const uploadPhoto = async (
  t: TestApp,
  auth: UploadAuth,
  eventName: string,
  bytes: Buffer,
  fileName = 'photo.jpg',
  contentType = 'image/jpeg',
): Promise<Photo> => {
  const { key, status } = await postToStorage(t, auth, eventName, fileName, bytes, contentType);
  if (status !== 201) throw new Error(`storage answered ${status}`);
  const done = await completeUpload(t, auth, key);
  if (done.body.status !== 'ok') throw new Error(`complete: ${JSON.stringify(done.body)}`);
  return done.body.result;
};

/** The jobs that take a photo out of `processing`: its derivatives, then a clip's renditions. */
const MAKING_JOBS = ['photo.derivatives', 'video.renditions'];

/**
 * Whether a job may still make the photo: one of its own is queued, retrying or running; none is
 * queued yet (the upload's listener sends the first after the reply); or the worker has any job
 * due or running (a sweep or a reprocess that will send one). `done`: nothing left that could.
 */
const makingJobs = async (t: TestApp, photoId: number): Promise<'pending' | 'done'> => {
  const { rows } = await t.database.executeSql(
    `select
       exists (select 1 from pgboss.job where name = any($1::text[]) and data->>'photoId' = $2
                  and state in ('created', 'retry', 'active')) as own_pending,
       exists (select 1 from pgboss.job
                where name = any($1::text[]) and data->>'photoId' = $2) as own_queued,
       exists (select 1 from pgboss.job
                where state = 'active'
                   or (state in ('created', 'retry') and start_after <= now())) as worker_busy`,
    [MAKING_JOBS, String(photoId)],
  );
  const row = rows[0] ?? {};
  return row.own_pending || !row.own_queued || row.worker_busy ? 'pending' : 'done';
};

/**
 * Polls the owner list until the photo's derivatives are made (the jobs run in-process): as long
 * as its jobs are pending, however long a loaded machine takes to encode a clip (the test's own
 * timeout is the bound), and no longer: once they have all ended and the photo is still
 * processing, nothing will make it, and the wait fails at once saying so.
 */
export const waitForReady = async (
  t: TestApp,
  authorization: string,
  eventId: number,
  photoId: number,
): Promise<Photo> => {
  const read = async () => {
    const list = await t.ok(
      endpoints.ownerPhotoList,
      { event_id: eventId, max_size: 1000, page_number: 1 },
      { authorization },
    );
    const photo = list.photos.find((p) => p.id === photoId);
    return photo && photo.status !== 'processing' ? photo : null;
  };
  for (;;) {
    const ready = await read();
    if (ready) return ready;
    // The jobs first, then the photo again: a job that ended between the two reads made it.
    if ((await makingJobs(t, photoId)) === 'done') {
      const made = await read();
      if (made) return made;
      throw new Error(`photo ${photoId} still processing, and no job is left to make it`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A real JPEG, optionally with an EXIF orientation and GPS position (to prove both are handled). */
export const makeJpeg = async (
  options: {
    width?: number;
    height?: number;
    orientation?: number;
    gps?: boolean;
    seed?: number;
  } = {},
): Promise<Buffer> => {
  const width = options.width ?? 640;
  const height = options.height ?? 480;
  const seed = options.seed ?? 0;
  const image = sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: (seed * 37) % 256, g: (seed * 91) % 256, b: 120 },
    },
  })
    // a bright corner marks the top-left of the stored pixels, so rotation is observable
    .composite([
      {
        input: {
          create: { width: 40, height: 40, channels: 3, background: { r: 255, g: 255, b: 255 } },
        },
        left: 0,
        top: 0,
      },
    ])
    .jpeg({ quality: 85 });
  const exif: Record<string, Record<string, string>> = {
    IFD0: { Make: 'TestCam', Model: 'Unit 1' },
  };
  if (options.gps)
    exif.IFD3 = {
      GPSLatitudeRef: 'N',
      GPSLatitude: '51/1 30/1 0/1',
      GPSLongitudeRef: 'W',
      GPSLongitude: '0/1 7/1 0/1',
    };
  let buffer = await image.withExif(exif).toBuffer();
  if (options.orientation)
    buffer = await sharp(buffer).withMetadata({ orientation: options.orientation }).toBuffer();
  return buffer;
};

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer): number => {
  let c = 0xffffffff;
  for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const pngChunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A tiny file whose PNG header claims width × height pixels (a decompression bomb). */
export const pixelFloodPng = (width: number, height: number): Buffer => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
};

/** The first bytes of an MP4 (ftyp box) followed by filler: enough for type detection. */
export const fakeMp4 = (): Buffer =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.alloc(12),
    Buffer.alloc(2048, 7),
  ]);

let insertedPhotos = 0;

/**
 * A ready, visible photo row that became available a minute ago, as a finished upload leaves it
 * (no files): for tests about who may see or buy photos, not about ingest.
 */
export const insertReadyPhoto = async (
  t: TestApp,
  event: { id: number; name: string },
  attendeeUid: string | null = null,
) => {
  insertedPhotos += 1;
  const uid = `r${insertedPhotos.toString().padStart(8, '0')}`;
  const folder = `events/${event.name}/photos/uid_${uid}_uid/`;
  const past = new Date(t.clock.now().getTime() - 60_000);
  const photos = t.app.container.repositories.photos;
  const { photo } = await photos.insertOrGet({
    uid,
    eventId: event.id,
    sha256: uid,
    storageKey: `${folder}original.jpg`,
    fileName: `IMG_${insertedPhotos}.jpg`,
    contentType: 'image/jpeg',
    mediaType: 'image',
    width: 64,
    height: 48,
    sizeBytes: 100,
    robotId: null,
    attendeeUid,
    status: 'ready',
    createdAt: past,
    availableAt: past,
  });
  await photos.update(photo.id, {
    derivatives: { preview: `${folder}preview.jpg`, thumbnail: `${folder}thumbnail.jpg` },
  });
  return photo;
};

/** The video engine as the app resolves it (the npm packages' ffmpeg / ffprobe). */
export const testVideoEngine = (): VideoEngine => new VideoEngine(VideoEngine.resolveTools({}));

/** A real clip made by the engine for the test (no binary fixtures). */
export const makeClip = (
  options: Partial<Parameters<VideoEngine['synthesize']>[0]> = {},
): Promise<Buffer> =>
  testVideoEngine().synthesize({
    seconds: 2,
    width: 320,
    height: 240,
    format: 'mp4',
    audio: true,
    ...options,
  });
