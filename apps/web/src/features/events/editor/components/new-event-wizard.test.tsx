import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  installConsoleApi,
  OWNER,
  orgAdmin,
  shareBucketGrant,
  storedEvent,
} from '../../../../test/event-fixtures.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const CREATE = `${OWNER}/event/create`;
const CREATE_ROBOT = `${OWNER}/robot/create`;

const created = storedEvent({
  id: 9,
  name: 'NEWW',
  full_name: 'Pier',
  organisation_id: 3,
  email_from_address: 'hi@pier.example',
  email_from_address_verified: false,
});

const openWizard = async () => {
  renderApp('/events');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'New event' }));
  const wizard = await screen.findByRole('dialog', { name: 'New event' });
  const input = (label: string | RegExp) => within(wizard).getByLabelText<HTMLInputElement>(label);
  const click = (name: string | RegExp) => user.click(within(wizard).getByRole('button', { name }));
  return { user, wizard, input, click };
};

describe('new event in four steps', () => {
  it('checks each step before Next, shows its errors on it, and keeps what was typed on Back', async () => {
    const api = installConsoleApi({
      user: orgAdmin,
      events: [],
      routes: {
        '/share-bucket/create-upload-access': shareBucketGrant,
        '/storage/flashbulb': { raw: '', status: 201 },
      },
    });
    const { user, wizard, input, click } = await openWizard();

    // Step 1: the title and description are required; nothing else moves on without them.
    await click('Next');
    expect(await within(wizard).findByText('Please enter the event title')).toBeTruthy();
    expect(input(/^Title/).getAttribute('aria-invalid')).toBe('true');
    await user.type(input(/^Title/), 'Pier');
    await user.type(input(/^Description/), 'Lights');
    await click('Next');

    // Step 2: the logo is uploaded (into a folder of the new event), the preview shows it.
    await user.click(await within(wizard).findByRole('checkbox', { name: 'Show a logo' }));
    await user.upload(
      input('Upload Logo image'),
      new File(['png'], 'logo.png', { type: 'image/png' }),
    );
    await waitFor(() =>
      expect(input('Logo image').value).toMatch(/\/share\/3\/etc\/new-[0-9a-z]{6}\//),
    );
    expect(api.callsTo('/share-bucket/create-upload-access')[0]?.body).toEqual({
      relativeFilePath: expect.stringMatching(
        /^etc\/new-[0-9a-z]{6}\/[0-9a-z]{24}\.png$/,
      ) as unknown,
    });
    const preview = within(wizard).getByTestId('album-header-preview');
    expect(within(preview).getByTestId('preview-title').textContent).toBe('Pier');
    expect(preview.querySelector('img')?.getAttribute('src')).toBe(input('Logo image').value);
    await click('Next');

    // Step 3: the required from address lives here.
    expect(within(wizard).getByTestId('sender-verification').textContent).toBe('Not verified yet');
    await click('Next');
    expect(await within(wizard).findByText('Please enter the from address')).toBeTruthy();
    await user.type(input(/^From address/), 'hi@pier.example');

    // Back twice and forward again: every value is still there.
    await click('Back');
    await click('Back');
    expect(input(/^Title/).value).toBe('Pier');
    expect(input(/^Description/).value).toBe('Lights');
    await click('Next');
    expect(input('Logo image').value).toMatch(/\/etc\/new-/);
    await click('Next');
    expect(input(/^From address/).value).toBe('hi@pier.example');
    await click('Next');
    expect(within(wizard).getByRole('button', { name: 'Create event' })).toBeTruthy();
    expect(api.callsTo(CREATE)).toHaveLength(0);
  });

  it('creates the event and a robot from it: the key is shown once inside the upload command with --server', async () => {
    const api = installConsoleApi({
      user: orgAdmin,
      events: [],
      routes: {
        [`${OWNER}/robot/list/retrieve`]: {
          ok: {
            robots: [
              {
                id: 4,
                name: 'Old booth',
                organisation_id: 3,
                event_id: null,
                event_name: null,
                last_upload_date: null,
                upload_count: 0,
              },
            ],
          },
        },
        [CREATE]: { ok: created },
        [CREATE_ROBOT]: {
          ok: {
            id: 5,
            name: 'Pier booth',
            organisation_id: 3,
            event_id: 9,
            event_name: 'NEWW',
            last_upload_date: null,
            upload_count: 0,
            api_key: 'fbr_secret123',
          },
        },
      },
    });
    const { user, wizard, input, click } = await openWizard();
    await user.type(input(/^Title/), 'Pier');
    await user.type(input(/^Description/), 'Lights');
    await click('Next');
    await click('Next');
    await user.type(input(/^From address/), 'hi@pier.example');
    await click('Next');
    // Step 4: attach an existing robot and name a new one.
    await user.click(within(wizard).getByRole('textbox', { name: 'Robots' }));
    await user.click(await screen.findByRole('option', { name: 'Old booth', hidden: true }));
    await user.type(input(/^New robot name/), 'Pier booth');
    await click('Create event');

    const finished = await within(wizard).findByTestId('wizard-finished');
    expect(api.callsTo(CREATE)[0]?.body).toMatchObject({
      organisation_id: 3,
      full_name: 'Pier',
      email_from_address: 'hi@pier.example',
      robot_id_array: [4],
      opts: expect.objectContaining({ description: 'Lights' }) as unknown,
    });
    expect(api.callsTo(CREATE_ROBOT)[0]?.body).toEqual({
      organisation_id: 3,
      event_id: 9,
      name: 'Pier booth',
    });
    expect(within(finished).getByTestId('upload-command').textContent).toBe(
      `npm run cli -- upload --server ${window.location.origin} --event NEWW --key fbr_secret123 <folder>`,
    );
    expect(within(finished).getByRole('button', { name: 'Copy command' })).toBeTruthy();
    expect(within(finished).getByTestId('album-link').textContent).toMatch(/\?pId=/);
    expect(
      within(finished).getByText(/We sent a verification e-mail to hi@pier.example/),
    ).toBeTruthy();

    // The key lives on this screen only: the full editor opened from it does not show it.
    await user.click(within(finished).getByRole('button', { name: 'Open the full editor' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New event' })).toBeNull());
    expect(screen.queryByText(/fbr_secret123/)).toBeNull();
  });

  it('on a phone: one compact line "Step n of 4" with a progress bar instead of four stacked steps', async () => {
    const descriptor = Object.getOwnPropertyDescriptor(window, 'matchMedia');
    const original = window.matchMedia.bind(window);
    // A phone: the console's phone query (max-width: 48em) matches.
    window.matchMedia = (query: string) => ({
      ...original(query),
      matches: query.includes('max-width'),
    });
    try {
      installConsoleApi({ user: orgAdmin, events: [] });
      const { user, wizard, input, click } = await openWizard();
      const compact = await within(wizard).findByTestId('wizard-compact-steps');
      expect(compact.textContent).toContain('Step 1 of 4: Name and date');
      expect(within(compact).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
      // The stepper's own list of steps is not drawn on a phone.
      expect(wizard.querySelector('.mantine-Stepper-steps')).toBeNull();
      await user.type(input(/^Title/), 'Pier');
      await user.type(input(/^Description/), 'Lights');
      await click('Next');
      await waitFor(() => expect(compact.textContent).toContain('Step 2 of 4: Look'));
      expect(within(compact).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    } finally {
      if (descriptor) Object.defineProperty(window, 'matchMedia', descriptor);
    }
  });
});
