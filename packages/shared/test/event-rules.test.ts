import { describe, expect, it } from 'vitest';
import {
  computeCachedTopicsData,
  defaultEventSettings,
  EVENT_CODE_ALPHABET,
  eventCodeFromHash,
  eventSettingsSchema,
  FORBIDDEN_FILE_NAME_CHARS,
  isEventCode,
  isValidFileName,
  isValidPublicUrl,
  normaliseTopicKey,
  parseUnlockCodes,
  syncTopicsWithChannels,
  type EventSettings,
  type NotificationChannel,
} from '../src/index.ts';

/** A complete event that passes every rule. */
const base = (): EventSettings => {
  const d = defaultEventSettings();
  return {
    ...d,
    full_name: 'Summer Gala',
    email_from_address: 'photos@gala.example',
    opts: { ...d.opts, description: 'The summer gala' },
  };
};

type Patch = Partial<Omit<EventSettings, 'opts' | 'lead_params' | 'notification_data'>> & {
  opts?: Partial<EventSettings['opts']>;
  lead_params?: Partial<EventSettings['lead_params']>;
  notification_data?: Partial<EventSettings['notification_data']>;
};

/** `field:key` of every problem of the event with `patch` applied (empty = accepted). */
const problems = (patch: Patch): string[] => {
  const b = base();
  const event = {
    ...b,
    ...patch,
    opts: { ...b.opts, ...patch.opts },
    lead_params: { ...b.lead_params, ...patch.lead_params },
    notification_data: { ...b.notification_data, ...patch.notification_data },
  };
  const result = eventSettingsSchema.safeParse(event);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

const accepted = (patch: Patch) => expect(problems(patch)).toEqual([]);
const refused = (patch: Patch, problem: string) => expect(problems(patch)).toEqual([problem]);

describe('the base event', () => {
  it('passes, and the defaults alone miss exactly title, from address and description', () => {
    accepted({});
    expect(
      eventSettingsSchema.safeParse(defaultEventSettings()).error?.issues.map((i) => i.message),
    ).toEqual(['title_required', 'description_required', 'address_required']);
  });
});

describe('general', () => {
  it('needs a title, an empty-album text after tag removal and a description', () => {
    refused({ full_name: '  ' }, 'full_name:title_required');
    refused({ empty_album_text: '<p>&nbsp;</p>' }, 'empty_album_text:emptyText_required');
    accepted({ empty_album_text: '<p>Soon</p>' });
    refused({ opts: { description: ' ' } }, 'opts.description:description_required');
  });

  it.each([
    ['http://10.0.0.1/x', false],
    ['10.20.30.40', false],
    ['http://172.16.0.1', false],
    ['http://172.31.255.255', false],
    ['http://172.15.0.1', true],
    ['http://172.32.0.1', true],
    ['http://192.168.1.1', false],
    ['http://127.0.0.1:8080', false],
    ['http://169.254.169.254/latest', false],
    ['http://[::1]/', false],
    ['http://localhost/x', false],
    ['intranet', false],
    ['javascript:alert(1)', false],
    ['example.com/privacy', true],
    ['https://example.com/privacy', true],
    ['ftp://files.example.com/a', true],
    ['http://8.8.8.8/', true],
  ])('links: %s → %s', (url, ok) => {
    expect(isValidPublicUrl(url)).toBe(ok);
    const logo = problems({ logo_link: url });
    const support = problems({ opts: { supportLink: url } });
    const privacy = problems({ lead_params: { privacy_policy_link: url } });
    if (ok) {
      expect([...logo, ...support, ...privacy]).toEqual([]);
    } else {
      expect(logo).toEqual(['logo_link:valid_url']);
      expect(support).toEqual(['opts.supportLink:valid_url']);
      expect(privacy).toEqual(['lead_params.privacy_policy_link:valid_privacy_url']);
    }
  });

  it('accepts empty links (the lead defaults apply)', () => {
    accepted({
      logo_link: ' ',
      lead_params: { privacy_policy_link: '' },
      opts: { supportLink: '' },
    });
  });

  it('checks report addresses, attendee patterns and the time zone', () => {
    accepted({ email_for_reports: 'a@b.example, c@d.example' });
    refused({ email_for_reports: 'a@b.example, nope' }, 'email_for_reports:email_invalid');
    refused({ opts: { attendeeIdRegex: '([' } }, 'opts.attendeeIdRegex:regex_invalid');
    refused(
      { opts: { attendeeIdVipRegex: '^V' } },
      'opts.attendeeIdVipRegex:vip_regex_needs_regex',
    );
    accepted({ opts: { attendeeIdRegex: '^A\\d+$', attendeeIdVipRegex: '^V' } });
    accepted({ date_utc_diff_hours: -12 });
    accepted({ date_utc_diff_hours: 13 });
    refused({ date_utc_diff_hours: -13 }, 'date_utc_diff_hours:timezone_invalid');
    refused({ date_utc_diff_hours: 14 }, 'date_utc_diff_hours:timezone_invalid');
    accepted({ time_zone: 'Europe/Berlin' });
    accepted({ time_zone: '' });
    refused({ time_zone: 'Mars/Olympus' }, 'time_zone:time_zone_invalid');
    refused({ time_zone: '+02:00' }, 'time_zone:time_zone_invalid');
  });
});

describe('printing', () => {
  it.each([
    [0, false],
    [1, true],
    [20, true],
    [21, false],
  ])('copies and photos per request of %i (ok: %s)', (n, ok) => {
    if (ok) accepted({ max_print_copies_count: n, max_print_photos_count: n });
    else {
      refused({ max_print_copies_count: n }, 'max_print_copies_count:photos_copy_count_error');
      refused({ max_print_photos_count: n }, 'max_print_photos_count:per_request_count_error');
    }
  });

  it('needs the print count to be a multiple of the placeholder count', () => {
    accepted({ max_print_photos_count: 4, place_holder_count: 2 });
    accepted({ max_print_photos_count: 20, place_holder_count: 4 });
    refused(
      { max_print_photos_count: 5, place_holder_count: 2 },
      'max_print_photos_count:print_count_placeholder_error',
    );
  });

  it('checks printer queue names: up to 80 letters, digits, - and _, case-sensitive, once each', () => {
    const pools = (names: string[]): Patch => ({
      is_printer_pool_enabled: 1,
      printer_pool_name_list: names,
    });
    accepted(pools(['P'.repeat(80), 'kiosk-1', 'Kiosk_1', 'kiosk_1']));
    for (const bad of ['P'.repeat(81), 'front desk', 'desk.1', 'café', 'a/b', ''])
      refused(pools([bad]), 'printer_pool_name_list:printer_pool_name_invalid');
    refused(pools(['Kiosk', 'Kiosk']), 'printer_pool_name_list:printer_pool_name_duplicate');
    // Pools off: the names are not used, so not judged.
    accepted({ is_printer_pool_enabled: 0, printer_pool_name_list: ['front desk'] });
    refused(
      { opts: { storiesPrintPool: 'story pool' } },
      'opts.storiesPrintPool:printer_pool_name_invalid',
    );
  });
});

describe('e-mail, sharing and SMS templates', () => {
  it('needs from address and name', () => {
    refused({ email_from_address: '' }, 'email_from_address:address_required');
    refused({ email_from_address: 'nope' }, 'email_from_address:email_invalid');
    refused({ email_from_name: ' ' }, 'email_from_name:name_required');
  });

  it('needs {user_name} and {image_url} in the body', () => {
    accepted({ email_body_template: '{user_name} {image_url}' });
    refused({ email_body_template: '' }, 'email_body_template:body_required');
    refused({ email_body_template: '{user_name}' }, 'email_body_template:body_error');
    refused({ email_body_template: '{image_url}' }, 'email_body_template:body_error');
    refused({ email_body_template: '{userName} {imageUrl}' }, 'email_body_template:body_error');
  });

  it('needs {image_url} in the share body and {user_name} in the receipt', () => {
    accepted({ email_body_template_share: 'See {image_url}' });
    refused({ email_body_template_share: '' }, 'email_body_template_share:body_share_error');
    refused(
      { email_body_template_share: 'See {user_name}' },
      'email_body_template_share:body_share_error',
    );
    accepted({ receipt_email_body: 'Thanks {user_name}' });
    refused({ receipt_email_body: ' ' }, 'receipt_email_body:receipt_email_body_required');
    refused({ receipt_email_body: 'Thanks' }, 'receipt_email_body:receipt_email_body_error');
  });

  it('needs the three sharing templates', () => {
    refused({ sharing_body_template: '' }, 'sharing_body_template:sharing_body_required');
    refused(
      { sharing_video_body_template: ' ' },
      'sharing_video_body_template:sharing_video_body_required',
    );
    refused(
      { sharing_360_body_template: '' },
      'sharing_360_body_template:sharing_360_body_required',
    );
  });

  it('checks the SMS body only when SMS is on', () => {
    accepted({ is_sms_enabled: 0, sms_body_template: '' });
    accepted({ is_sms_enabled: 1, sms_body_template: 'Hi {user_name}: {image_url}' });
    refused({ is_sms_enabled: 1, sms_body_template: ' ' }, 'sms_body_template:sms_body_required');
    refused(
      { is_sms_enabled: 1, sms_body_template: 'Hi {user_name}' },
      'sms_body_template:sms_body_error',
    );
    refused(
      { is_sms_enabled: 1, sms_body_template: 'See {image_url}' },
      'sms_body_template:sms_body_error',
    );
  });

  it('gives the web-app SMS text four distinct answers', () => {
    const sms = (text: string): Patch => ({ opts: { webappSmsEnabled: 1, webappSmsText: text } });
    accepted(sms('Hi {userName}, see {url}'));
    accepted({ opts: { webappSmsEnabled: 0, webappSmsText: '' } });
    refused(sms('  '), 'opts.webappSmsText:webapp_sms_text_required');
    refused(sms('Hello'), 'opts.webappSmsText:webapp_sms_text_placeholders_missing');
    refused(sms('See {url}'), 'opts.webappSmsText:webapp_sms_text_user_name_missing');
    refused(sms('Hi {userName}'), 'opts.webappSmsText:webapp_sms_text_url_missing');
  });
});

describe('photo retention', () => {
  it.each([
    [0, false],
    [1, true],
    [1_000_000, true],
    [1_000_001, false],
  ])('stream availability %i minutes', (n, ok) => {
    if (ok) accepted({ photo_stream_available_minutes: n });
    else
      refused(
        { photo_stream_available_minutes: n },
        'photo_stream_available_minutes:max_photo_stream_avl_minutes_error',
      );
  });

  it.each([
    [29, false],
    [30, true],
    [3000, true],
    [3001, false],
  ])('auto-delete %i days', (n, ok) => {
    if (ok) accepted({ photo_auto_delete_days: n });
    else
      refused(
        { photo_auto_delete_days: n },
        'photo_auto_delete_days:photo_delete_days_value_error',
      );
  });

  it('needs auto-delete after instant archive when both are on; off is null', () => {
    accepted({ photo_auto_delete_days: 40, instant_archive_days: 39 });
    refused(
      { photo_auto_delete_days: 40, instant_archive_days: 40 },
      'photo_auto_delete_days:photo_delete_days_archive_error',
    );
    refused(
      { photo_auto_delete_days: 40, instant_archive_days: 41 },
      'photo_auto_delete_days:photo_delete_days_archive_error',
    );
    accepted({ photo_auto_delete_days: null, instant_archive_days: 100 });
    accepted({
      photo_stream_available_minutes: null,
      photo_auto_delete_days: null,
      instant_archive_days: null,
    });
    refused({ instant_archive_days: 0 }, 'instant_archive_days:instant_archive_days_error');
  });

  it('limits photo delays to 0–120 minutes', () => {
    accepted({
      opts: { photoDelayMinutes: 0, photoDelayVipMinutes: 120, photoDelayTagsMinutes: null },
    });
    refused(
      { opts: { photoDelayMinutes: 121 } },
      'opts.photoDelayMinutes:photo_delay_minutes_error',
    );
    refused(
      { opts: { photoDelayVipMinutes: -1 } },
      'opts.photoDelayVipMinutes:photo_delay_minutes_error',
    );
    refused(
      { opts: { isPhotoDelayCheckTags: 1, photoDelayTags: ['ok', 'no way'] } },
      'opts.photoDelayTags:tags_invalid',
    );
  });
});

describe('paid, slide show and face recognition', () => {
  it('checks unlock codes (4 upper-case letters or digits) and names', () => {
    accepted({ secret_code_list: 'Ann_Lee_AB12,Bob_Ray_9Z9Z' });
    refused({ secret_code_list: 'Ann_Lee_ab12' }, 'secret_code_list:unlock_code_invalid');
    refused({ secret_code_list: 'Ann_Lee_AB1' }, 'secret_code_list:unlock_code_invalid');
    refused({ secret_code_list: 'Ann_Lee_AB123' }, 'secret_code_list:unlock_code_invalid');
    refused({ secret_code_list: 'Ann2_Lee_AB12' }, 'secret_code_list:unlock_code_name_invalid');
    // Rows missing a part do not count (albums spec §5).
    accepted({ secret_code_list: 'Ann__AB12,,' });
    expect(parseUnlockCodes('Ann__AB12,Mary Jo_Smith-Lee_ZZ99')).toEqual([
      { firstName: 'Mary Jo', lastName: 'Smith-Lee', code: 'ZZ99' },
    ]);
  });

  it('needs the slide show maximum above the minimum', () => {
    accepted({ opts: { slideshowMinIntervalSeconds: 3, slideshowMaxIntervalSeconds: 3.5 } });
    refused(
      { opts: { slideshowMinIntervalSeconds: 3, slideshowMaxIntervalSeconds: 3 } },
      'opts.slideshowMaxIntervalSeconds:slideshow_interval_error',
    );
    refused(
      { opts: { slideshowMinIntervalSeconds: 5, slideshowMaxIntervalSeconds: 2 } },
      'opts.slideshowMaxIntervalSeconds:slideshow_interval_error',
    );
  });

  it('keeps each slide show interval within an hour (a browser timer over 24.8 days fires at once)', () => {
    accepted({ opts: { slideshowMinIntervalSeconds: 3599, slideshowMaxIntervalSeconds: 3600 } });
    for (const tooLong of [3600.5, 2 ** 31])
      refused(
        { opts: { slideshowMinIntervalSeconds: 3, slideshowMaxIntervalSeconds: tooLong } },
        'opts.slideshowMaxIntervalSeconds:slideshow_interval_too_long',
      );
    expect(
      problems({ opts: { slideshowMinIntervalSeconds: 4000, slideshowMaxIntervalSeconds: 5000 } }),
    ).toEqual([
      'opts.slideshowMinIntervalSeconds:slideshow_interval_too_long',
      'opts.slideshowMaxIntervalSeconds:slideshow_interval_too_long',
    ]);
  });

  it('keeps face-recognition confidence within 0–100 (default 95)', () => {
    expect(defaultEventSettings().opts.faceRecognitionConfidence).toBe(95);
    accepted({ opts: { faceRecognitionConfidence: 0 } });
    accepted({ opts: { faceRecognitionConfidence: 100 } });
    refused(
      { opts: { faceRecognitionConfidence: 101 } },
      'opts.faceRecognitionConfidence:face_confidence_error',
    );
  });
});

type EmailChannel = Extract<NotificationChannel, { type: 'email' }>;
type SmsChannel = Extract<NotificationChannel, { type: 'sms' }>;
const email = (id: string, name: string, subject = 'S', body = 'B'): EmailChannel => ({
  id,
  name,
  type: 'email',
  subject,
  body,
});
const sms = (id: string, name: string, message = 'M'): SmsChannel => ({
  id,
  name,
  type: 'sms',
  message,
});
const topic = (id: string, key: string) => ({ id, key, emailChannel: null, smsChannel: null });

describe('notifications', () => {
  it('needs topic keys, unique after spaces become underscores', () => {
    accepted({ notification_data: { topics: [topic('1', 'pickup'), topic('2', 'Pickup')] } });
    refused(
      { notification_data: { topics: [topic('1', ' ')] } },
      'notification_data.topics.0.key:topic_key_required',
    );
    refused(
      { notification_data: { topics: [topic('1', 'pick up'), topic('2', 'pick_up')] } },
      'notification_data.topics.1.key:topic_key_exists',
    );
    expect(normaliseTopicKey('pick up\tnow')).toBe('pick_up_now');
  });

  it('needs unique channel names and each type’s texts', () => {
    accepted({
      notification_data: { channels: [email('aaaaaaaaaa', 'Mail'), sms('bbbbbbbbbb', 'Text')] },
    });
    refused(
      { notification_data: { channels: [email('aaaaaaaaaa', 'Mail'), sms('bbbbbbbbbb', 'Mail')] } },
      'notification_data.channels.1.name:channel_name_exists',
    );
    refused(
      { notification_data: { channels: [sms('bbbbbbbbbb', ' ')] } },
      'notification_data.channels.0.name:channel_name_required',
    );
    refused(
      { notification_data: { channels: [email('aaaaaaaaaa', 'Mail', ' ')] } },
      'notification_data.channels.0.subject:channel_email_subject_required',
    );
    refused(
      { notification_data: { channels: [email('aaaaaaaaaa', 'Mail', 'S', '')] } },
      'notification_data.channels.0.body:channel_email_body_required',
    );
    refused(
      { notification_data: { channels: [sms('bbbbbbbbbb', 'Text', ' ')] } },
      'notification_data.channels.0.message:channel_sms_message_required',
    );
    refused(
      { notification_data: { channels: [{ ...sms('bbbbbbbbbb', 'Text'), id: 'short' }] } },
      'notification_data.channels.0.id:invalid_value',
    );
  });

  it('refreshes topic channel copies and caches their texts', () => {
    const mail = email('aaaaaaaaaa', 'Mail', 'Old', 'Body');
    const topics = [
      { id: 't', key: 'ready', emailChannel: mail, smsChannel: sms('cccccccccc', 'Gone') },
    ];
    const synced = syncTopicsWithChannels(topics, [{ ...mail, subject: 'New' }]);
    expect(synced[0]?.emailChannel?.subject).toBe('New');
    expect(synced[0]?.smsChannel).toBeNull();
    expect(computeCachedTopicsData(synced)).toEqual({
      ready: { emailSubject: 'New', emailBody: 'Body', SMSMessage: '' },
    });
  });
});

describe('stock images', () => {
  const image = (overrides: Record<string, unknown>) => ({
    uid: 'u',
    imgUrl: 'https://cdn.example/stock/a.jpg',
    imgTmbUrl: 'https://cdn.example/stock/a-t.jpg',
    imgSize: 1,
    imgTmbSize: 1,
    dateStart: null,
    dateEnd: null,
    policy: {},
    ...overrides,
  });
  const withImage = (overrides: Record<string, unknown>): Patch => ({
    opts: { stockImages: [image(overrides)] },
  });

  it('allows tags of letters, digits, - and _ only, and needs a thumbnail', () => {
    accepted(withImage({ policy: { inc: ['vip', 'Day-2', 'a_b'] } }));
    accepted(withImage({ policy: { exc: ['staff'] } }));
    for (const bad of ['two words', 'é', 'a,b', ''])
      refused(
        withImage({ policy: { exc: [bad] } }),
        'opts.stockImages.0.policy:stock_image_tags_invalid',
      );
    refused(
      withImage({ imgTmbUrl: ' ' }),
      'opts.stockImages.0.imgTmbUrl:stock_image_thumbnail_required',
    );
    refused(
      withImage({ dateStart: '2026-06-02 10:00', dateEnd: '2026-06-01 10:00' }),
      'opts.stockImages.0.dateEnd:date_range_invalid',
    );
  });

  it.each(FORBIDDEN_FILE_NAME_CHARS)('refuses %s in file names', (c) => {
    expect(isValidFileName(`photo${c}1.jpg`)).toBe(false);
    refused(
      withImage({ imgUrl: `https://cdn.example/stock/photo${encodeURIComponent(c)}1.jpg` }),
      'opts.stockImages.0.imgUrl:file_name_invalid',
    );
  });

  it('accepts ordinary file names', () => {
    expect(isValidFileName('photo-1_final (2).jpg')).toBe(true);
    accepted(withImage({ imgUrl: 'https://cdn.example/stock/photo-1_final%20(2).jpg' }));
  });
});

describe('event codes', () => {
  it('are four unambiguous characters, read from the page hash after ename=', () => {
    expect(EVENT_CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(isEventCode('AB23')).toBe(true);
    expect(isEventCode('AB2O')).toBe(false);
    expect(isEventCode('ABC')).toBe(false);
    expect(eventCodeFromHash('#ename=xk7pq&x=1')).toBe('XK7P');
    expect(eventCodeFromHash('#nothing')).toBeNull();
  });
});
