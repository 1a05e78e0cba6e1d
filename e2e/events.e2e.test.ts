import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, type RunningBrowser } from './support/browser.ts';
import { signInSettingUpTotp, signInWithTotp } from './support/console-sign-in.ts';
import { withFailureContext } from './support/journey.ts';
import { startServer, type RunningServer } from './support/server.ts';

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'violet-harbour-lantern-42';
// The editor journey, then a guest's view and download reaching the insight dashboard.
const JOURNEY_TIMEOUT = 240_000;

let server: RunningServer | undefined;
const browsers: RunningBrowser[] = [];

afterEach(async () => {
  for (const browser of browsers.splice(0)) await browser.close();
  await server?.stop();
  server = undefined;
});

/** Fails with the last browser's page and the server's log attached. */
const withServerLog = (run: () => Promise<void>) =>
  withFailureContext(run, () => ({ server, browser: browsers.at(-1) }));

const openTab = (dialog: Locator, name: string) => dialog.getByRole('tab', { name }).click();
const titleInput = (dialog: Locator) => dialog.getByRole('textbox', { name: 'Title', exact: true });
const eventRow = (page: Page, title: string) =>
  page
    .getByTestId('event-row')
    .filter({ has: page.getByRole('cell', { name: title, exact: true }) });

const openEditor = async (page: Page, title: string) => {
  await page.getByRole('button', { name: `Edit ${title}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Edit event ${title}` });
  await titleInput(dialog).waitFor();
  return dialog;
};

