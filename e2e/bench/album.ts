/**
 * bench:album — how the public album page behaves in Chromium at 10,000 and 100,000 photos.
 *
 * The server runs in this process (so photo rows can be seeded straight into its database), serves
 * the built web app, and Chromium (Playwright) opens `/?pId=<public key>`. Three real photos go
 * through the robot path first; the seeded rows reuse their derivatives, so every thumbnail the
 * page asks for is a real stored file.
 *
 * Measured per size: LCP (PerformanceObserver), the longest main-thread task while scrolling from
 * top to bottom a viewport at a time (long-task observer), the most <img> elements in the DOM at
 * once, the JS the album page loads vs the JS of the console, and whether the last photo's tile
 * appears at the end of the scroll.
 *
 * Then, once, at the largest size: the album's first load on a throttled mid-range
 * phone (the performance target's profile: 390×844 at device pixel ratio 2, CPU 4× slower, 150 ms round trip,
 * 1.6 Mbit/s down, cache off) — compressed JS and image bytes on the wire (the server sends the
 * build's .br files) and LCP (target ≤ 1.5 s) —; and
 * the slide show's memory: JS heap and DOM nodes after a forced GC at the start and after
 * `--slideshow-minutes` (default 5; the figure is 30: `--slideshow-minutes 30`).
 *
 *   npm run bench:album                 10,000 and 100,000
 *   npm run bench:album -- --sizes 10000
 *   npm run bench:album -- --sizes 10000 --slideshow-minutes 30
 *   npm run bench:album -- --sizes 10000 --only phone        the phone first load alone
 *   npm run bench:slideshow -- --slideshow-minutes 30        the slide show alone (1,000 photos),
 *                                                           heap and DOM nodes every minute
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { launchBrowser } from '../support/browser.ts';
import { repoRoot, webDist } from '../support/paths.ts';
import { freePort } from '../support/server.ts';
import {
  ALBUM_ADMIN,
  albumServerEnv,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from '../support/albums.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    'slideshow-minutes': { type: 'string', default: '5' },
    /** Print when each request of the phone load ended. */
    verbose: { type: 'boolean', default: false },
    /** Which parts run: grid (per size), phone (first load), slideshow (memory). */
    only: { type: 'string', default: 'grid,phone,slideshow' },
  },
});
const sizes = values.sizes
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0);

interface Row {
  photos: number;
  seedMs: number;
  lcpMs: number;
  firstTileMs: number;
  longestTaskMs: number;
  longTasks: number;
  maxImages: number;
  scrollSteps: number;
  scrollMs: number;
  lastReachable: boolean;
  albumJsKb: number;
}

const parts = new Set(values.only.split(',').map((s) => s.trim()));
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
const slideshowMinutes = Math.max(0, Number(values['slideshow-minutes']) || 0);

/**
 * A mid-range phone on a weak network (the performance target's): 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
 * up; with a 4× slower CPU and a screen at device pixel ratio 2 (its own browser context).
 */
const PHONE_NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1000 * 1000) / 8,
  uploadThroughput: (750 * 1000) / 8,
};
const CPU_SLOWDOWN = 4;

interface PhoneRow {
  photos: number;
  compressedJs: number;
  scripts: number;
  lcpMs: number;
  lcpElement: string;
  /** Image bytes on the wire until a second after the first tile loaded. */
  imageBytes: number;
  images: number;
  /** Cumulative layout shift until a second after the first tile loaded. */
  cls: number;
  timeline: string[];
}

