import path from 'node:path';
import { describe, it } from 'vitest';
import { endpoints } from '@flashbulb/shared';
import {
  ALBUM_ADMIN,
  albumServerEnv,
  api,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { signInInBrowser } from './support/console.ts';
import { journeyResources } from './support/journey.ts';
import { repoRoot } from './support/paths.ts';

const journey = journeyResources();

describe('insight screenshots (temporary)', () => {
  it('shoots', async () => {
    const server = await journey.startServer({ env: albumServerEnv });
    const base = server.url;
    await journey.withServerLog(async () => {
      const event = await setUpAlbumEvent(base, { collect_leads: 1, full_name: 'Harbour Festival' });
      const folder = journey.keepFolder(
        await photoFolder({ 'a.jpg': '#2266aa', 'b.jpg': '#aa3355', 'c.jpg': '#33aa66' }),
      );
      await robotUpload(base, event, folder);
      await waitForPublicPhotos(base, event, 3);
      const key = { key_type: 'public' as const, key_value: event.publicKey };
      const list = await api(base, endpoints.publicPhotoList, {
        ...key,
        max_size: 10,
        display: event.displayToken,
      });
      for (const [i, agent] of ['A', 'B', 'C', 'D', 'A', 'B', 'E'].entries()) {
        await fetch(`${base}/api/v1${endpoints.insightTrack.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': `Phone ${agent}` },
          body: JSON.stringify({ ...key, kind: i < 5 ? 'view' : 'download' }),
        });
      }
      for (const photo of list.photos.slice(0, 2))
        await api(base, endpoints.insightTrack, { ...key, kind: 'download', photo_uid: photo.uid });
      const uid = list.photos[0]!.uid;
      for (const network of ['facebook', 'facebook', 'whatsapp', 'link'] as const)
        await api(base, endpoints.trackShare, { ...key, photo_uid: uid, network });
      await api(base, endpoints.leadSubmit, { ...key, full_name: 'Ana', email: 'ana@example.com' });

      const { page } = await journey.launchBrowser();
      await page.goto(base);
      await signInInBrowser(page, ALBUM_ADMIN);
      const out = path.join(repoRoot, 'docs/screenshots');
      for (const [url, name] of [
        [`/events/${event.code}/insight`, 'insight-event'],
        ['/insight', 'insight-organisation'],
      ] as const) {
        for (const [width, height] of [
          [1440, 900],
          [390, 844],
        ] as const) {
          await page.setViewportSize({ width, height });
          await page.goto(`${base}${url}`);
          await page.getByTestId('insight-dashboard').waitFor({ timeout: 30_000 });
          await page.waitForTimeout(1500);
          await page.screenshot({ path: path.join(out, `${name}-${width}x${height}.png`) });
          await page.screenshot({
            path: `/tmp/s17e-${name}-${width}-full.png`,
            fullPage: true,
          });
        }
      }
    });
  }, 300_000);
});
