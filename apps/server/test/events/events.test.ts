import { endpoints, isEventCode, type BodyOf } from '@flashbulb/shared';
import { describe, expect, it } from 'vitest';
import {
  as,
  createEvent,
  errorOf,
  eventWorldPerFile,
  readEvent,
  validEventBody,
  type EventWorld,
} from '../helpers/events.ts';
import type { TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let w: EventWorld;

eventWorldPerFile((app, world) => {
  t = app;
  w = world;
});

const channel = (id: string, name: string, subject = 'Subject', body = 'Body') => ({
  id,
  name,
  type: 'email' as const,
  subject,
  body,
});
const stockImage = (overrides: Record<string, unknown> = {}) => ({
  uid: 'u1',
  imgUrl: 'https://cdn.example/stock/banner.jpg',
  imgTmbUrl: 'https://cdn.example/stock/banner-tmb.jpg',
  imgSize: 120,
  imgTmbSize: 12,
  dateStart: null,
  dateEnd: null,
  policy: {},
  ...overrides,
});

type EventPatch = Partial<BodyOf<typeof endpoints.createEvent>>;

/** Every editor rule (owner-console §5, albums spec §5) with a body that breaks it. */
const refusals: [string, EventPatch, string, string][] = [
  ['title', { full_name: '   ' }, 'title_required', 'full_name'],
  [
    'empty-album text after tags',
    { empty_album_text: '<p> </p>' },
    'emptyText_required',
    'empty_album_text',
  ],
  ['description', { opts: { description: ' ' } }, 'description_required', 'opts.description'],
  ['logo link private IP', { logo_link: 'http://192.168.1.10/x' }, 'valid_url', 'logo_link'],
  [
    'support link private IP',
    { opts: { description: 'd', supportLink: '10.1.2.3/help' } },
    'valid_url',
    'opts.supportLink',
  ],
  [
    'privacy link loopback',
    { lead_params: { privacy_policy_link: 'http://127.0.0.1/privacy' } },
    'valid_privacy_url',
    'lead_params.privacy_policy_link',
  ],
  [
    'copies 21',
    { max_print_copies_count: 21 },
    'photos_copy_count_error',
    'max_print_copies_count',
  ],
  ['copies 0', { max_print_copies_count: 0 }, 'photos_copy_count_error', 'max_print_copies_count'],
  [
    'photos per request 21',
    { max_print_photos_count: 21 },
    'per_request_count_error',
    'max_print_photos_count',
  ],
  [
    'print count not a multiple of placeholders',
    { max_print_photos_count: 5, place_holder_count: 2 },
    'print_count_placeholder_error',
    'max_print_photos_count',
  ],
  ['from address', { email_from_address: '' }, 'address_required', 'email_from_address'],
  [
    'from address format',
    { email_from_address: 'not-an-address' },
    'email_invalid',
    'email_from_address',
  ],
  ['from name', { email_from_name: ' ' }, 'name_required', 'email_from_name'],
  ['body', { email_body_template: '' }, 'body_required', 'email_body_template'],
  [
    'body without {image_url}',
    { email_body_template: 'Hi {user_name}' },
    'body_error',
    'email_body_template',
  ],
  [
    'body without {user_name}',
    { email_body_template: 'See {image_url}' },
    'body_error',
    'email_body_template',
  ],
  [
    'share body',
    { email_body_template_share: 'Look!' },
    'body_share_error',
    'email_body_template_share',
  ],
  ['receipt body', { receipt_email_body: '' }, 'receipt_email_body_required', 'receipt_email_body'],
  [
    'receipt body placeholder',
    { receipt_email_body: 'Thanks' },
    'receipt_email_body_error',
    'receipt_email_body',
  ],
  [
    'photo sharing template',
    { sharing_body_template: '' },
    'sharing_body_required',
    'sharing_body_template',
  ],
  [
    'video sharing template',
    { sharing_video_body_template: ' ' },
    'sharing_video_body_required',
    'sharing_video_body_template',
  ],
  [
    '360 sharing template',
    { sharing_360_body_template: '' },
    'sharing_360_body_required',
    'sharing_360_body_template',
  ],
  [
    'SMS body',
    { is_sms_enabled: 1, sms_body_template: '' },
    'sms_body_required',
    'sms_body_template',
  ],
  [
    'SMS placeholders',
    { is_sms_enabled: 1, sms_body_template: 'Hi {user_name}' },
    'sms_body_error',
    'sms_body_template',
  ],
  [
    'web-app SMS text',
    { opts: { description: 'd', webappSmsEnabled: 1, webappSmsText: ' ' } },
    'webapp_sms_text_required',
    'opts.webappSmsText',
  ],
  [
    'web-app SMS both placeholders',
    { opts: { description: 'd', webappSmsEnabled: 1, webappSmsText: 'Hello' } },
    'webapp_sms_text_placeholders_missing',
    'opts.webappSmsText',
  ],
  [
    'web-app SMS user name',
    { opts: { description: 'd', webappSmsEnabled: 1, webappSmsText: 'Go to {url}' } },
    'webapp_sms_text_user_name_missing',
    'opts.webappSmsText',
  ],
  [
    'web-app SMS link',
    { opts: { description: 'd', webappSmsEnabled: 1, webappSmsText: 'Hi {userName}' } },
    'webapp_sms_text_url_missing',
    'opts.webappSmsText',
  ],
  [
    'stream 1000001',
    { photo_stream_available_minutes: 1_000_001 },
    'max_photo_stream_avl_minutes_error',
    'photo_stream_available_minutes',
  ],
  [
    'stream 0',
    { photo_stream_available_minutes: 0 },
    'max_photo_stream_avl_minutes_error',
    'photo_stream_available_minutes',
  ],
  [
    'auto-delete 29',
    { photo_auto_delete_days: 29 },
    'photo_delete_days_value_error',
    'photo_auto_delete_days',
  ],
  [
    'auto-delete 3001',
    { photo_auto_delete_days: 3001 },
    'photo_delete_days_value_error',
    'photo_auto_delete_days',
  ],
  [
    'auto-delete not after archive',
    { photo_auto_delete_days: 40, instant_archive_days: 40 },
    'photo_delete_days_archive_error',
    'photo_auto_delete_days',
  ],
  [
    'instant archive 0',
    { instant_archive_days: 0 },
    'instant_archive_days_error',
    'instant_archive_days',
  ],
  [
    'slide show max not above min',
    { opts: { description: 'd', slideshowMinIntervalSeconds: 5, slideshowMaxIntervalSeconds: 5 } },
    'slideshow_interval_error',
    'opts.slideshowMaxIntervalSeconds',
  ],
  [
    'slide show interval over an hour',
    {
      opts: {
        description: 'd',
        slideshowMinIntervalSeconds: 3,
        slideshowMaxIntervalSeconds: 2 ** 31,
      },
    },
    'slideshow_interval_too_long',
    'opts.slideshowMaxIntervalSeconds',
  ],
  [
    'file name characters',
    {
      opts: {
        description: 'd',
        stockImages: [stockImage({ imgUrl: 'https://cdn.example/a|b.jpg' })],
      },
    },
    'file_name_invalid',
    'opts.stockImages.0.imgUrl',
  ],
  [
    'stock image tags',
    {
      opts: { description: 'd', stockImages: [stockImage({ policy: { inc: ['ok', 'not ok'] } })] },
    },
    'stock_image_tags_invalid',
    'opts.stockImages.0.policy',
  ],
  [
    'stock image thumbnail',
    { opts: { description: 'd', stockImages: [stockImage({ imgTmbUrl: '' })] } },
    'stock_image_thumbnail_required',
    'opts.stockImages.0.imgTmbUrl',
  ],
  [
    'printer queue name characters',
    { is_printer_pool_enabled: 1, printer_pool_name_list: ['Front desk'] },
    'printer_pool_name_invalid',
    'printer_pool_name_list',
  ],
  [
    'printer queue name 81 characters',
    { is_printer_pool_enabled: 1, printer_pool_name_list: ['P'.repeat(81)] },
    'printer_pool_name_invalid',
    'printer_pool_name_list',
  ],
  [
    'topic keys unique (spaces are underscores)',
    {
      notification_data: {
        topics: [
          { id: 't1', key: 'pick up', emailChannel: null, smsChannel: null },
          { id: 't2', key: 'pick_up', emailChannel: null, smsChannel: null },
        ],
      },
    },
    'topic_key_exists',
    'notification_data.topics.1.key',
  ],
  [
    'channel names unique',
    {
      notification_data: {
        channels: [channel('aaaaaaaaaa', 'Mail'), channel('bbbbbbbbbb', 'Mail')],
      },
    },
    'channel_name_exists',
    'notification_data.channels.1.name',
  ],
  [
    'e-mail channel subject',
    { notification_data: { channels: [channel('aaaaaaaaaa', 'Mail', ' ')] } },
    'channel_email_subject_required',
    'notification_data.channels.0.subject',
  ],
  ['unlock codes', { secret_code_list: 'Ann_Lee_ab12' }, 'unlock_code_invalid', 'secret_code_list'],
  [
    'unlock code names',
    { secret_code_list: 'Ann2_Lee_AB12' },
    'unlock_code_name_invalid',
    'secret_code_list',
  ],
  [
    'report addresses',
    { email_for_reports: 'a@b.example, nope' },
    'email_invalid',
    'email_for_reports',
  ],
  ['time zone', { date_utc_diff_hours: 14 }, 'timezone_invalid', 'date_utc_diff_hours'],
  ['IANA time zone', { time_zone: 'Mars/Olympus' }, 'time_zone_invalid', 'time_zone'],
  [
    'photo delay',
    { opts: { description: 'd', photoDelayMinutes: 121 } },
    'photo_delay_minutes_error',
    'opts.photoDelayMinutes',
  ],
  [
    'VIP pattern needs the attendee pattern',
    { opts: { description: 'd', attendeeIdVipRegex: '^V' } },
    'vip_regex_needs_regex',
    'opts.attendeeIdVipRegex',
  ],
  ['flag values', { is_free: 2 as unknown as 1 }, 'invalid_value', 'is_free'],
];

describe('event create', () => {
  it('creates an event with a 4-character code, three keys and the §9 defaults', async () => {
    const event = await createEvent(t, w.ownerA);
    expect(isEventCode(event.name)).toBe(true);
    expect(event.name).toMatch(/^[A-Z2-9]{4}$/);
    expect(event.organisation_id).toBe(w.orgA.id);
    const keys = [event.owner_api_key, event.private_api_key, event.public_api_key];
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key.length).toBeGreaterThanOrEqual(30);
    expect(event).toMatchObject({
      full_name: 'Summer Gala',
      max_print_copies_count: 1,
      max_print_photos_count: 5,
      is_free: 1,
      printer_pool_name_list: null,
      email_from_address_verified: false,
      secure_fields_set: [],
    });
    expect(event.opts).toMatchObject({
      description: 'The summer gala',
      faceRecognitionConfidence: 95,
      pictureSize: 250,
      eventMultiplier: 1,
    });
    expect(await readEvent(t, w.superUser, event.name)).toEqual(event);
  });

  it('accepts opts, notification data, lead params and the shop address as JSON strings', async () => {
    const event = await createEvent(t, w.adminA, {
      opts: JSON.stringify({ description: 'From a string', pictureSize: 300 }),
      lead_params: JSON.stringify({ show_phone_input_text: 1 }),
      shopify_shipping_address: JSON.stringify({ shopifyCity: 'Lyon' }),
      notification_data: '',
    });
    expect(event.opts.description).toBe('From a string');
    expect(event.opts.pictureSize).toBe(300);
    expect(event.lead_params.show_phone_input_text).toBe(1);
    expect(event.shopify_shipping_address.shopifyCity).toBe('Lyon');
    const bad = await t.call(
      endpoints.createEvent,
      validEventBody({ opts: '{nope' }),
      as(w.adminA),
    );
    expect(errorOf(bad)).toMatchObject({
      status: 400,
      message_key: 'invalid_value',
      field: 'opts',
    });
  });

  it('makes super users name an existing organisation; others create only in their own', async () => {
    const none = await t.call(endpoints.createEvent, validEventBody(), as(w.superUser));
    expect(errorOf(none)).toMatchObject({
      status: 404,
      message_key: 'organisation_not_found',
      field: 'organisation_id',
    });
    const missing = await t.call(
      endpoints.createEvent,
      validEventBody({ organisation_id: 99_999 }),
      as(w.superUser),
    );
    expect(errorOf(missing)).toMatchObject({ status: 404, message_key: 'organisation_not_found' });
    const made = await t.ok(
      endpoints.createEvent,
      validEventBody({ organisation_id: w.orgB.id }),
      as(w.superUser),
    );
    expect(made.organisation_id).toBe(w.orgB.id);
    for (const user of [w.adminA, w.ownerA]) {
      const other = await t.call(
        endpoints.createEvent,
        validEventBody({ organisation_id: w.orgB.id }),
        as(user),
      );
      expect(errorOf(other)).toMatchObject({
        status: 403,
        message_key: 'forbidden',
        field: 'organisation_id',
      });
    }
  });

  it('refuses every rule with its key and field, and creates nothing', async () => {
    const before = await t.ok(endpoints.eventBasicList, {}, as(w.superUser));
    for (const [rule, patch, key, field] of refusals) {
      const response = await t.call(endpoints.createEvent, validEventBody(patch), as(w.adminA));
      expect(errorOf(response), rule).toMatchObject({ message_key: key, field });
      expect(response.statusCode, rule).toBe(400);
    }
    const after = await t.ok(endpoints.eventBasicList, {}, as(w.superUser));
    expect(after.total_count).toBe(before.total_count);
  });
});