/** The album's cold first load on the throttled phone profile: wire bytes of JS, and LCP. */
const phoneFirstLoad = async (
  context: import('playwright-core').BrowserContext,
  url: string,
): Promise<Omit<PhoneRow, 'photos'>> => {
  const browser = context.browser();
  if (!browser) throw new Error('no browser');
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = await phone.newPage();
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  await page.addInitScript(installObservers);
  const cdp = await phone.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', PHONE_NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  // Bytes as they crossed the network (compressed), per script.
  const wire = new Map<string, number>();
  const imageWire = new Map<string, number>();
  const scripts = new Set<string>();
  const imageRequests = new Set<string>();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.add(event.requestId);
    if (event.type === 'Image') imageRequests.add(event.requestId);
  });
  cdp.on('Network.loadingFinished', (event) => {
    if (scripts.has(event.requestId)) wire.set(event.requestId, event.encodedDataLength);
    if (imageRequests.has(event.requestId)) imageWire.set(event.requestId, event.encodedDataLength);
  });
  await page.goto(url);
  await page.waitForFunction(
    () => {
      // The running page's tile (a button), not the server's first paint of it.
      const img = document.querySelector<HTMLImageElement>('button.albums-tile-open img');
      return Boolean(img?.complete && img.naturalWidth > 0);
    },
    undefined,
    { timeout: 120_000 },
  );
  await page.waitForTimeout(1000);
  const { lcpMs, lcpElement, cls } = await page.evaluate(() => {
    const { bench } = window as unknown as {
      bench: { lcp: number; lcpElement: string; cls: number };
    };
    return { lcpMs: bench.lcp, lcpElement: bench.lcpElement, cls: bench.cls };
  });
  // When each request of the load ended (ms after navigation), to see what LCP waited for.
  const timeline = await page.evaluate(() => [
    // The page itself: when its first byte came (the server's time to write it) and its end.
    ...performance
      .getEntriesByType('navigation')
      .map((e) => e as PerformanceNavigationTiming)
      .map(
        (e) =>
          `${Math.round(e.responseStart)} ms first byte of the page, ${Math.round(e.responseEnd)} ms its end`,
      ),
    ...performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .map(
        (e) =>
          `${Math.round(e.responseEnd)} ms ${e.name.replace(/\?.*$/, '').split('/').slice(-2).join('/')}`,
      ),
  ]);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const imageBytes = [...imageWire.values()].reduce((a, b) => a + b, 0);
  const images = imageWire.size;
  await page.close();
  await phone.close();
  return {
    compressedJs: [...wire.values()].reduce((a, b) => a + b, 0),
    scripts: wire.size,
    imageBytes,
    images,
    lcpMs,
    lcpElement,
    cls,
    timeline,
  };
};

interface MemoryRow {
  minutes: number;
  slides: number;
  /** Heap (MB, after GC) and DOM nodes at each whole minute. */
  samples: { minute: number; heapMb: number; nodes: number }[];
  heapStartMb: number;
  heapEndMb: number;
  nodesStart: number;
  nodesEnd: number;
}

/** The slide show for `minutes`: JS heap and DOM nodes after a forced GC, at the start and end. */
const slideShowMemory = async (
  context: import('playwright-core').BrowserContext,
  url: string,
  minutes: number,
): Promise<MemoryRow> => {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1920, height: 1080 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    return { heap: metric('JSHeapUsedSize') / 1_048_576, nodes: metric('Nodes') };
  };
  await page.goto(url);
  await page.locator('img[data-photo-id]').waitFor();
  await page.waitForTimeout(5000);
  const start = await sample();
  const seen = new Set<string>();
  const deadline = Date.now() + minutes * 60_000;
  let slides = 0;
  let last = '';
  const samples: MemoryRow['samples'] = [];
  let nextSample = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (Date.now() >= nextSample) {
      const now = await sample();
      samples.push({ minute: samples.length + 1, heapMb: now.heap, nodes: now.nodes });
      console.log(
        `slide show minute ${samples.length}: ${slides} slides, heap ${now.heap.toFixed(1)} MB, ${now.nodes} DOM nodes`,
      );
      nextSample += 60_000;
    }
    const id = await page
      .locator('img[data-photo-id]')
      .getAttribute('data-photo-id')
      .catch(() => null);
    if (id && id !== last) {
      slides += 1;
      seen.add(id);
      last = id;
    }
    await page.waitForTimeout(1000);
  }
  const end = await sample();
  await page.close();
  return {
    minutes,
    slides,
    samples,
    heapStartMb: start.heap,
    heapEndMb: end.heap,
    nodesStart: start.nodes,
    nodesEnd: end.nodes,
  };
};

