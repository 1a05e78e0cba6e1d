import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  defaultEventOpts,
  notificationDataSchema,
  type FlashbulbEvent,
  type NotificationData,
} from '@flashbulb/shared';
import {
  installConsoleApi,
  OWNER,
  storedEvent,
  superUser,
} from '../../../../test/event-fixtures.ts';
import { renderEventEditor } from '../../../../test/event-editor.tsx';

const UPDATE = `${OWNER}/event/update`;

const PROTECTION = `${OWNER}/event/preview-protection/retrieve`;
const PROTECTION_RESTART = `${OWNER}/event/preview-protection/restart`;

const openEdit = async (
  event: FlashbulbEvent,
  user = superUser,
  routes: NonNullable<Parameters<typeof installConsoleApi>[0]>['routes'] = {},
) => {
  const api = installConsoleApi({
    user,
    events: [event],
    routes: { [UPDATE]: { ok: event }, ...routes },
  });
  const dialog = await renderEventEditor(event, user);
  const u = userEvent.setup();
  const update = async () => {
    await u.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    return api.callsTo(UPDATE)[0]?.body as Record<string, unknown> & {
      notification_data: NotificationData;
      opts: Record<string, unknown>;
    };
  };
  return { api, dialog, user: u, update };
};

const mailChannel = {
  id: 'abcdefghij',
  name: 'Welcome mail',
  type: 'email' as const,
  subject: 'Hello',
  body: 'Welcome!',
};
const notificationData = (): NotificationData =>
  notificationDataSchema.parse({
    channels: [mailChannel],
    topics: [{ id: 't1', key: 'welcome', emailChannel: mailChannel, smsChannel: null }],
  });