describe('event update', () => {
  it('refuses every rule with its key and field, and changes nothing', async () => {
    const event = await createEvent(t, w.adminA);
    for (const [rule, patch, key, field] of refusals) {
      const response = await t.call(
        endpoints.updateEvent,
        { ...patch, id: event.id, event_last_updated_date: event.updated_date },
        as(w.adminA),
      );
      expect(errorOf(response), rule).toMatchObject({ status: 400, message_key: key, field });
    }
    expect(await readEvent(t, w.superUser, event.name)).toEqual(event);
  });

  it('replaces the fields sent and keeps the others', async () => {
    const event = await createEvent(t, w.ownerA, { hash_tag: '#gala', photo_auto_delete_days: 40 });
    const updated = await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: event.updated_date,
        full_name: 'Winter Gala',
        photo_auto_delete_days: null,
      },
      as(w.ownerA),
    );
    expect(updated).toMatchObject({
      full_name: 'Winter Gala',
      hash_tag: '#gala',
      photo_auto_delete_days: null,
      email_from_address: 'photos@gala.example',
      name: event.name,
      owner_api_key: event.owner_api_key,
    });
    expect(updated.opts).toEqual(event.opts);
    expect(new Date(updated.updated_date).getTime()).toBeGreaterThan(
      new Date(event.updated_date).getTime(),
    );
  });

  it('answers 409 to a stale event_last_updated_date and changes nothing', async () => {
    const event = await createEvent(t, w.adminA);
    // Two editors opened the same version; the clock does not move between their saves.
    const first = await t.ok(
      endpoints.updateEvent,
      { id: event.id, event_last_updated_date: event.updated_date, full_name: 'First editor' },
      as(w.adminA),
    );
    const second = await t.call(
      endpoints.updateEvent,
      { id: event.id, event_last_updated_date: event.updated_date, full_name: 'Second editor' },
      as(w.superUser),
    );
    expect(errorOf(second)).toMatchObject({
      status: 409,
      message_key: 'event_was_updated_by_another_user',
    });
    expect(await readEvent(t, w.superUser, event.name)).toEqual(first);
    const garbage = await t.call(
      endpoints.updateEvent,
      { id: event.id, event_last_updated_date: 'yesterday', full_name: 'x' },
      as(w.adminA),
    );
    expect(errorOf(garbage)).toMatchObject({ status: 409 });
    const missing = await t.call(
      endpoints.updateEvent,
      { id: event.id, full_name: 'x' },
      as(w.adminA),
    );
    expect(errorOf(missing)).toMatchObject({ status: 409, field: 'event_last_updated_date' });
    expect(await readEvent(t, w.superUser, event.name)).toEqual(first);
  });

  it('lets exactly one of two simultaneous saves of the same version win', async () => {
    const event = await createEvent(t, w.adminA);
    const results = await Promise.all(
      ['One', 'Two', 'Three'].map((name) =>
        t.call(
          endpoints.updateEvent,
          { id: event.id, event_last_updated_date: event.updated_date, full_name: name },
          as(w.adminA),
        ),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = results.find((r) => r.statusCode === 200)!.body as {
      result: { full_name: string };
    };
    expect((await readEvent(t, w.superUser, event.name)).full_name).toBe(winner.result.full_name);
  });

  it('never moves an event to another organisation', async () => {
    const event = await createEvent(t, w.adminA);
    const moved = await t.call(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: event.updated_date,
        organisation_id: w.orgB.id,
        full_name: 'Moved',
      },
      as(w.superUser),
    );
    expect(errorOf(moved)).toMatchObject({
      status: 403,
      message_key: 'forbidden',
      field: 'organisation_id',
    });
    const same = await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: event.updated_date,
        organisation_id: w.orgA.id,
        full_name: 'Kept',
      },
      as(w.superUser),
    );
    expect(same).toMatchObject({ organisation_id: w.orgA.id, full_name: 'Kept' });
  });

  it('normalises printer pools, topic keys, channel copies and cached topic texts', async () => {
    const mail = channel('aaaaaaaaaa', 'Pickup mail', 'Ready', 'Your prints are ready');
    const event = await createEvent(t, w.adminA, {
      is_photo_printer_active: 1,
      is_printer_pool_enabled: 1,
      printer_pool_name_list: [],
      notification_data: {
        channels: [mail],
        topics: [{ id: 't1', key: 'pick up now', emailChannel: mail, smsChannel: null }],
      },
    });
    expect(event.printer_pool_name_list).toEqual(['Default']);
    expect(event.notification_data.topics[0]?.key).toBe('pick_up_now');
    expect(event.notification_data.cachedTopicsData).toEqual({
      pick_up_now: { emailSubject: 'Ready', emailBody: 'Your prints are ready', SMSMessage: '' },
    });

    // A channel edited in the list reaches every topic that uses it; pools off store null.
    const edited = { ...mail, subject: 'Come and get them' };
    const updated = await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: event.updated_date,
        is_printer_pool_enabled: 0,
        printer_pool_name_list: ['Kiosk-1'],
        notification_data: { ...event.notification_data, channels: [edited] },
      },
      as(w.adminA),
    );
    expect(updated.printer_pool_name_list).toBeNull();
    expect(updated.notification_data.topics[0]?.emailChannel?.subject).toBe('Come and get them');
    expect(updated.notification_data.cachedTopicsData.pick_up_now?.emailSubject).toBe(
      'Come and get them',
    );

    // A removed channel is cleared from its topics.
    const removed = await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: updated.updated_date,
        notification_data: { ...updated.notification_data, channels: [] },
      },
      as(w.adminA),
    );
    expect(removed.notification_data.topics[0]?.emailChannel).toBeNull();
    expect(removed.notification_data.cachedTopicsData.pick_up_now).toEqual({
      emailSubject: '',
      emailBody: '',
      SMSMessage: '',
    });
  });
});