/** Observers installed before any page script runs. */
const installObservers = () => {
  const w = window as unknown as {
    bench: { lcp: number; lcpElement: string; tasks: number[]; cls: number };
  };
  w.bench = { lcp: 0, lcpElement: '', tasks: [], cls: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.startTime < w.bench.lcp) continue;
      w.bench.lcp = entry.startTime;
      // Which element it was: tag, class and (for images) the file, to see what LCP waits for.
      const lcp = entry as PerformanceEntry & {
        element: Element | null;
        url: string;
        size: number;
      };
      const el = lcp.element;
      w.bench.lcpElement = `${el?.tagName.toLowerCase() ?? '?'}.${el?.className ?? ''} ${lcp.url ? lcp.url.replace(/\?.*$/, '').split('/').slice(-2).join('/') : 'text'} (${lcp.size} px²)`;
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.bench.tasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  // Cumulative layout shift of the load (shifts right after input do not count).
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const shift = entry as PerformanceEntry & { value: number; hadRecentInput: boolean };
      if (!shift.hadRecentInput) w.bench.cls += shift.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

/** Sum of the JS bodies a page loads while `run` goes. */
const scriptBytes = async (page: Page, run: () => Promise<void>) => {
  const sizes = new Map<string, number>();
  const onResponse = (response: import('playwright-core').Response) => {
    if (response.request().resourceType() !== 'script') return;
    void response.body().then(
      (body) => sizes.set(response.url(), body.length),
      () => undefined,
    );
  };
  page.on('response', onResponse);
  await run();
  await page.waitForTimeout(500);
  page.off('response', onResponse);
  return { bytes: [...sizes.values()].reduce((a, b) => a + b, 0), urls: [...sizes.keys()] };
};

const main = async () => {
  execFileSync('npm', ['run', 'build', '-w', '@flashbulb/web'], {
    cwd: repoRoot,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'flashbulb-bench-album-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await buildApp(
    loadConfig({
      ...albumServerEnv,
      FLASHBULB_DATA_DIR: dataDir,
      FLASHBULB_PUBLIC_URL: base,
      FLASHBULB_WEB_DIST: webDist,
      FLASHBULB_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijkl',
      LOG_LEVEL: 'error',
    }),
  );
  await app.listen({ port, host: '127.0.0.1' });
  // main.ts creates the first administrator from the environment; in process we do it here.
  await app.container.services.firstAdmin.createFirstAdmin(
    { email: ALBUM_ADMIN.email, password: ALBUM_ADMIN.password },
    { local: true },
  );
  const browser = await launchBrowser();
  const rows: Row[] = [];
  let consoleJs = 0;
  let phone: PhoneRow | null = null;
  let memory: MemoryRow | null = null;
  try {
    const event = await setUpAlbumEvent(base);
    const folder = await photoFolder({
      'a.jpg': '#aa3333',
      'b.jpg': '#33aa33',
      'c.jpg': '#3333aa',
    });
    await robotUpload(base, event, folder);
    await rm(folder, { recursive: true, force: true });
    await waitForPublicPhotos(base, event, 3);
    const db = app.container.database;

    // The console's JS: the sign-in page, plus the console chunks loaded after signing in.
    const signIn = await browser.context.newPage();
    const consoleLoad = await scriptBytes(signIn, async () => {
      await signIn.goto(`${base}/`);
      await signIn.getByLabel('E-mail').waitFor();
    });
    await signIn.close();
    const assets = await readdir(path.join(webDist, 'assets'));
    let consoleOnly = 0;
    for (const name of assets.filter((n) => /^(console-app|console-album-page)-.*\.js$/.test(n)))
      consoleOnly += (await stat(path.join(webDist, 'assets', name))).size;
    consoleJs = consoleLoad.bytes + consoleOnly;

    let seeded = 3;
    for (const size of sizes) {
      if (size <= seeded) continue;
      const seedStarted = performance.now();
      await db.executeSql(
        `insert into photos (uid, event_id, sha256, storage_key, file_name, content_type, media_type,
           width, height, size_bytes, status, derivatives, is_visible, created_at, available_at)
         select 'seed' || g, r.event_id, md5('seed' || g), r.storage_key, 'IMG_' || lpad(g::text, 6, '0') || '.jpg',
           'image/jpeg', 'image', r.width, r.height, r.size_bytes, 'ready', r.derivatives, 1,
           now() - interval '1 day' - (g || ' seconds')::interval,
           now() - interval '1 day' - (g || ' seconds')::interval
         from generate_series($1::int, $2::int) g
         join (select row_number() over (order by id) - 1 as k, * from photos where uid not like 'seed%') r
           on r.k = g % 3`,
        [seeded + 1, size],
      );
      await db.executeSql('analyze photos');
      const seedMs = performance.now() - seedStarted;
      seeded = size;
      if (!parts.has('grid')) continue;

      const page = await browser.context.newPage();
      // tsx keeps function names with a `__name` helper that functions sent to the page call.
      await page.addInitScript('globalThis.__name = (fn) => fn;');
      await page.addInitScript(installObservers);
      const started = Date.now();
      let firstTileMs = 0;
      const load = await scriptBytes(page, async () => {
        await page.goto(`${base}/?pId=${encodeURIComponent(event.publicKey)}`);
        await page.waitForFunction(() => {
          // The running page's tile (a button), not the server's first paint of it.
          const img = document.querySelector<HTMLImageElement>('button.albums-tile-open img');
          return Boolean(img?.complete && img.naturalWidth > 0);
        });
        firstTileMs = Date.now() - started;
      });
      await page.waitForTimeout(300);
      const lcpMs = await page.evaluate(
        () => (window as unknown as { bench: { lcp: number } }).bench.lcp,
      );
      await page.evaluate(() => {
        (window as unknown as { bench: { tasks: number[] } }).bench.tasks = [];
      });
      const count = await page.evaluate(() => {
        const text = document.querySelector('.albums-count')?.textContent ?? '';
        return Number(text.replace(/[^\d]/g, ''));
      });

      // Scroll end to end, a viewport per frame pair, counting images in the DOM.
      const scrollStarted = performance.now();
      const scroll = await page.evaluate(async () => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        let maxImages = 0;
        let steps = 0;
        for (;;) {
          const before = window.scrollY;
          window.scrollBy(0, window.innerHeight);
          await frame();
          await frame();
          steps += 1;
          maxImages = Math.max(maxImages, document.images.length);
          const atEnd =
            window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
          if (atEnd && window.scrollY === before) break;
        }
        return { maxImages, steps };
      });
      const lastReachable = await page
        .waitForSelector(`[data-photo-index="${count - 1}"][data-photo-id]`, { timeout: 30_000 })
        .then(
          () => true,
          () => false,
        );
      const scrollMs = performance.now() - scrollStarted;
      const tasks = await page.evaluate(
        () => (window as unknown as { bench: { tasks: number[] } }).bench.tasks,
      );
      await page.close();
      rows.push({
        photos: count,
        seedMs,
        lcpMs,
        firstTileMs,
        longestTaskMs: tasks.length ? Math.max(...tasks) : 0,
        longTasks: tasks.length,
        maxImages: scroll.maxImages,
        scrollSteps: scroll.steps,
        scrollMs,
        lastReachable,
        albumJsKb: kb(load.bytes),
      });
      console.log(`measured ${count} photos`);
    }
    const albumUrl = `${base}/?pId=${encodeURIComponent(event.publicKey)}`;
    if (parts.has('phone')) {
      phone = { photos: seeded, ...(await phoneFirstLoad(browser.context, albumUrl)) };
      console.log('measured the phone profile');
    }
    if (parts.has('slideshow') && slideshowMinutes > 0) {
      memory = await slideShowMemory(
        browser.context,
        `${albumUrl}&mode=slideshow`,
        slideshowMinutes,
      );
      console.log('measured the slide show');
    }
  } finally {
    await browser.close();
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }

  console.log(
    `\nbench:album — Chromium ${browser.context.browser()?.version() ?? ''}, ${cpus().length} cores, viewport 1280×900, embedded PostgreSQL (PGlite)\n`,
  );
  if (rows.length > 0)
    console.table(
      rows.map((r) => ({
        photos: r.photos,
        'seed (s)': Math.round(r.seedMs / 100) / 10,
        'LCP (ms)': Math.round(r.lcpMs),
        'first tile (ms)': r.firstTileMs,
        'longest task while scrolling (ms)': Math.round(r.longestTaskMs),
        'long tasks': r.longTasks,
        'max <img> in DOM': r.maxImages,
        'scroll steps': r.scrollSteps,
        'scroll end to end (s)': Math.round(r.scrollMs / 100) / 10,
        'last photo reached': r.lastReachable,
        'album JS (KB)': r.albumJsKb,
        'console JS (KB)': kb(consoleJs),
      })),
    );
  if (phone)
    console.log(
      `\nAlbum first load, phone profile (390×844 at DPR 2, CPU ${CPU_SLOWDOWN}× slower, 150 ms RTT, 1.6 Mbit/s, cold cache), ${phone.photos} photos: ` +
        `${kb(phone.compressedJs)} KB compressed JS in ${phone.scripts} scripts (budget 150 KB), ` +
        `${kb(phone.imageBytes)} KB of images in ${phone.images} requests, ` +
        `LCP ${Math.round(phone.lcpMs)} ms (target 1500 ms): ${phone.lcpElement}; CLS ${phone.cls.toFixed(3)}`,
    );
  if (phone && values.verbose) console.log(phone.timeline.join('\n'));
  if (memory)
    console.log(
      `Slide show, ${memory.minutes} min at 1920×1080 (${memory.slides} slides): JS heap after GC ` +
        `${memory.heapStartMb.toFixed(1)} → ${memory.heapEndMb.toFixed(1)} MB, DOM nodes ` +
        `${memory.nodesStart} → ${memory.nodesEnd}`,
    );
};

await main();