describe('event editor journey in Chromium', () => {
  it(
    'creates an event with e-mail and SMS templates, fixes a rule, meets a conflict, copies and deletes',
    async () => {
      server = await startServer({
        env: { FLASHBULB_ADMIN_EMAIL: ADMIN_EMAIL, FLASHBULB_ADMIN_PASSWORD: ADMIN_PASSWORD },
        prepare: async (cli) => {
          await cli('organisation', 'create', '--name', 'Acme Events');
        },
      });
      const first = await launchBrowser();
      browsers.push(first);
      const { page } = first;

      await withServerLog(async () => {
        await page.goto(`${server!.url}/events`);
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        const authenticator = await signInSettingUpTotp(page, ADMIN_EMAIL, ADMIN_PASSWORD);
        await page.getByTestId('events-empty').waitFor();

        // ---- create, with a rule broken on purpose ----
        // The full editor is "All settings" of the new-event steps.
        await page.getByRole('button', { name: 'New event' }).click();
        await page
          .getByRole('dialog', { name: 'New event' })
          .getByRole('button', { name: 'All settings (Advanced)' })
          .click();
        const add = page.getByRole('dialog', { name: 'Add event' });
        await add.getByRole('textbox', { name: 'Organisation' }).click();
        await page.getByRole('option', { name: 'Acme Events' }).click();
        await titleInput(add).fill('Harbour Festival');
        await add
          .getByRole('textbox', { name: 'Description', exact: true })
          .fill('Boats and lights');
        await openTab(add, 'E-mail configuration');
        await add.getByRole('textbox', { name: 'From address' }).fill('photos@harbour.example');
        await add
          .getByRole('textbox', { name: 'E-mail body', exact: true })
          .fill('Hello {user_name}, your photo: {image_url}');
        await openTab(add, 'SMS');
        await add.getByRole('checkbox', { name: 'Send SMS' }).check();
        await add
          .getByRole('textbox', { name: 'SMS text', exact: true })
          .fill('Hi {user_name}, see you!');
        await add.getByRole('button', { name: 'Add', exact: true }).click();

        const issues = page.getByRole('dialog', { name: 'Please correct the marked fields' });
        await issues.getByText('The SMS text must contain {user_name} and {image_url}').waitFor();
        await issues.getByRole('button', { name: 'OK' }).click();
        const sms = add.getByRole('textbox', { name: 'SMS text', exact: true });
        expect(await sms.getAttribute('aria-invalid')).toBe('true');
        await add.getByText('The SMS text must contain {user_name} and {image_url}').waitFor();
        await sms.fill('Hi {user_name}, your photo: {image_url}');
        await add.getByRole('button', { name: 'Add', exact: true }).click();
        await add.waitFor({ state: 'detached' });
        await page.getByText(/We sent a verification e-mail to photos@harbour\.example/).waitFor();
        await eventRow(page, 'Harbour Festival').waitFor();

        // What was stored is what was typed.
        const editor = await openEditor(page, 'Harbour Festival');
        await openTab(editor, 'SMS');
        expect(
          await editor.getByRole('textbox', { name: 'SMS text', exact: true }).inputValue(),
        ).toBe('Hi {user_name}, your photo: {image_url}');
        expect(await editor.getByRole('checkbox', { name: 'Send SMS' }).isChecked()).toBe(true);
        await openTab(editor, 'General');
        const code = await editor.getByRole('textbox', { name: 'Event name (code)' }).inputValue();
        expect(code).toMatch(/^[A-Z0-9]{4}$/);
        expect(new URL(page.url()).hash).toBe(`#ename=${code}`);

        // ---- the browser's Back button does not throw away unsaved changes ----
        await titleInput(editor).fill('Harbour Festival (draft)');
        await page.goBack();
        const unsaved = page.getByRole('dialog', { name: 'Unsaved changes' });
        await unsaved.waitFor();
        await expect.poll(() => new URL(page.url()).hash).toBe(`#ename=${code}`);
        await unsaved.getByRole('button', { name: 'Keep editing' }).click();
        await unsaved.waitFor({ state: 'hidden' });
        expect(await titleInput(editor).inputValue()).toBe('Harbour Festival (draft)');
        await titleInput(editor).fill('Harbour Festival');
        // Without changes, Back closes the editor as a link would.
        await page.goBack();
        await editor.waitFor({ state: 'detached' });
        await page.goForward();
        await editor.waitFor();

        // ---- a second browser changes the event meanwhile ----
        const second = await launchBrowser();
        browsers.push(second);
        await second.page.goto(server!.url);
        await second.page.getByRole('button', { name: 'Sign in' }).waitFor();
        await signInWithTotp(second.page, ADMIN_EMAIL, ADMIN_PASSWORD, authenticator);
        // The page hash names the event to open (owner-console §2); the session survives the load.
        await second.page.goto(`${server!.url}/events#ename=${code}`);
        const other = second.page.getByRole('dialog', { name: 'Edit event Harbour Festival' });
        await titleInput(other).fill('Harbour Festival 2026');
        await other.getByRole('button', { name: 'Update' }).click();
        const updated = second.page.getByRole('dialog', {
          name: 'Edit event Harbour Festival 2026',
        });
        await updated.waitFor();
        // The save answers with the stored event: "Saved at HH:MM", and the form stays usable.
        await updated.getByTestId('saved-at').waitFor();
        expect(await titleInput(updated).isDisabled()).toBe(false);

        // ---- the first browser's Update is refused: keep editing, then reload ----
        await titleInput(editor).fill('Harbour Festival (night)');
        await editor.getByRole('button', { name: 'Update' }).click();
        const conflict = page.getByRole('dialog', { name: 'Changed by another user' });
        await conflict.getByRole('button', { name: 'Keep editing' }).click();
        await conflict.waitFor({ state: 'hidden' });
        expect(await titleInput(editor).inputValue()).toBe('Harbour Festival (night)');
        await editor.getByRole('button', { name: 'Update' }).click();
        await conflict.getByRole('button', { name: 'Reload' }).click();
        await editor.waitFor({ state: 'detached' });
        await eventRow(page, 'Harbour Festival 2026').waitFor();

        // ---- copy ----
        const again = await openEditor(page, 'Harbour Festival 2026');
        await again.getByRole('button', { name: 'Duplicate Event' }).click();
        const copy = page.getByRole('dialog', { name: 'Duplicate event' });
        expect(await titleInput(copy).inputValue()).toBe('Harbour Festival 2026_copy');
        expect(await copy.getByTestId('event-name-container').count()).toBe(0);
        await copy.getByRole('button', { name: 'Save', exact: true }).click();
        await copy.waitFor({ state: 'detached' });
        await eventRow(page, 'Harbour Festival 2026_copy').waitFor();
        expect(await page.getByTestId('event-row').count()).toBe(2);
        // The copy's new sender address is sent a verification mail: the toast says so, and the
        // operator closes it (it sits over the last row's actions for 10 s otherwise).
        const verification = page.locator('#from-address-verification');
        await verification.getByText('photos@harbour.e', { exact: false }).waitFor();
        await verification.locator('button').click();
        await verification.waitFor({ state: 'detached' });

        // ---- delete the copy ----
        const copied = await openEditor(page, 'Harbour Festival 2026_copy');
        const copyCode = await copied
          .getByRole('textbox', { name: 'Event name (code)' })
          .inputValue();
        await copied.getByRole('button', { name: 'More' }).click();
        await page.getByRole('menuitem', { name: 'Delete event' }).click();
        const confirmDelete = page.getByRole('dialog', { name: 'Delete the event?' });
        await confirmDelete.getByText('0 photos are deleted with it.').waitFor();
        await confirmDelete.getByLabel(`Type the event code ${copyCode} to confirm`).fill(copyCode);
        await confirmDelete.getByRole('button', { name: 'Delete event' }).click();
        await copied.waitFor({ state: 'detached' });
        await expect.poll(() => page.getByTestId('event-row').count()).toBe(1);
        await eventRow(page, 'Harbour Festival 2026').waitFor();

        // ---- insight: a guest opens the album once and downloads once; the dashboard says so ----
        const photo = path.join(await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-')), 'boat.jpg');
        await sharp({
          create: { width: 1200, height: 800, channels: 3, background: { r: 20, g: 90, b: 160 } },
        })
          .jpeg({ quality: 85 })
          .toFile(photo);
        await page.goto(`${server!.url}/events/${code}/album`);
        await page.getByRole('button', { name: 'Upload photos' }).click();
        const upload = page.getByRole('region', { name: 'Upload photos' });
        await upload.getByLabel('Choose files').setInputFiles(photo);
        await upload.getByText('1 of 1 uploaded').waitFor({ timeout: 30_000 });
        await page.goto(`${server!.url}/events`);
        await page.getByRole('button', { name: 'Share Harbour Festival 2026' }).click();
        const albumHref = await page
          .getByRole('link', { name: 'Open the Guest album' })
          .getAttribute('href');
        await page.keyboard.press('Escape');
        const guest = await launchBrowser();
        browsers.push(guest);
        await guest.page.goto(new URL(albumHref!, server!.url).href);
        // The photo shows once its derivatives are made (the live stream brings it).
        await guest.page.locator('.albums-tile-open').first().click({ timeout: 30_000 });
        await guest.page.getByRole('dialog').waitFor();
        await guest.page
          .getByRole('button', { name: 'Download photo' })
          .or(guest.page.getByRole('link', { name: 'Download original' }))
          .click();
        await page.goto(`${server!.url}/events/${code}/insight`);
        const tile = (name: string) =>
          page.getByTestId('insight-tile').filter({ hasText: new RegExp(`^${name}\\d`) });
        await expect
          .poll(
            async () => {
              await page.reload();
              await page.getByTestId('insight-dashboard').waitFor();
              return [await tile('Views').textContent(), await tile('Downloads').textContent()];
            },
            { timeout: 30_000 },
          )
          .toEqual(['Views1', 'Downloads1']);
        expect(await tile('Photos in').textContent()).toBe('Photos in1');
        expect(guest.problems).toEqual([]);

        expect(first.problems).toEqual([]);
        expect(second.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
