import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ALBUM_ADMIN, albumServerEnv } from './support/albums.ts';
import { signInInBrowser } from './support/console.ts';
import { decodeQrPng, otpauthSecret } from './support/qr.ts';
import { journeyResources } from './support/journey.ts';
import { totpForStep, totpStep } from './totp.ts';

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'violet-harbour-lantern-42';
// The e2e project's budget (60 s ran out on a loaded machine).
const JOURNEY_TIMEOUT = 120_000;

const journey = journeyResources();

/** Scan the set-up QR code as a phone would; returns the secret and the step whose code was used. */
const completeMfaSetup = async (page: Page) => {
  const setup = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
  const qr = setup.getByTestId('mfa-qr');
  await qr.waitFor();
  const uri = decodeQrPng(await qr.screenshot());
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  const secret = otpauthSecret(uri);
  expect((await setup.getByTestId('mfa-secret').textContent())?.replace(/\s/g, '')).toBe(secret);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);

  const step = totpStep();
  await setup.getByLabel('Code').fill(totpForStep(secret, step));
  await setup.getByLabel('Code').press('Enter');
  // The recovery codes, shown once, before sign-in goes on.
  const codes = setup.getByTestId('recovery-code');
  await codes.first().waitFor();
  const recoveryCodes = await codes.allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await setup.getByRole('button', { name: 'I have saved them — continue' }).click();
  return { secret, step, recoveryCodes };
};

const signIn = async (page: Page, email: string, password: string) => {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
};

