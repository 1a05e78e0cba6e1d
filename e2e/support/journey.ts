import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type RunningBrowser } from './browser.ts';
import { startServer, type RunningServer, type StartOptions } from './server.ts';

/**
 * What a journey starts — the server, Chromium, photo folders, other peers (an SMTP server) — is
 * closed after each test, whatever happened; a server shared by the file (`fileServer`) after the
 * file's last test. Failures carry the page's state and the server's output.
 */
export const journeyResources = () => {
  let server: RunningServer | undefined;
  let shared: Promise<RunningServer> | undefined;
  let browser: RunningBrowser | undefined;
  const folders: string[] = [];
  const closers: (() => Promise<void>)[] = [];

  afterEach(async () => {
    await browser?.close();
    await server?.stop();
    for (const close of closers.splice(0)) await close();
    await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
    browser = undefined;
    server = undefined;
  });

  afterAll(async () => {
    const started = await shared?.catch(() => undefined);
    shared = undefined;
    await started?.stop();
  });

  return {
    async startServer(options: StartOptions = {}): Promise<RunningServer> {
      server = await startServer(options);
      return server;
    },
    /**
     * One server for the whole file (a server start is seconds of a journey): started by the
     * first call (with its options), the same server for later calls, stopped after the file's
     * last test. The journeys sharing it make their own organisation and event.
     */
    async fileServer(options: StartOptions = {}): Promise<RunningServer> {
      shared ??= startServer(options);
      return shared;
    },
    async launchBrowser(extraArgs: readonly string[] = []): Promise<RunningBrowser> {
      browser = await launchBrowser(extraArgs);
      return browser;
    },
    /** A folder to delete after the test. */
    keepFolder(folder: string): string {
      folders.push(folder);
      return folder;
    },
    /** Anything else to close after the test (closed before the folders go). */
    onClose(close: () => Promise<void>): void {
      closers.push(close);
    },
    /** Runs `run` with failures explained (`withFailureContext`); `own` is a server the file started itself. */
    async withServerLog(run: () => Promise<void>, own?: RunningServer): Promise<void> {
      await withFailureContext(run, async () => ({
        server: own ?? server ?? (await shared?.catch(() => undefined)),
        browser,
      }));
    },
  };
};

interface FailureContext {
  readonly server?: RunningServer | undefined;
  readonly browser?: RunningBrowser | undefined;
}

/**
 * Runs a journey's steps; a failure's message (and the stack reports print) then carries the
 * page's state (`RunningBrowser.describe`) and the server's output, each in a marked block that
 * scripts/ci-failures.mjs reads.
 */
export const withFailureContext = async (
  run: () => Promise<void>,
  /** What the journey runs on, read when it failed. */
  context: () => FailureContext | Promise<FailureContext>,
): Promise<void> => {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const { server, browser } = await context();
    const page = (await browser?.describe()) ?? 'no browser';
    const output = server?.output() ?? '';
    const before = error.message;
    error.message += `\n--- page ---\n${page}\n--- server output ---\n${output}\n--- end of server output ---`;
    // The stack was written with the old message, and reports (Vitest's JSON) print it.
    if (error.stack?.includes(before))
      error.stack = error.stack.replace(before, () => error.message);
    throw error;
  }
};

/** The file names of the photo tiles on an album page, sorted (tiles carry `data-photo-name`). */
export const photoNames = (page: Page): Promise<string[]> =>
  page
    .locator('[data-photo-name]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-photo-name') ?? '').sort());

/** The sizes guest pages are looked at in: a phone, a laptop, a portrait kiosk. */
export const GUEST_SIZES = [
  [390, 844],
  [1440, 900],
  [1080, 1920],
] as const;

/**
 * Screenshots for people to look at, never compared, are opt-in: written only when
 * FLASHBULB_E2E_SHOTS names a folder, so `npm test` spends no time on them and writes no files.
 */
export const lookShotsDir = (): string | undefined => process.env.FLASHBULB_E2E_SHOTS || undefined;

/** A screenshot to look at (see `lookShotsDir`), as `file` (e.g. `kiosk/entry-1080x1920.png`). */
export const lookShot = async (page: Page, file: string): Promise<void> => {
  const dir = lookShotsDir();
  if (!dir) return;
  const target = path.join(dir, file);
  await mkdir(path.dirname(target), { recursive: true });
  await page.screenshot({ path: target });
};

/**
 * The page at each size in turn, with a screenshot at each as `<name>-<width>x<height>.png` in
 * `folder` when there is one (`lookShotsDir()` for screenshots to look at).
 */
export const screenshotSizes = async (
  page: Page,
  folder: string | undefined,
  name: string,
  sizes: readonly (readonly [number, number])[] = GUEST_SIZES,
): Promise<void> => {
  if (folder) await mkdir(folder, { recursive: true });
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    if (folder)
      await page.screenshot({ path: path.join(folder, `${name}-${width}x${height}.png`) });
  }
};
