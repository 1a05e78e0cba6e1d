import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RunningBrowser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught page errors and CSP violations seen so far: a journey should end with none. */
  readonly problems: string[];
  /**
   * Every error and warning the page's console showed so far (failed requests included, e.g. a
   * 401 Chromium logs as "Failed to load resource"), with its URL: journeys assert none where
   * nothing may fail (a cold load of the console).
   */
  readonly consoleErrors: string[];
  /**
   * Where the page stands, for a failed journey's message: its address, the failed answers it got
   * (4xx and 5xx, and API calls that got none, e.g. aborted by a navigation; method and path) and
   * the start of its visible text.
   */
  readonly describe: () => Promise<string>;
  readonly close: () => Promise<void>;
}

/** How much of a failed page's visible text a failure message carries. */
const PAGE_TEXT_CHARS = 600;
/** How long a failed journey waits for its page's text. */
const DESCRIBE_WAIT_MS = 5_000;

/**
 * The worker's Chromium, started by the first journey that needs one and kept for the next
 * journeys of the worker (the e2e project runs without isolation, so this module lives across
 * files): each journey gets its own context in it (`newContext`: its own cookies, storage, cache
 * and service workers, as a fresh profile has), not a browser start of its own. Playwright kills
 * it when the worker process exits. Only under Vitest: a script (`npm run screenshots`, the
 * benchmarks) would not end while a browser is open, so there each context is a browser of its own.
 */
let sharedBrowser: Promise<Browser> | undefined;

const theSharedBrowser = (): Promise<Browser> => {
  sharedBrowser ??= chromium
    .launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs })
    .then((browser) => {
      // A browser that crashed or was closed is started again by the next journey.
      browser.on('disconnected', () => (sharedBrowser = undefined));
      return browser;
    })
    .catch((error: unknown) => {
      sharedBrowser = undefined;
      throw error;
    });
  return sharedBrowser;
};

const viewport = { width: 1280, height: 900 };

/**
 * A fresh context with no cookies or storage from earlier journeys: a new context of the worker's
 * Chromium. With `extraArgs` (switches a whole browser takes, e.g. a fake camera: `fakeCameraArgs`
 * in fake-camera.ts), or outside Vitest, Debian's Chromium of its own with a throwaway profile.
 */
export const launchBrowser = async (extraArgs: readonly string[] = []): Promise<RunningBrowser> => {
  let context: BrowserContext;
  let close: () => Promise<void>;
  if (extraArgs.length === 0 && process.env.VITEST) {
    context = await (await theSharedBrowser()).newContext({ viewport });
    close = () => context.close();
  } else {
    const userDataDir = await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...chromiumArgs, ...extraArgs],
      viewport,
    });
    close = async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    };
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      consoleErrors.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    // Never a blocked script or style (the server's CSP).
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      problems.push(`CSP: ${message.text()}`);
  });
  const failedAnswers: string[] = [];
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const request = response.request();
    failedAnswers.push(
      `${response.status()} ${request.method()} ${new URL(response.url()).pathname}`,
    );
  });
  page.on('requestfailed', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/'))
      failedAnswers.push(
        `${request.failure()?.errorText ?? 'failed'} ${request.method()} ${url.pathname}`,
      );
  });
  const describe = async (): Promise<string> => {
    // A page that hangs must not turn the journey's failure into a timeout of its own.
    const text = await Promise.race([
      page.evaluate(() => document.body?.innerText ?? ''),
      new Promise<string>((resolve) =>
        setTimeout(() => resolve('(no text: the page did not answer)'), DESCRIBE_WAIT_MS).unref(),
      ),
    ]).catch((error: unknown) => `(no text: ${String(error)})`);
    return [
      `url: ${page.url()}`,
      `failed answers: ${failedAnswers.join(', ') || 'none'}`,
      `problems: ${problems.join(' | ') || 'none'}`,
      `text: ${text.replace(/\s+/g, ' ').slice(0, PAGE_TEXT_CHARS)}`,
    ].join('\n');
  };
  return { context, page, problems, consoleErrors, describe, close };
};