describe('sign-in journeys in Chromium', () => {
  it(
    'the first administrator sets up two-factor, signs out, and signs in again with a code',
    async () => {
      const server = await journey.startServer({
        env: { FLASHBULB_ADMIN_EMAIL: ADMIN_EMAIL, FLASHBULB_ADMIN_PASSWORD: ADMIN_PASSWORD },
      });
      const browser = await journey.launchBrowser();
      const { page } = browser;
      const { url } = server;

      await journey.withServerLog(async () => {
        await page.goto(url);
        // A cold load of the console, signed out: not one error or warning in the console (no
        // refresh is asked for without a session, so no 401).
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(browser.consoleErrors).toEqual([]);
        await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);

        // Set-up: scan the QR code as a phone would and answer with the authenticator's code.
        const { secret, step: setupStep, recoveryCodes } = await completeMfaSetup(page);

        await expect.poll(() => page.getByTestId('header-email').textContent()).toBe(ADMIN_EMAIL);
        await expect.poll(() => page.getByTestId('my-info-role').textContent()).toBe('Super user');
        expect(await page.evaluate(() => localStorage.getItem('role'))).toBe('1');

        // A reload keeps the session (refresh cookie), without the token ever touching storage,
        // and without an error in the console (no call goes out before the session is known).
        const beforeReload = browser.consoleErrors.length;
        await page.reload();
        await expect.poll(() => page.getByTestId('header-email').textContent()).toBe(ADMIN_EMAIL);
        await page.waitForLoadState('networkidle');
        expect(browser.consoleErrors.slice(beforeReload)).toEqual([]);
        const stored = await page.evaluate(() =>
          JSON.stringify({ ...localStorage, ...sessionStorage }),
        );
        expect(stored).not.toMatch(/eyJ|token/i);

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/');
        // Signed out for real: a reload finds no session to restore, and asks for none.
        const beforeSignedOutReload = browser.consoleErrors.length;
        await page.reload();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(browser.consoleErrors.slice(beforeSignedOutReload)).toEqual([]);

        // Sign in again: now the code modal, which survives a wrong code.
        await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
        const codeModal = page.getByRole('dialog', { name: 'Two-factor authentication' });
        await codeModal.getByLabel('Code').waitFor();

        const now = totpStep();
        const validNow = new Set([now - 1, now, now + 1].map((step) => totpForStep(secret, step)));
        let wrong = totpForStep(secret, now);
        while (validNow.has(wrong))
          wrong = String((Number(wrong) + 1) % 1_000_000).padStart(6, '0');
        await codeModal.getByLabel('Code').fill(wrong);
        await codeModal.getByLabel('Code').press('Enter');
        await codeModal.getByText('The code is not correct. Please try again').waitFor();

        // Each code is accepted once: the set-up spent `setupStep`, so take the next step's code
        // if the clock has not moved on (the server accepts ±1 step).
        const step = Math.max(totpStep(), setupStep + 1);
        await codeModal.getByLabel('Code').fill(totpForStep(secret, step));
        await codeModal.getByLabel('Code').press('Enter');

        await expect.poll(() => page.getByTestId('header-email').textContent()).toBe(ADMIN_EMAIL);
        await expect
          .poll(() => page.getByTestId('recovery-codes-remaining').textContent())
          .toBe('10 of 10 left');

        // The phone is lost: a recovery code signs in once, typed as it was written down.
        await page.getByRole('button', { name: 'Sign out' }).click();
        await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
        await codeModal
          .getByRole('button', { name: 'Lost your phone? Use a recovery code' })
          .click();
        await codeModal.getByLabel('Recovery code').fill(recoveryCodes[0]!.toUpperCase());
        await codeModal.getByLabel('Recovery code').press('Enter');
        await expect.poll(() => page.getByTestId('header-email').textContent()).toBe(ADMIN_EMAIL);
        await expect
          .poll(() => page.getByTestId('recovery-codes-remaining').textContent())
          .toBe('9 of 10 left');
        // The same code a second time is refused.
        await page.getByRole('button', { name: 'Sign out' }).click();
        await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
        await codeModal
          .getByRole('button', { name: 'Lost your phone? Use a recovery code' })
          .click();
        await codeModal.getByLabel('Recovery code').fill(recoveryCodes[0]!);
        await codeModal.getByLabel('Recovery code').press('Enter');
        await codeModal.getByText('This recovery code is wrong or was already used').waitFor();
        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'an event owner replaces the temporary password, then sets up two-factor',
    async () => {
      const owner = 'owner@example.com';
      const server = await journey.startServer({
        prepare: async (cli) => {
          await cli('organisation', 'create', '--name', 'Acme Events');
          await cli(
            'user',
            'create',
            '--email',
            owner,
            '--role',
            'owner',
            '--organisation',
            'Acme Events',
            '--temporary-password',
            'temporary-kiwi-77',
          );
        },
      });
      const browser = await journey.launchBrowser();
      const { page } = browser;

      await journey.withServerLog(async () => {
        await page.goto(server.url);
        await signIn(page, owner, 'temporary-kiwi-77');

        await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
        await page.getByLabel('New password', { exact: true }).fill('password');
        await page.getByLabel('Confirm password').fill('password');
        await page.getByLabel('Confirm password').press('Enter');
        // The shared rules refuse a common password before anything is sent.
        await page
          .getByText('Choose a password of at least 8 characters that is not a common password')
          .waitFor();
        await page.getByLabel('New password', { exact: true }).fill(ADMIN_PASSWORD);
        await page.getByLabel('Confirm password').fill(ADMIN_PASSWORD);
        await page.getByLabel('Confirm password').press('Enter');

        await completeMfaSetup(page);
        await expect.poll(() => page.getByTestId('header-email').textContent()).toBe(owner);
        await expect.poll(() => page.getByTestId('my-info-role').textContent()).toBe('Event owner');
        expect(await page.getByTestId('my-info-organisation').textContent()).toBe('Acme Events');
        expect(await page.evaluate(() => localStorage.getItem('role'))).toBe('3');
        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'a console load whose my-info gets no answer ends no session: the next load is signed in',
    async () => {
      const server = await journey.startServer({ env: albumServerEnv });
      const browser = await journey.launchBrowser();
      const { page } = browser;
      const myInfo = '**/user/my-info/retrieve';

      await journey.withServerLog(async () => {
        await page.goto(server.url);
        await signInInBrowser(page, ALBUM_ADMIN);
        // The load's my-info gets no answer: the network dropped, or the user left the page while
        // it loaded (the browser cancels its calls, and the page opened next restores the same
        // session). This page signs out; the session on the server stays.
        await page.route(myInfo, (route) => route.abort('failed'));
        await page.goto(`${server.url}/events`);
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        await page.unroute(myInfo);

        await page.goto(`${server.url}/events`);
        await page.getByRole('heading', { name: 'My events' }).waitFor({ timeout: 15_000 });
        expect(await page.getByTestId('header-email').textContent()).toBe(ALBUM_ADMIN.email);
        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'a fresh installation asks for the first administrator, then offers sign-in',
    async () => {
      const server = await journey.startServer();
      const browser = await journey.launchBrowser();
      const { page } = browser;

      await journey.withServerLog(async () => {
        await page.goto(server.url);
        await page.getByRole('heading', { name: 'Create the first administrator' }).waitFor();
        await page.getByLabel('E-mail').fill('founder@example.com');
        await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
        await page.getByLabel('Confirm password').fill(ADMIN_PASSWORD);
        await page.getByLabel('Confirm password').press('Enter');

        await page
          .getByText('The administrator founder@example.com was created. Sign in to continue.')
          .waitFor();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        expect(await page.getByLabel('E-mail').inputValue()).toBe('founder@example.com');

        // The new account signs in and is asked to set up two-factor.
        await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
        await page.getByLabel('Password', { exact: true }).press('Enter');
        await page
          .getByRole('dialog', { name: 'Set up two-factor authentication' })
          .getByTestId('mfa-qr')
          .waitFor();
        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