describe('secure fields', () => {
  it('are encrypted at rest, named but never shown by reads, and kept when sent empty', async () => {
    const event = await createEvent(t, w.adminA, {
      stripe_secret_key: 'sk_live_plaintext_stripe',
      monobank_token: 'mono-plaintext-token',
    });
    expect(event.secure_fields_set).toEqual(['stripe_secret_key', 'monobank_token']);
    expect(JSON.stringify(event)).not.toContain('plaintext');

    const { rows } = await t.database.executeSql('select * from events where id = $1', [event.id]);
    const raw = JSON.stringify(rows[0]);
    expect(raw).not.toContain('sk_live_plaintext_stripe');
    expect(raw).not.toContain('mono-plaintext-token');
    expect(raw).not.toContain(event.owner_api_key);
    expect(raw).not.toContain(event.private_api_key);

    const updated = await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: event.updated_date,
        stripe_secret_key: '',
        shopify_api_key: 'shop-key-2',
      },
      as(w.adminA),
    );
    expect(updated.secure_fields_set).toEqual([
      'shopify_api_key',
      'stripe_secret_key',
      'monobank_token',
    ]);
    const secure = await t.ok(endpoints.secureProps, { event_name: event.name }, as(w.adminA));
    expect(secure).toEqual({
      shopify_api_pass: '',
      shopify_api_key: 'shop-key-2',
      stripe_secret_key: 'sk_live_plaintext_stripe',
      flashbulb_api_token: '',
      monobank_token: 'mono-plaintext-token',
      square_access_token: '',
      kiosk_staff_pin: '',
    });
    const bySuper = await t.ok(
      endpoints.secureProps,
      { event_name: event.name.toLowerCase() },
      as(w.superUser),
    );
    expect(bySuper.monobank_token).toBe('mono-plaintext-token');
  });

  it('are refused to event owners, even for their own event', async () => {
    const event = await createEvent(t, w.ownerA, { stripe_secret_key: 'sk_owner_secret' });
    const response = await t.call(endpoints.secureProps, { event_name: event.name }, as(w.ownerA));
    expect(errorOf(response)).toMatchObject({ status: 403, message_key: 'forbidden' });
    expect(JSON.stringify(response.body)).not.toContain('sk_owner_secret');
  });
});

