import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultEventOpts, type FlashbulbEvent } from '@flashbulb/shared';
import {
  installConsoleApi,
  listedRobot,
  orgAdmin,
  OWNER,
  shareBucketGrant,
  storedEvent,
  superUser,
} from '../../../../test/event-fixtures.ts';
import { renderApp } from '../../../../test/render-app.tsx';
import { renderEventEditor } from '../../../../test/event-editor.tsx';

const UPDATE = `${OWNER}/event/update`;

/**
 * The editor of a stored event, alone: these tests are about its tabs. Opening it from the events
 * page (the address's event code) is proven in events-page.test.tsx and the last test here.
 */
const openEdit = async (event: FlashbulbEvent, routes = {}) => {
  const api = installConsoleApi({
    events: [event],
    routes: { [UPDATE]: { ok: event }, ...routes },
  });
  const dialog = await renderEventEditor(event, orgAdmin);
  const user = userEvent.setup();
  const tab = (name: string) => user.click(within(dialog).getByRole('tab', { name }));
  // By its label, not by role and accessible name: the same box, without computing the name of
  // every checkbox of the tab (half a second a lookup in jsdom).
  const box = (name: string) =>
    within(dialog).getByLabelText<HTMLInputElement>(name, { selector: 'input[type="checkbox"]' });
  const input = (label: string | RegExp) => within(dialog).getByLabelText<HTMLInputElement>(label);
  const update = async () => {
    const before = api.callsTo(UPDATE).length;
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE).length).toBe(before + 1));
    return api.callsTo(UPDATE)[before]?.body as Record<string, unknown> & {
      opts: Record<string, unknown>;
    };
  };
  return { api, dialog, user, tab, box, input, update };
};