describe('notifications tab', () => {
  it('edits a channel inside every topic using it and recomputes the cached texts', async () => {
    const e = await openEdit(storedEvent({ notification_data: notificationData() }));
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Notifications' }));
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Edit Welcome mail' }));
    const form = within(e.dialog).getByTestId('channel-form');
    const subject = within(form).getByLabelText('Subject');
    await e.user.clear(subject);
    await e.user.type(subject, 'Hi there');
    await e.user.click(within(form).getByRole('button', { name: 'Save channel' }));
    // Back to the tables.
    expect(within(e.dialog).queryByTestId('channel-form')).toBeNull();
    const body = await e.update();
    expect(body.notification_data.topics[0]?.emailChannel?.subject).toBe('Hi there');
    expect(body.notification_data.cachedTopicsData).toEqual({
      welcome: { emailSubject: 'Hi there', emailBody: 'Welcome!', SMSMessage: '' },
    });
  });

  it('removing a channel clears it from every topic', async () => {
    const e = await openEdit(storedEvent({ notification_data: notificationData() }));
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Notifications' }));
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Remove Welcome mail' }));
    const body = await e.update();
    expect(body.notification_data.channels).toEqual([]);
    expect(body.notification_data.topics[0]?.emailChannel).toBeNull();
    expect(body.notification_data.cachedTopicsData.welcome?.emailSubject).toBe('');
  });

  it('turns spaces of a topic key into underscores, checks uniqueness, and adds new rows on top', async () => {
    const e = await openEdit(storedEvent({ notification_data: notificationData() }));
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Notifications' }));
    await e.user.click(within(e.dialog).getByRole('button', { name: 'New topic' }));
    const form = within(e.dialog).getByTestId('topic-form');
    const key = within(form).getByLabelText<HTMLInputElement>('Topic key');
    await e.user.click(within(form).getByRole('button', { name: 'Save topic' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please enter the topic key');
    await e.user.type(key, 'welcome');
    await e.user.click(within(form).getByRole('button', { name: 'Save topic' }));
    expect(within(form).getByRole('alert').textContent).toBe(
      'A topic with this key already exists',
    );
    await e.user.clear(key);
    await e.user.type(key, 'pick up ready');
    await e.user.paste(' now');
    expect(key.value).toBe('pick_up_ready_now');
    await e.user.click(within(form).getByRole('button', { name: 'Save topic' }));
    const table = within(e.dialog).getByRole('table', { name: 'Topics' });
    const keys = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('td')?.textContent);
    expect(keys).toEqual(['pick_up_ready_now', 'welcome']);
  });

  it('offers the topic keys the product sends, each with what it is for; one picked is saved', async () => {
    const e = await openEdit(storedEvent({ notification_data: notificationData() }));
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Notifications' }));
    await e.user.click(within(e.dialog).getByRole('button', { name: 'New topic' }));
    const form = within(e.dialog).getByTestId('topic-form');
    const key = within(form).getByLabelText<HTMLInputElement>('Topic key');
    await e.user.click(key);
    // The key input's own list (the channel selects have theirs).
    await waitFor(() => expect(key.getAttribute('aria-controls')).toBeTruthy());
    const listbox = document.getElementById(key.getAttribute('aria-controls')!)!;
    const options = await within(listbox).findAllByRole('option', { hidden: true });
    expect(options.map((o) => o.getAttribute('value') ?? o.textContent)).toEqual([
      'photo_ready',
      'album_unlocked',
      'print_ready',
      'payment_receipt',
      'attendee_reminder',
    ]);
    expect(options[0]?.textContent).toContain('A photo in an attendee’s album is ready');
    await e.user.click(options[0]!);
    expect(key.value).toBe('photo_ready');
    await e.user.click(within(form).getByRole('button', { name: 'Save topic' }));
    const body = await e.update();
    expect(body.notification_data.topics.map((topic) => topic.key)).toEqual([
      'photo_ready',
      'welcome',
    ]);
  });

  it('creates an SMS channel with a 10-character id, showing the first failing check', async () => {
    const e = await openEdit(storedEvent({ notification_data: notificationData() }));
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Notifications' }));
    await e.user.click(within(e.dialog).getByRole('button', { name: 'New channel' }));
    const form = within(e.dialog).getByTestId('channel-form');
    await e.user.type(within(form).getByLabelText('Channel name'), 'Welcome mail');
    await e.user.click(within(form).getByRole('button', { name: 'Save channel' }));
    expect(within(form).getByRole('alert').textContent).toBe(
      'A channel with this name already exists',
    );
    await e.user.type(within(form).getByLabelText('Channel name'), ' SMS');
    await e.user.click(within(form).getByText('SMS'));
    expect(within(form).queryByLabelText('Subject')).toBeNull();
    await e.user.click(within(form).getByRole('button', { name: 'Save channel' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please enter the SMS message');
    await e.user.type(within(form).getByLabelText('Message'), 'Ready at the desk');
    await e.user.click(within(form).getByRole('button', { name: 'Save channel' }));
    await e.user.type(within(e.dialog).getByLabelText('SMS sender (From)'), 'Flashbulb');
    const body = await e.update();
    const created = body.notification_data.channels[0];
    expect(created).toMatchObject({
      name: 'Welcome mail SMS',
      type: 'sms',
      message: 'Ready at the desk',
    });
    expect(created?.id).toMatch(/^[0-9a-z]{10}$/);
    expect(body.notification_data.smsSettings.from).toBe('Flashbulb');
  });
});

describe('paid tab: employee unlock codes', () => {
  it('generates 4-character codes, shows a QR code per complete row, stores first_last_code', async () => {
    const e = await openEdit(storedEvent({ secret_code_list: 'Ann_Lee_AB12' }));
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Paid' }));
    expect(within(e.dialog).getAllByTestId('unlock-code-row')).toHaveLength(1);
    const qr = await within(e.dialog).findByTestId('unlock-code-qr');
    expect(decodeURIComponent(qr.getAttribute('src') ?? '')).toContain('width="500"');

    await e.user.click(within(e.dialog).getByRole('button', { name: 'Add employee' }));
    await e.user.type(within(e.dialog).getByLabelText('First name, row 2'), 'Bob');
    await e.user.type(within(e.dialog).getByLabelText('Last name, row 2'), 'Ray');
    const generate = within(e.dialog).getAllByRole('button', { name: 'Generate' })[1]!;
    await e.user.click(generate);
    const code = within(e.dialog).getByLabelText<HTMLInputElement>('Code, row 2').value;
    expect(code).toMatch(/^[A-Z0-9]{4}$/);
    await e.user.click(generate);
    expect(within(e.dialog).getAllByTestId('unlock-code-qr')).toHaveLength(2);
    // An incomplete row does not count.
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Add employee' }));
    await e.user.type(within(e.dialog).getByLabelText('First name, row 3'), 'Cy');
    const body = await e.update();
    const entries = String(body.secret_code_list).split(',');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toBe('Ann_Lee_AB12');
    expect(entries[1]).toMatch(/^Bob_Ray_[A-Z0-9]{4}$/);
  });
});

describe('paid tab: protected previews', () => {
  it('shows the job’s progress, asks again while it runs, and offers "Try again" when photos are left', async () => {
    const event = storedEvent({ is_free: 0 });
    let restarted = false;
    const e = await openEdit(event, superUser, {
      // Failed until "Try again" restarts the job, then (asked again) done.
      [PROTECTION]: () => ({
        ok: restarted
          ? { state: 'done', done: 1200, total: 1200 }
          : { state: 'failed', done: 340, total: 1200 },
      }),
      [PROTECTION_RESTART]: () => {
        restarted = true;
        return { ok: { state: 'running', done: 341, total: 1200 } };
      },
    });
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Paid' }));
    const panel = await within(e.dialog).findByRole('region', { name: 'Protected previews' });
    expect((await within(panel).findByRole('status')).textContent).toBe(
      'Previews protected: 340 / 1,200 — some photos could not be protected.',
    );
    await e.user.click(within(panel).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(e.api.callsTo(PROTECTION_RESTART)).toHaveLength(1));
    const asked = e.api.callsTo(PROTECTION).length;
    expect(e.api.callsTo(PROTECTION_RESTART)[0]!.body).toEqual({ event_id: event.id });
    expect(within(panel).getByRole('status').textContent).toBe('Protecting previews: 341 / 1,200');
    // While it runs the console asks again (every 2 s) until the job is done.
    await waitFor(
      () =>
        expect(within(panel).getByRole('status').textContent).toBe(
          'Previews protected: 1,200 / 1,200',
        ),
      { timeout: 6000 },
    );
    expect(e.api.callsTo(PROTECTION).length).toBeGreaterThan(asked);
  });

  it('says nothing about protection for a free event', async () => {
    const e = await openEdit(storedEvent({ is_free: 1 }));
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Paid' }));
    await within(e.dialog).findByLabelText('Protector watermark');
    expect(within(e.dialog).queryByRole('region', { name: 'Protected previews' })).toBeNull();
    expect(e.api.callsTo(PROTECTION)).toHaveLength(0);
  });
});

describe('stock images tab', () => {
  it('edits date windows and tag policies; all disables the tags; a row without thumbnail is flagged', async () => {
    const e = await openEdit(
      storedEvent({
        stock_images_enable: 1,
        opts: {
          ...defaultEventOpts(),
          stockImagesEnable: true,
          stockImages: [
            {
              uid: 'u1',
              imgUrl: 'https://cdn.example.com/a.jpg',
              imgTmbUrl: '',
              imgSize: 120,
              imgTmbSize: 0,
              dateStart: null,
              dateEnd: null,
              policy: { inc: ['vip'] },
            },
          ],
        },
      }),
    );
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Stock images' }));
    expect(within(e.dialog).getByText('Need custom thumbnail!')).toBeTruthy();
    const tags = within(e.dialog).getByLabelText<HTMLInputElement>('Tags, row 1');
    expect(tags.placeholder).toBe('comma-separated list of tags');
    expect(tags.value).toBe('vip');
    await e.user.click(within(e.dialog).getByRole('radio', { name: 'All' }));
    expect(tags.disabled).toBe(true);
    await e.user.click(within(e.dialog).getByRole('radio', { name: 'Exclude' }));
    await e.user.clear(tags);
    await e.user.type(tags, 'staff, crew');
    await e.user.type(within(e.dialog).getByLabelText('Shown from, row 1'), '2026-12-01 09:00');
    await e.user.type(
      within(e.dialog).getByLabelText('Thumbnail URL, row 1'),
      'https://cdn.example.com/a-t.jpg',
    );
    const body = await e.update();
    expect(body.opts.stockImages).toEqual([
      expect.objectContaining({
        imgTmbUrl: 'https://cdn.example.com/a-t.jpg',
        dateStart: '2026-12-01 09:00',
        policy: { exc: ['staff', 'crew'] },
      }),
    ]);
    expect(body.opts.stockImagesEnable).toBe(true);
  });

  it('refuses a row without a thumbnail and a badly typed date', async () => {
    const e = await openEdit(storedEvent());
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Stock images' }));
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Add stock image' }));
    await e.user.type(within(e.dialog).getByLabelText('Shown until, row 1'), 'tomorrow');
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Update' }));
    const popup = await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(within(popup).getByText('Need custom thumbnail!')).toBeTruthy();
    expect(within(popup).getByText('Use the format YYYY-MM-DD HH:mm')).toBeTruthy();
    expect(e.api.callsTo(UPDATE)).toHaveLength(0);
  });

  it('uploads an image and its thumbnail with a grant from the owner key, then stores URLs and sizes', async () => {
    const grant = (key: string) => ({
      url: '/storage/flashbulb',
      fields: { key, policy: 'p' },
      key,
      public_url: `/storage/flashbulb/${key}`,
    });
    const event = storedEvent();
    const api = installConsoleApi({
      user: superUser,
      events: [event],
      routes: {
        [UPDATE]: { ok: event },
        '/event/stock-image-upload-access/retrieve': (body) => ({
          ok: grant(
            (body as { is_thumbnail: boolean }).is_thumbnail ? 'stock/t.png' : 'stock/i.jpg',
          ),
        }),
        '/storage/flashbulb': { raw: '', status: 201 },
      },
    });
    const dialog = await renderEventEditor(storedEvent(), superUser);
    const user = userEvent.setup();
    await user.click(await within(dialog).findByRole('tab', { name: 'Stock images' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add stock image' }));
    await user.upload(
      within(dialog).getByLabelText('Upload image, row 1'),
      new File([new Uint8Array(3 * 1024)], 'Beach Day.JPG', { type: 'image/jpeg' }),
    );
    await waitFor(() =>
      expect(within(dialog).getByLabelText<HTMLInputElement>('Image URL, row 1').value).toBe(
        '/storage/flashbulb/stock/i.jpg',
      ),
    );
    await user.upload(
      within(dialog).getByLabelText('Upload thumbnail, row 1'),
      new File([new Uint8Array(1024)], 'thumb.png', { type: 'image/png' }),
    );
    await within(dialog).findByRole('img', { name: 'Thumbnail, row 1' });
    expect(within(dialog).queryByText('Need custom thumbnail!')).toBeNull();
    expect(within(dialog).getByText('3 KB, thumbnail 1 KB')).toBeTruthy();

    const grants = api.callsTo('/event/stock-image-upload-access/retrieve');
    expect(grants[0]?.body).toMatchObject({
      key_type: 'event_owner',
      key_value: 'owner-key',
      event_name: 'ABCD',
      is_thumbnail: false,
    });
    expect((grants[0]?.body as { file_name: string }).file_name).toMatch(/^[0-9a-z]{12}\.jpg$/);
    expect(grants[0]?.headers.has('authorization')).toBe(false);
    expect(api.callsTo('/storage/flashbulb')).toHaveLength(2);

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    const body = api.callsTo(UPDATE)[0]?.body as { opts: { stockImages: unknown[] } };
    expect(body.opts.stockImages[0]).toMatchObject({
      imgUrl: '/storage/flashbulb/stock/i.jpg',
      imgSize: 3,
      imgTmbUrl: '/storage/flashbulb/stock/t.png',
      imgTmbSize: 1,
    });
  });

  it('makes a row’s thumbnail on the server from its uploaded image, with the owner key', async () => {
    const e = await openEdit(
      storedEvent({
        opts: {
          ...defaultEventOpts(),
          stockImages: [
            {
              uid: 'u1',
              imgUrl: '/storage/flashbulb/stock/i.jpg',
              imgTmbUrl: '',
              imgSize: 120,
              imgTmbSize: 0,
              dateStart: null,
              dateEnd: null,
              policy: {},
            },
          ],
        },
      }),
      superUser,
      {
        '/event/thumbnail-for-stock-image/create': {
          ok: { imgUrl: '/storage/flashbulb/stock/i-tmb.jpg', imgSize: 14 },
        },
      },
    );
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Stock images' }));
    expect(within(e.dialog).getByText('Need custom thumbnail!')).toBeTruthy();
    await e.user.click(
      within(e.dialog).getByRole('button', { name: 'Make the thumbnail from the image, row 1' }),
    );
    await within(e.dialog).findByRole('img', { name: 'Thumbnail, row 1' });
    expect(e.api.callsTo('/event/thumbnail-for-stock-image/create')[0]?.body).toMatchObject({
      key_type: 'event_owner',
      key_value: 'owner-key',
      event_name: 'ABCD',
      image_url: '/storage/flashbulb/stock/i.jpg',
    });
    const body = await e.update();
    expect(body.opts.stockImages).toEqual([
      expect.objectContaining({ imgTmbUrl: '/storage/flashbulb/stock/i-tmb.jpg', imgTmbSize: 14 }),
    ]);
  });

  it('copies another event’s stock images as new rows, saved with this event', async () => {
    const other = storedEvent({ id: 8, name: 'EFGH', full_name: 'Winter Ball' });
    const image = {
      uid: 'from-other',
      imgUrl: '/storage/flashbulb/stock/w.jpg',
      imgTmbUrl: '/storage/flashbulb/stock/w-t.jpg',
      imgSize: 200,
      imgTmbSize: 20,
      dateStart: null,
      dateEnd: null,
      policy: { inc: ['vip'] },
    };
    const event = storedEvent();
    const api = installConsoleApi({
      user: superUser,
      events: [event, other],
      routes: {
        [UPDATE]: { ok: event },
        [`${OWNER}/stock-image/list/retrieve`]: {
          ok: { stock_images_enable: true, stock_images: [image] },
        },
      },
    });
    const dialog = await renderEventEditor(storedEvent(), superUser);
    const user = userEvent.setup();
    await user.click(await within(dialog).findByRole('tab', { name: 'Stock images' }));
    await user.click(within(dialog).getByRole('textbox', { name: /Copy the stock images/ }));
    await user.click(
      await screen.findByRole('option', { name: 'Winter Ball (EFGH)', hidden: true }),
    );
    // This event is not offered as its own source.
    expect(screen.queryByRole('option', { name: /Summer Gala/, hidden: true })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(
      await within(dialog).findByText('1 stock image copied; save the event to keep it'),
    ).toBeTruthy();
    expect(api.callsTo(`${OWNER}/stock-image/list/retrieve`)[0]?.body).toEqual({ event_id: 8 });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Image URL, row 1').value).toBe(
      image.imgUrl,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    const body = api.callsTo(UPDATE)[0]?.body as { opts: { stockImages: { uid: string }[] } };
    expect(body.opts.stockImages).toEqual([
      { ...image, uid: expect.not.stringMatching(/^from-other$/) as unknown },
    ]);
  });

  it('refuses a file type that stock images cannot have, before asking for a grant', async () => {
    const e = await openEdit(storedEvent());
    await e.user.click(within(e.dialog).getByRole('tab', { name: 'Stock images' }));
    await e.user.click(within(e.dialog).getByRole('button', { name: 'Add stock image' }));
    const input = within(e.dialog).getByLabelText<HTMLInputElement>('Upload image, row 1');
    input.removeAttribute('accept');
    await e.user.upload(input, new File(['x'], 'notes.gif', { type: 'image/gif' }));
    expect(await within(e.dialog).findByText('Invalid or unsupported picture format')).toBeTruthy();
  });
});