describe('event lists, reads and delete', () => {
  it('the list says where the kiosk stream is offered: switched on, and leads collected', async () => {
    const on = await createEvent(t, w.adminA, {
      full_name: 'Stream on',
      collect_leads: 1,
      opts: { description: 'x', kioskStreamEnabled: 1 },
    });
    const off = await createEvent(t, w.adminA, { full_name: 'Stream off', collect_leads: 1 });
    const noLeads = await createEvent(t, w.adminA, {
      full_name: 'Stream without leads',
      collect_leads: 0,
      opts: { description: 'x', kioskStreamEnabled: 1 },
    });
    const list = await t.ok(endpoints.eventBasicList, {}, as(w.adminA));
    const offered = (name: string) =>
      list.events.find((e) => e.name === name)?.kiosk_stream_enabled;
    expect(offered(on.name)).toBe(true);
    expect(offered(off.name)).toBe(false);
    expect(offered(noLeads.name)).toBe(false);
  });

  it('lists what each role may see, filtered by visibility and private key', async () => {
    const mine = await createEvent(t, w.ownerA, { full_name: 'Owner A event' });
    const hidden = await createEvent(t, w.adminA, { full_name: 'Hidden A', is_visible: 0 });
    const inB = await createEvent(t, w.adminB, { full_name: 'B event' });

    const ownerList = await t.ok(
      endpoints.eventBasicList,
      { max_size: 5000, page_number: 1 },
      as(w.ownerA),
    );
    expect(ownerList.events.every((e) => e.organisation_id === w.orgA.id)).toBe(true);
    const ownerNames = ownerList.events.map((e) => e.name);
    expect(ownerNames).toContain(mine.name);
    expect(ownerNames).not.toContain(hidden.name);

    const adminList = await t.ok(endpoints.eventBasicList, {}, as(w.adminA));
    expect(adminList.events.map((e) => e.name)).toEqual(
      expect.arrayContaining([mine.name, hidden.name]),
    );
    expect(adminList.events.map((e) => e.name)).not.toContain(inB.name);
    expect(adminList.total_count).toBe(adminList.events.length);

    const hiddenOnly = await t.ok(endpoints.eventBasicList, { visibility: 'hidden' }, as(w.adminA));
    expect(hiddenOnly.events.map((e) => e.name)).toEqual([hidden.name]);
    const visibleOnly = await t.ok(
      endpoints.eventBasicList,
      { visibility: 'visible' },
      as(w.adminA),
    );
    expect(visibleOnly.events.map((e) => e.name)).not.toContain(hidden.name);

    const byKey = await t.ok(
      endpoints.eventBasicList,
      { private_api_key: inB.private_api_key },
      as(w.superUser),
    );
    expect(byKey.events).toEqual([
      expect.objectContaining({ name: inB.name, full_name: 'B event' }),
    ]);
    const otherOrgKey = await t.ok(
      endpoints.eventBasicList,
      { private_api_key: inB.private_api_key },
      as(w.adminA),
    );
    expect(otherOrgKey).toEqual({ events: [], total_count: 0 });

    const page = await t.ok(
      endpoints.eventBasicList,
      { max_size: 1, page_number: 2 },
      as(w.superUser),
    );
    expect(page.events).toHaveLength(1);
    const all = await t.ok(endpoints.eventBasicList, {}, as(w.superUser));
    expect(page.events[0]).toEqual(all.events[1]);
    const tooBig = await t.call(endpoints.eventBasicList, { max_size: 5001 }, as(w.superUser));
    expect(errorOf(tooBig)).toMatchObject({ status: 400, field: 'max_size' });
  });

  it('reads the full event by code as an array and deletes it', async () => {
    const event = await createEvent(t, w.ownerA);
    const [read] = await t.ok(
      endpoints.eventFullData,
      { event_name: event.name.toLowerCase() },
      as(w.ownerA),
    );
    expect(read).toEqual(event);
    await t.ok(endpoints.deleteEvent, { event_id: event.id }, as(w.ownerA));
    const gone = await t.call(endpoints.eventFullData, { event_name: event.name }, as(w.superUser));
    expect(errorOf(gone)).toMatchObject({ status: 404, message_key: 'event_not_found' });
    const again = await t.call(endpoints.deleteEvent, { event_id: event.id }, as(w.ownerA));
    expect(errorOf(again)).toMatchObject({ status: 404, message_key: 'event_not_found' });
  });

  it('answers 401 to every event call without a valid Authorization', async () => {
    const calls: [(typeof endpoints)[keyof typeof endpoints], Record<string, unknown>][] = [
      [endpoints.createEvent, validEventBody()],
      [endpoints.updateEvent, { id: 1, event_last_updated_date: 'x' }],
      [endpoints.deleteEvent, { event_id: 1 }],
      [endpoints.eventBasicList, {}],
      [endpoints.eventFullData, { event_name: 'ABCD' }],
      [endpoints.secureProps, { event_name: 'ABCD' }],
      [endpoints.robotList, {}],
      [endpoints.createRobot, { organisation_id: 1, name: 'r' }],
      [endpoints.imageProcessList, {}],
      [endpoints.autoPrintProcesses, { event_id: 1 }],
      [endpoints.pptList, {}],
      [endpoints.deletePpt, { id: 1 }],
      [endpoints.stockImageList, { event_id: 1 }],
      [endpoints.createIgnoredFace, { event_id: 1, full_path: 'a.jpg' }],
      [endpoints.listIgnoredFaces, { event_id: 1 }],
      [endpoints.deleteIgnoredFaces, { event_id: 1, ids: [1] }],
      [endpoints.shareBucketUploadAccess, { relativeFilePath: 'a.png' }],
      [endpoints.shareBucketInvalidateCache, {}],
    ];
    for (const [endpoint, body] of calls) {
      for (const authorization of [undefined, 'Bearer not-a-token', 'fbk_unknown_key']) {
        const response = await t.call(endpoint, body, authorization ? { authorization } : {});
        expect(errorOf(response), `${endpoint.path} ${authorization}`).toMatchObject({
          status: 401,
          message_key: 'unauthorized_user',
        });
      }
    }
  });
});