describe('editor tabs: checkbox-driven fields', () => {
  it('enables the stream minutes with its checkbox and sends null when it is turned off', async () => {
    const e = await openEdit(storedEvent({ photo_stream_available_minutes: 90 }));
    await e.tab('Photo configuration');
    expect(e.input('Stream availability (minutes)').value).toBe('90');
    expect(e.input('Auto-delete after (days)').disabled).toBe(true);
    expect(e.input('Instant archive after (days)').disabled).toBe(true);
    expect(e.input('Photo delay (minutes)').disabled).toBe(true);
    expect(e.input('VIP delay (minutes)').disabled).toBe(true);
    expect(e.input('Tag delay (minutes)').disabled).toBe(true);

    await e.user.click(e.box('Limit photo stream availability'));
    expect(e.input('Stream availability (minutes)').disabled).toBe(true);
    expect(e.input('Stream availability (minutes)').value).toBe('');
    await e.user.click(e.box('Delay photos with tags'));
    expect(e.input('Tag delay (minutes)').disabled).toBe(false);
    await e.user.type(e.input('Tag delay (minutes)'), '15');
    await e.user.click(e.box('Delay photos'));
    await e.user.type(e.input('Photo delay (minutes)'), '5');
    const body = await e.update();
    expect(body.photo_stream_available_minutes).toBeNull();
    expect(body.opts).toMatchObject({
      photoDelayMinutes: 5,
      photoDelayVipMinutes: null,
      isPhotoDelayCheckTags: 1,
      photoDelayTagsMinutes: 15,
    });
  });

  it('refuses a ticked box with an empty number, marking that field', async () => {
    const e = await openEdit(storedEvent());
    await e.tab('Photo configuration');
    await e.user.click(e.box('Archive photos'));
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Update' }));
    const popup = await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(within(popup).getByText('Instant archive must be between 1 and 3000 days')).toBeTruthy();
    expect(e.api.callsTo(UPDATE)).toHaveLength(0);
  });

  it('refuses copies 25 with the field marked instead of clamping it to 20', async () => {
    const e = await openEdit(storedEvent({ is_photo_printer_active: 1 }));
    await e.tab('Printing');
    const copies = e.input('Max copies per print (1–20)');
    await e.user.clear(copies);
    await e.user.type(copies, '25');
    await e.user.tab();
    expect(copies.value).toBe('25');
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Update' }));
    await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(copies.getAttribute('aria-invalid')).toBe('true');
    expect(e.api.callsTo(UPDATE)).toHaveLength(0);
  });

  it('enables printing counts and options only while printing is active; off unticks print-every-photo', async () => {
    const e = await openEdit(
      storedEvent({
        is_photo_printer_active: 1,
        is_print_every_photo: 1,
        print_from_all_albums: 1,
      }),
    );
    await e.tab('Printing');
    expect(e.input('Max copies per print (1–20)').disabled).toBe(false);
    expect(e.box('Print every photo').checked).toBe(true);
    await e.user.click(e.box('Printing is active'));
    expect(e.input('Max copies per print (1–20)').disabled).toBe(true);
    expect(e.input('Max photos per print request (1–20)').disabled).toBe(true);
    expect(e.box('Print every photo').disabled).toBe(true);
    expect(e.box('Print every photo').checked).toBe(false);
    expect(e.box('Print from all albums').disabled).toBe(true);
    const body = await e.update();
    expect(body).toMatchObject({ is_photo_printer_active: 0, is_print_every_photo: 0 });
  });

  it('says what print every photo prints for the stored event: its auto-print processes’ variants', async () => {
    const frame = {
      id: 5,
      name: 'Gold frame',
      organisation_id: 3,
      kind: 'frame',
      auto_print: true,
    };
    const e = await openEdit(storedEvent({ is_photo_printer_active: 1, is_print_every_photo: 1 }), {
      [`${OWNER}/event/auto-print-processes`]: { ok: { image_processes: [frame] } },
    });
    await e.tab('Printing');
    expect(
      await within(e.dialog).findByText(
        'As saved: each new photo prints as its variants of the image processes Gold frame, not as it is.',
      ),
    ).toBeTruthy();
    expect(e.api.callsTo(`${OWNER}/event/auto-print-processes`)[0]?.body).toEqual({
      event_id: 7,
    });
  });

  it('marks prints free at a paid event, saying what each choice means', async () => {
    const e = await openEdit(storedEvent({ is_photo_printer_active: 1, is_free: 0 }));
    await e.tab('Printing');
    const free = e.box('Prints are free at this event');
    expect(free.checked).toBe(false);
    expect(free.disabled).toBe(false);
    expect(
      within(e.dialog).getByText(/Prints follow the pricing: a locked album prints only/),
    ).toBeTruthy();
    await e.user.click(free);
    expect(within(e.dialog).getByText(/Guests print at the kiosk without buying/)).toBeTruthy();
    const body = await e.update();
    expect(body.opts).toMatchObject({ printsFree: 1 });
  });

  it('shows a free event’s prints as free, the box off', async () => {
    const e = await openEdit(storedEvent({ is_photo_printer_active: 1, is_free: 1 }));
    await e.tab('Printing');
    expect(e.box('Prints are free at this event').disabled).toBe(true);
    expect(
      within(e.dialog).getByText('This event is free: guests print without buying.'),
    ).toBeTruthy();
  });

  it('enables the printer pools with their checkbox, defaulting to Default, null when off', async () => {
    const e = await openEdit(storedEvent());
    await e.tab('Printing');
    expect(e.input('Printer pools').disabled).toBe(true);
    await e.user.click(e.box('Use printer pools'));
    expect(e.input('Printer pools').disabled).toBe(false);
    expect(e.input('Printer pools').value).toBe('Default');
    await e.user.clear(e.input('Printer pools'));
    await e.user.type(e.input('Printer pools'), 'Lobby, Stage');
    const body = await e.update();
    expect(body.printer_pool_name_list).toEqual(['Lobby', 'Stage']);
  });

  it('sends the Default pool when pools are on and the list is empty, null when off', async () => {
    const e = await openEdit(
      storedEvent({ is_printer_pool_enabled: 1, printer_pool_name_list: ['Lobby'] }),
    );
    await e.tab('Printing');
    await e.user.clear(e.input('Printer pools'));
    const body = await e.update();
    expect(body.printer_pool_name_list).toEqual(['Default']);
  });

  it('sends null pools when they are turned off', async () => {
    const e = await openEdit(
      storedEvent({ is_printer_pool_enabled: 1, printer_pool_name_list: ['Lobby'] }),
    );
    await e.tab('Printing');
    await e.user.click(e.box('Use printer pools'));
    expect(e.input('Printer pools').disabled).toBe(true);
    const body = await e.update();
    expect(body).toMatchObject({ is_printer_pool_enabled: 0, printer_pool_name_list: null });
  });

  it('clears the SMS text and the upsell message when their boxes are turned off', async () => {
    const e = await openEdit(
      storedEvent({
        is_sms_enabled: 1,
        opts: { ...defaultEventOpts(), upsellEnabled: 1, upsellMessage: 'Buy two!' },
      }),
    );
    await e.tab('SMS');
    expect(e.input('SMS text').disabled).toBe(false);
    await e.user.click(e.box('Send SMS'));
    expect(e.input('SMS text').disabled).toBe(true);
    expect(e.input('SMS text').value).toBe('');
    await e.tab('Paid');
    expect(e.input('Upsell message').value).toBe('Buy two!');
    await e.user.click(e.box('Offer an upsell'));
    expect(e.input('Upsell message').disabled).toBe(true);
    expect(e.input('Upsell message').value).toBe('');
  });

  it('fills the default image when a watermark, the logo or paid is ticked, and clears it when unticked', async () => {
    const e = await openEdit(storedEvent());
    await e.tab('Watermarks');
    expect(e.input('Live-view watermark image').disabled).toBe(true);
    await e.user.click(e.box('Live-view watermark'));
    expect(e.input('Live-view watermark image').value).toBe('/default-watermark.png');
    expect(e.input('Live-view watermark image').disabled).toBe(false);
    await e.tab('General');
    await e.user.click(e.box('Show a logo'));
    expect(e.input('Logo image').value).toBe('/default-logo.png');
    await e.tab('Paid');
    expect(e.input('Protector watermark').disabled).toBe(true);
    await e.user.click(e.box('Paid event'));
    expect(e.input('Protector watermark').value).toBe('/default-watermark.png');
    expect(e.input('Protector watermark').disabled).toBe(false);
    const body = await e.update();
    expect(body).toMatchObject({
      live_view_watermark: '/default-watermark.png',
      logo_full_path: '/default-logo.png',
      is_free: 0,
      protector_watermark: '/default-watermark.png',
    });
  });

  it('clears the image when its box is unticked', async () => {
    const e = await openEdit(
      storedEvent({
        is_free: 0,
        protector_watermark: '/custom.png',
        live_view_watermark: '/lv.png',
      }),
    );
    await e.tab('Paid');
    await e.user.click(e.box('Paid event'));
    expect(e.input('Protector watermark').value).toBe('');
    expect(e.input('Protector watermark').disabled).toBe(true);
    await e.tab('Watermarks');
    await e.user.click(e.box('Live-view watermark'));
    expect(e.input('Live-view watermark image').disabled).toBe(true);
    const body = await e.update();
    expect(body).toMatchObject({
      is_free: 1,
      protector_watermark: null,
      live_view_watermark: null,
    });
  });

  it('switches the watermark containers with the mode radio and sends only the chosen one', async () => {
    const e = await openEdit(storedEvent({ watermark_pt_id: 11 }), {
      [`${OWNER}/ppt/list/retrieve`]: {
        ok: {
          public_ppt_list: [],
          private_ppt_list: [
            {
              id: 11,
              name: 'Frame',
              organisation_id: 3,
              organisation_name: 'Acme Events',
              placeholder_counts: 1,
              is_public: false,
              created_date: '2026-10-01T10:00:00Z',
              updated_date: '2026-10-02T10:00:00Z',
            },
          ],
        },
      },
    });
    await e.tab('Watermarks');
    const template = within(e.dialog).getByTestId('watermark-template-container');
    const image = within(e.dialog).getByTestId('watermark-image-container');
    expect(template.hasAttribute('disabled')).toBe(false);
    expect(image.hasAttribute('disabled')).toBe(true);
    expect(e.box('Watermark photos with an image').disabled).toBe(true);
    // The private templates table: number, name, organisation, placeholders, dates (10 chars).
    const table = within(e.dialog).getByRole('table', { name: 'Private templates' });
    expect(within(table).getByText('2026-10-01')).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'Preview' }).getAttribute('href')).toBe(
      '/templates/?tid=11&mode=preview',
    );

    await e.user.click(within(e.dialog).getByRole('radio', { name: 'Watermark image' }));
    expect(template.hasAttribute('disabled')).toBe(true);
    expect(image.hasAttribute('disabled')).toBe(false);
    await e.user.click(e.box('Watermark photos with an image'));
    const body = await e.update();
    expect(body).toMatchObject({
      watermark_pt_id: null,
      photo_watermark: '/default-watermark.png',
    });
  });

  it('enables the VIP pattern only with an attendee-id pattern', async () => {
    const e = await openEdit(storedEvent());
    expect(e.input('VIP attendee id pattern').disabled).toBe(true);
    await e.user.type(e.input('Attendee id pattern'), '^A\\d+$');
    expect(e.input('VIP attendee id pattern').disabled).toBe(false);
  });

  it('notes that selected robots leave their previous event', async () => {
    const e = await openEdit(storedEvent(), {
      [`${OWNER}/robot/list/retrieve`]: {
        ok: {
          robots: [
            listedRobot({ event_id: 12, event_name: 'OTHR' }),
            listedRobot({ id: 6, name: 'Booth 2' }),
          ],
        },
      },
    });
    expect(within(e.dialog).queryByTestId('robot-move-note')).toBeNull();
    await e.user.click(within(e.dialog).getByRole('textbox', { name: 'Robots' }));
    await e.user.click(await screen.findByRole('option', { name: 'Booth 2', hidden: true }));
    expect(within(e.dialog).queryByTestId('robot-move-note')).toBeNull();
    await e.user.click(await screen.findByRole('option', { name: 'Booth 1', hidden: true }));
    expect((await within(e.dialog).findByTestId('robot-move-note')).textContent).toBe(
      'Booth 1 will be disconnected from its current event OTHR.',
    );
  });

  it('creates a robot from the event: attached at once, key and upload command shown once', async () => {
    const CREATE = `${OWNER}/robot/create`;
    const event = storedEvent();
    const e = await openEdit(event, {
      [CREATE]: {
        ok: {
          id: 9,
          name: 'Gate',
          organisation_id: 3,
          event_id: event.id,
          event_name: event.name,
          last_upload_date: null,
          upload_count: 0,
          api_key: 'fbr_secret123',
        },
      },
    });
    await e.user.type(e.input('New robot for this event'), 'Gate');
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Create robot' }));
    await waitFor(() => expect(e.api.callsTo(CREATE)).toHaveLength(1));
    expect(e.api.callsTo(CREATE)[0]?.body).toEqual({
      organisation_id: 3,
      event_id: event.id,
      name: 'Gate',
    });
    expect((await within(e.dialog).findByTestId('upload-command')).textContent).toBe(
      `npm run cli -- upload --server ${window.location.origin} --event ${event.name} --key fbr_secret123 <folder>`,
    );
    // A save keeps the new robot on the event.
    const body = await e.update();
    expect(body.robot_id_array).toContain(9);
  });

  it('restores the saved attendee-upload values on enable and clears them on disable', async () => {
    const e = await openEdit(
      storedEvent({
        opts: {
          ...defaultEventOpts(),
          enableAttendeePhotoUpl: 1,
          attPhotoImgPrTag: 'guest',
          attPhotoImgMaxWidth: 1200,
          attPhotoImgMaxHeight: 900,
        },
      }),
    );
    await e.tab('Photo configuration');
    expect(e.input('Attendee photo tag').value).toBe('guest');
    await e.user.click(e.box('Allow attendee photo upload'));
    expect(e.input('Attendee photo tag').value).toBe('');
    expect(e.input('Attendee photo tag').disabled).toBe(true);
    expect(e.input('Attendee photo max width (px)').value).toBe('');
    await e.user.click(e.box('Allow attendee photo upload'));
    expect(e.input('Attendee photo tag').value).toBe('guest');
    expect(e.input('Attendee photo max width (px)').value).toBe('1200');
    expect(e.input('Attendee photo max height (px)').value).toBe('900');
  });

  it('uploads a watermark and a web-app image into the share area; refuses other types first', async () => {
    const e = await openEdit(storedEvent({ live_view_watermark: '/default-watermark.png' }), {
      '/share-bucket/create-upload-access': shareBucketGrant,
      '/storage/flashbulb': { raw: '', status: 201 },
    });
    await e.tab('Watermarks');
    const watermarkFile = e.input('Upload Live-view watermark image');
    // Any other type: the spec's message, nothing asked for.
    watermarkFile.removeAttribute('accept');
    await e.user.upload(watermarkFile, new File(['x'], 'mark.gif', { type: 'image/gif' }));
    expect(
      await within(e.dialog).findByText(
        'Not Allowed gif files. Only jpg, jpeg, png files are allowed.',
      ),
    ).toBeTruthy();
    expect(e.api.callsTo('/share-bucket/create-upload-access')).toHaveLength(0);
    await e.user.upload(watermarkFile, new File(['png'], 'Mark.PNG', { type: 'image/png' }));
    await waitFor(() =>
      expect(e.input('Live-view watermark image').value).toMatch(
        /^\/storage\/flashbulb\/share\/3\/watermarks\/ABCD\/[0-9a-z]{24}\.png$/,
      ),
    );
    const watermark = e.input('Live-view watermark image').value;
    await e.tab('Options');
    await e.user.click(e.box('Background'));
    await e.user.upload(
      e.input('Upload Background'),
      new File(['jpg'], 'bg.jpg', { type: 'image/jpeg' }),
    );
    await waitFor(() =>
      expect(e.input('Background source').value).toMatch(/\/webapp-etc\/ABCD\/[0-9a-z]{24}\.jpg$/),
    );
    const grants = e.api.callsTo('/share-bucket/create-upload-access');
    expect(grants.map((g) => g.body)).toEqual([
      { relativeFilePath: expect.stringMatching(/^watermarks\/ABCD\//) as unknown },
      { relativeFilePath: expect.stringMatching(/^webapp-etc\/ABCD\//) as unknown },
    ]);
    expect(e.api.callsTo('/storage/flashbulb')).toHaveLength(2);
    const background = e.input('Background source').value;
    const body = await e.update();
    expect(body.live_view_watermark).toBe(watermark);
    expect(body.opts.webappBackgroundSrc).toBe(background);
  });

  it('turns web-app images on and off with their boxes and keeps the SMS fields behind theirs', async () => {
    const e = await openEdit(
      storedEvent({
        opts: { ...defaultEventOpts(), webappLogoSrc: 'https://cdn.example.com/logo.png' },
      }),
    );
    await e.tab('Options');
    // A stored source ticks its box.
    expect(e.box('Logo').checked).toBe(true);
    expect(within(e.dialog).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
      'https://cdn.example.com/logo.png',
    );
    expect(e.box('Background').checked).toBe(false);
    expect(e.input('Background source').disabled).toBe(true);
    await e.user.click(e.box('Logo'));
    expect(e.input('Logo source').value).toBe('');
    expect(e.input('Logo source').disabled).toBe(true);
    expect(e.input('SMS invitation text').disabled).toBe(true);
    expect(e.input('SMS agreement').disabled).toBe(true);
    await e.user.click(e.box('Offer the SMS invitation'));
    expect(e.input('SMS invitation text').disabled).toBe(false);
    await e.user.type(e.input('SMS invitation text'), 'Hi {{userName}}');
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Update' }));
    const popup = await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(within(popup).getByText('The SMS invitation text must contain {url}')).toBeTruthy();
  });

  it('finds an IANA time zone by typing and sends it beside the UTC offset', async () => {
    const e = await openEdit(storedEvent({ time_zone: '' }));
    const picker = within(e.dialog).getByRole('textbox', { name: 'Time zone' });
    expect((picker as HTMLInputElement).value).toBe('None (use the UTC offset)');
    await e.user.clear(picker);
    await e.user.type(picker, 'Berl');
    await e.user.click(await screen.findByRole('option', { name: 'Europe/Berlin', hidden: true }));
    expect(within(e.dialog).getByText('Used only when no time zone is chosen')).toBeTruthy();
    const body = await e.update();
    expect(body.time_zone).toBe('Europe/Berlin');
  });

  it('offers UTC-12:00 … UTC+13:00 and sends whole hours', async () => {
    const e = await openEdit(storedEvent());
    await e.user.click(within(e.dialog).getByRole('textbox', { name: 'UTC offset' }));
    const options = await screen.findAllByRole('option', { hidden: true });
    // The offsets' list (the time-zone picker's options may be in the page too).
    const labels = options.map((o) => o.textContent).filter((l) => /^UTC[+-]/.test(l ?? ''));
    expect(labels[0]).toBe('UTC-12:00 Baker Island');
    expect(labels.at(-1)).toBe('UTC+13:00 Tonga, Samoa');
    expect(labels).toHaveLength(26);
    // Every offset carries a place name.
    for (const label of labels) expect(label).toMatch(/^UTC[+-]\d\d:00 \p{L}/u);
    await e.user.click(
      screen.getByRole('option', { name: 'UTC+02:00 Athens, Cairo, Johannesburg', hidden: true }),
    );
    const body = await e.update();
    expect(body.date_utc_diff_hours).toBe(2);
  });

  it('disables the kiosk stream option while leads are not collected', async () => {
    const e = await openEdit(storedEvent({ collect_leads: 0 }));
    await e.tab('Photo configuration');
    expect(e.box('Offer the kiosk stream').disabled).toBe(true);
    await e.user.click(within(e.dialog).getByRole('radio', { name: 'Collect leads' }));
    expect(e.box('Offer the kiosk stream').disabled).toBe(false);
  });
});

const template = (id: number, name: string, isPublic: boolean) => ({
  id,
  name,
  organisation_id: isPublic ? null : 3,
  organisation_name: isPublic ? null : 'Acme Events',
  placeholder_counts: 2,
  is_public: isPublic,
  created_date: '2026-09-01T08:00:00Z',
  updated_date: '2026-09-02T08:00:00Z',
});

describe('watermark template tables', () => {
  const routes = {
    [`${OWNER}/ppt/list/retrieve`]: {
      ok: {
        public_ppt_list: [template(1, 'Classic', true)],
        private_ppt_list: [template(2, 'Ours', false)],
      },
    },
    [`${OWNER}/ppt/delete`]: { ok: {} },
  };

  it('lets admins change only private templates, deleting after a confirm', async () => {
    const e = await openEdit(storedEvent(), routes);
    await e.tab('Watermarks');
    const publicTable = await within(e.dialog).findByRole('table', { name: 'Public templates' });
    await within(publicTable).findByText('Classic');
    expect(
      within(publicTable).queryByRole('button', { name: 'Delete template Classic' }),
    ).toBeNull();
    expect(within(publicTable).queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(within(publicTable).getByRole('link', { name: 'Preview' })).toBeTruthy();
    const privateTable = within(e.dialog).getByRole('table', { name: 'Private templates' });
    expect(within(privateTable).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      '/templates/?tid=2&watermark=1',
    );
    await e.user.click(within(privateTable).getByRole('button', { name: 'Delete template Ours' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the template?' });
    await e.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(e.api.callsTo(`${OWNER}/ppt/delete`)[0]?.body).toEqual({ id: 2 }));
  });

  it('lets super users edit and delete public templates, and opens the template pages', async () => {
    const installed = installConsoleApi({
      user: superUser,
      events: [storedEvent({ watermark_pt_id: 1 })],
      routes,
    });
    renderApp('/events#ename=ABCD');
    const dialog = await screen.findByRole('dialog', { name: 'Edit event Summer Gala' });
    const user = userEvent.setup();
    await user.click(await within(dialog).findByRole('tab', { name: 'Watermarks' }));
    const publicTable = await within(dialog).findByRole('table', { name: 'Public templates' });
    await within(publicTable).findByText('Classic');
    expect(
      within(publicTable).getByRole('button', { name: 'Delete template Classic' }),
    ).toBeTruthy();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await user.click(within(dialog).getByRole('button', { name: 'Add template' }));
    await user.click(within(dialog).getByRole('button', { name: 'Edit selected' }));
    expect(open.mock.calls.map((call) => call[0])).toEqual([
      '/templates/?watermark=1',
      '/templates/?tid=1&watermark=1',
    ]);
    const before = installed.callsTo(`${OWNER}/ppt/list/retrieve`).length;
    await user.click(within(dialog).getByRole('button', { name: 'Refresh list' }));
    await waitFor(() =>
      expect(installed.callsTo(`${OWNER}/ppt/list/retrieve`).length).toBeGreaterThan(before),
    );
  });
});
