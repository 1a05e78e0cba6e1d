// Find me by face in Chromium (albums §2.4): the kiosk with a fake camera showing a
// test photo — look up by face → only that person's photos → back to album — and the attendee
// album on a phone with a chosen selfie. Real face engine in the server, real Chromium.
// Screenshots (for people to look at) go to faces/ under FLASHBULB_E2E_SHOTS when it is set, at
// 1080x1920, 1440x900, 390x844.
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { endpoints } from '@flashbulb/shared';
import { albumServerEnv, api, robotUpload, setUpAlbumEvent } from './support/albums.ts';
import { fakeCameraArgs, writeY4m } from './support/fake-camera.ts';
import { journeyResources, lookShot, photoNames } from './support/journey.ts';
import { repoRoot } from './support/paths.ts';

const JOURNEY_TIMEOUT = 420_000;
const journey = journeyResources();
const WAIT = { timeout: 60_000 };
const FACES = [
  process.env.FLASHBULB_FACES_TESTDATA,
  path.resolve(repoRoot, '../shared/testdata/faces'),
].find((dir): dir is string => !!dir && existsSync(path.join(dir, 'people')));
const facePhoto = (relative: string) => path.join(FACES!, relative);

const TEXT = 'We compare your selfie with the faces in the photos of this event, then delete it.';
/** Event photos → whether Obama is in them (testdata/faces/README.md). */
const EVENT_PHOTOS: Record<string, [string, boolean]> = {
  'obama.jpg': ['people/obama/obama.jpg', true],
  'obama-and-biden.jpg': ['groups/obama_and_biden.jpg', true],
  'biden.jpg': ['people/biden/biden.jpg', false],
  'kit-with-rose.jpg': ['groups/kit_with_rose.jpg', false],
  'bbt3.jpg': ['groups/bbt3.jpg', false],
};
/** The camera and the phone show a photo of Obama that is not an event photo. */
const SELFIE = 'people/obama/obama2.jpg';

