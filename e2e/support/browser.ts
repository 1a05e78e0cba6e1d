import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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
  readonly close: () => Promise<void>;
}

/**
 * Debian's Chromium with a fresh, throwaway profile (no cookies or storage from earlier runs).
 * `extraArgs`: more switches, e.g. a fake camera (`fakeCameraArgs` in fake-camera.ts).
 */
export const launchBrowser = async (extraArgs: readonly string[] = []): Promise<RunningBrowser> => {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...chromiumArgs, ...extraArgs],
    viewport: { width: 1280, height: 900 },
  });
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
  return {
    context,
    page,
    problems,
    consoleErrors,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
};