const world = async () => {
  const { url } = await journey.startServer({ env: albumServerEnv });
  const event = await setUpAlbumEvent(url, {
    enable_facial_recognition: 1,
  });
  const folder = journey.keepFolder(await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-faces-')));
  for (const [name, [file]] of Object.entries(EVENT_PHOTOS))
    await writeFile(path.join(folder, name), await sharp(facePhoto(file)).jpeg().toBuffer());
  await robotUpload(url, event, folder);
  const { events } = await api(url, endpoints.eventBasicList, {}, event.token);
  const eventId = events.find((e) => e.name === event.code)!.id;
  // The consent text guests accept.
  const [full] = await api(url, endpoints.eventFullData, { event_name: event.code }, event.token);
  await api(
    url,
    endpoints.updateEvent,
    {
      id: eventId,
      event_last_updated_date: full!.updated_date,
      opts: { ...full!.opts, faceRecognitionText: TEXT },
    },
    event.token,
  );
  // Every photo ready and its faces indexed (a job after ready; the models load first).
  const deadline = Date.now() + 240_000;
  for (;;) {
    const info = await api(url, endpoints.faceDataInfo, { event_id: eventId }, event.token);
    if (info.indexed_photos === Object.keys(EVENT_PHOTOS).length) break;
    if (Date.now() > deadline) throw new Error(`faces never indexed: ${JSON.stringify(info)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const { attendees } = await api(
    url,
    endpoints.generateAttendeeList,
    { attendee_count: 1, event_id_array: [eventId] },
    event.token,
  );
  return { url, event, eventId, attendee: attendees[0]! };
};

const actions = (page: Page) => page.locator('[data-kiosk-actions] button');

const shot = (page: Page, name: string) => lookShot(page, `faces/${name}.png`);

describe('Find me by face in Chromium (fake camera)', () => {
  it(
    "kiosk: look up by face → only that person's photos → back to album; a phone finds its own album's photos",
    async () => {
      if (!FACES) throw new Error('testdata/faces not found beside the checkout (../shared)');
      await journey.withServerLog(async () => {
        const { url, event, eventId, attendee } = await world();
        const y4m = await writeY4m(
          await sharp(facePhoto(SELFIE)).toBuffer(),
          path.join(
            journey.keepFolder(await mkdtemp(path.join(tmpdir(), 'flashbulb-y4m-'))),
            'selfie.y4m',
          ),
        );
        const { page, problems } = await journey.launchBrowser(fakeCameraArgs(y4m));
        await page.setViewportSize({ width: 1080, height: 1920 });
        await page.goto(
          `${url}/?kType=evSB1&pvId=${event.privateKey}&display=${encodeURIComponent(event.displayToken)}&attId=${attendee.uid}`,
        );
        await expect.poll(() => photoNames(page), WAIT).toEqual(Object.keys(EVENT_PHOTOS).sort());
        // The actions area holds exactly one of the two buttons.
        await expect
          .poll(() => actions(page).allTextContents(), WAIT)
          .toEqual(['Look up my images by face']);
        await actions(page).click();
        // The face lookup loads on first use: the button swaps once it is there.
        await expect.poll(() => actions(page).allTextContents()).toEqual(['< Back to album']);
        await page.getByText(TEXT).waitFor(WAIT);
        await shot(page, 'kiosk-consent-1080x1920');
        await page.getByRole('button', { name: 'I agree — take a selfie' }).click();
        // The preview plays the camera's stream once its metadata is in.
        const video = page.locator('video.face-camera-video');
        await expect
          .poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth > 0 && !v.paused), WAIT)
          .toBe(true);
        const shoot = page.getByRole('button', { name: 'Take my photo' });
        await expect.poll(() => shoot.isEnabled(), WAIT).toBe(true);
        await shoot.click();
        await page.locator('[data-countdown="3"]').waitFor(WAIT);
        await shot(page, 'kiosk-countdown-1080x1920');
        await page.locator('[data-countdown="1"]').waitFor(WAIT);
        await page.locator('[data-face-results]').waitFor(WAIT);
        const obama = Object.entries(EVENT_PHOTOS)
          .filter(([, [, hasObama]]) => hasObama)
          .map(([name]) => name)
          .sort();
        await expect.poll(() => photoNames(page), WAIT).toEqual(obama);
        expect(await page.locator('[data-face-results]').getAttribute('data-face-results')).toBe(
          String(obama.length),
        );
        // The camera is off once the picture is taken.
        expect(await page.locator('video').count()).toBe(0);
        await shot(page, 'kiosk-results-1080x1920');
        await page.setViewportSize({ width: 1440, height: 900 });
        await shot(page, 'kiosk-results-1440x900');
        // Back to album restores every photo, and the button.
        await actions(page).click();
        await expect.poll(() => photoNames(page), WAIT).toEqual(Object.keys(EVENT_PHOTOS).sort());
        expect(await actions(page).allTextContents()).toEqual(['Look up my images by face']);

        // A phone: the attendee's album holds one photo of Obama and Biden's photo.
        const list = await api(url, endpoints.publicPhotoList, {
          key_type: 'event_owner',
          key_value: event.ownerKey,
          max_size: 100,
        });
        const uid = (name: string) => list.photos.find((p) => p.file_name === name)!.uid;
        await api(
          url,
          endpoints.ownerAttachPhotos,
          {
            event_id: eventId,
            attendee_uid: attendee.uid,
            photo_uid_array: [uid('obama.jpg'), uid('biden.jpg')],
          },
          event.token,
        );
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${url}/?attId=${attendee.uid}`);
        await expect.poll(() => photoNames(page), WAIT).toEqual(['biden.jpg', 'obama.jpg']);
        await page.getByRole('button', { name: 'Find me' }).click();
        await page.getByText(TEXT).waitFor(WAIT);
        await shot(page, 'phone-consent-390x844');
        await page.getByRole('button', { name: 'I agree — take a selfie' }).click();
        await shot(page, 'phone-choose-390x844');
        await page.getByLabel('Choose a photo').setInputFiles(facePhoto(SELFIE));
        await page.locator('[data-face-results]').waitFor(WAIT);
        // The whole event is searched: the photo in the album, and the group photo outside it,
        // which the attendee can add to their album in one step.
        const found = () =>
          page
            .locator('.face-results [data-photo-name]')
            .evaluateAll((els) => els.map((el) => el.getAttribute('data-photo-name')).sort());
        await expect.poll(found, WAIT).toEqual(['obama-and-biden.jpg', 'obama.jpg']);
        await shot(page, 'phone-results-390x844');
        await page.getByRole('button', { name: 'Add 1 photo to my album' }).click();
        await page.getByText('Added to your album.', { exact: true }).waitFor(WAIT);
        await page.reload();
        await expect
          .poll(() => photoNames(page), WAIT)
          .toEqual(['biden.jpg', 'obama-and-biden.jpg', 'obama.jpg']);
        expect(problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
