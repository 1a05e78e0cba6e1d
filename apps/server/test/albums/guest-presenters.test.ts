import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, createEvent, eventWorldPerFile, type EventWorld } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto } from '../helpers/photos.ts';
import type { TestApp } from '../helpers/test-app.ts';

/**
 * Guest-safe presenters: what each key type receives of its event, field by
 * field. The lists are written out here on purpose: widening an audience's allow-list must be a
 * decision made in this file too, not a side effect of adding a setting.
 */

let t: TestApp;
let w: EventWorld;
eventWorldPerFile((app, world) => {
  t = app;
  w = world;
});

const GUEST_FIELDS = [
  'collect_leads',
  'date_utc_diff_hours',
  'empty_album_text',
  'enable_facial_recognition',
  'full_name',
  'hash_tag',
  'id',
  'is_free',
  'is_sms_enabled',
  'is_visible',
  'lead_params',
  'live_view_watermark',
  'logo_full_path',
  'logo_link',
  'name',
  'opts',
  'organisation_id',
  'photo_stream_available_minutes',
  'photo_watermark',
  'protector_watermark',
  'stock_images_enable',
  'time_zone',
  'unlocked',
];
const PRIVATE_FIELDS = [
  ...GUEST_FIELDS,
  'is_photo_printer_active',
  'is_print_every_photo',
  'is_printer_pool_enabled',
  'max_print_copies_count',
  'max_print_photos_count',
  'place_holder_count',
  'print_from_all_albums',
  'printer_pool_name_list',
];
const ROBOT_FIELDS = [
  ...PRIVATE_FIELDS,
  'image_process_id_array',
  'ppt_id_array',
  'watermark_pt_id',
];

const GUEST_OPTS = [
  'agreementText',
  'guestAccentColor',
  'guestDownloadEnabled',
  'guestDownloadWebOnly',
  'guestShowFileNames',
  // The guests' language, and the operator's texts per language (docs/domains/albums.md).
  'guestLanguage',
  'guestLanguageAuto',
  'textTranslations',
  'description',
  'disableEventLabel',
  'disableLinkPhotos',
  'disableSelfies',
  'emailEnds',
  'enableAttendeePhotoUpl',
  'enableEmailCollect',
  'enablePhotoUpl',
  'faceRecognitionText',
  // Whether guests' own photos join the event's album (the upload panel says where they go).
  'guestUploadsPublic',
  'faqText',
  'kioskStreamEnabled',
  'kioskWatermarkEnable',
  'ogpDescription',
  'ogpTitle',
  'photoCashingForKioskEnabled',
  'redirectToWebApp',
  'slideshowBg',
  'slideshowMaxIntervalSeconds',
  'slideshowMinIntervalSeconds',
  'stockImagesEnable',
  'supportLink',
  'timeInTimeText',
  'userContentProcessMessage',
  'userContentTooltip',
  'userContentUploadMessage',
  'webappBackgroundEnabled',
  'webappBackgroundSrc',
  'webappBannerBottomEnabled',
  'webappBannerBottomLink',
  'webappBannerBottomSrc',
  'webappBannerTopEnabled',
  'webappBannerTopLink',
  'webappBannerTopSrc',
  'webappLogoEnabled',
  'webappLogoSrc',
  'webappRegistrationType',
  'webappShareTitle',
  'webappSmsAgreement',
  'webappSmsEnabled',
  'webappSmsText',
];
const KIOSK_OPTS = [
  ...GUEST_OPTS,
  'comboRequired',
  'digitalProductMessage',
  'faceRecognitionConfidence',
  'hideProductPrice',
  'printConfirmMessage',
  'printFooterMessage',
  'printHeaderMessage',
  'printingConfirmationText',
  // Which ways to pay the kiosk and album offer: the kiosk shows only those.
  'albumPaymentMethods',
  'kioskPaymentMethods',
  'productCollections',
  'qrAtKioskCheckout',
  'selfieAssociationMinutes',
  'selfieExpirationMinutes',
  // The kiosk's idle timeout (its "Still there?" and return to the attract screen).
  'sessionExpiryMinutes',
  'storiesPrintPool',
  'unitPrice',
  'upsellEnabled',
  'upsellMessage',
];
const ROBOT_OPTS = [
  ...KIOSK_OPTS,
  'attPhotoImgMaxHeight',
  'attPhotoImgMaxWidth',
  'attPhotoImgPrTag',
  'attendeeIdRegex',
  'eventMultiplier',
  'forcedIndexTags',
  'isPhotoDelayCheckTags',
  'lookForTagsInImages',
  'photoDelayMinutes',
  'photoDelayTags',
  'photoDelayTagsMinutes',
  'photoDelayVipMinutes',
  'pictureSize',
  'printMultiplier',
  'requiredTagsToGenerateStory',
];

/** Operator-only values: none may reach a guest audience. */
const SECRETS = [
  'vip-7f3a-secret',
  'Shipping Firstname',
  '+1 555 0100 999',
  'Channel subject secret',
  'Ann_Lee_AB12',
  'sk_presenter_secret',
  'reports@gala.example',
  'shop-secret.example',
];

let event: FlashbulbEvent;
let robotKey: string;
let robotId: number;
let attendeeId: string;

beforeAll(async () => {
  const robot = await t.ok(
    endpoints.createRobot,
    { organisation_id: w.orgA.id, name: 'Presenter robot' },
    as(w.adminA),
  );
  robotKey = robot.api_key;
  robotId = robot.id;
  event = await createEvent(t, w.ownerA, {
    full_name: 'Presenter gala',
    robot_id_array: [robot.id],
    secret_code_list: 'Ann_Lee_AB12',
    stripe_secret_key: 'sk_presenter_secret',
    email_for_reports: 'reports@gala.example',
    opts: {
      description: 'The gala',
      vipToken: 'vip-7f3a-secret',
      shopDomain: 'shop-secret.example',
      slideshowBg: '#000',
    },
    shopify_shipping_address: {
      shopifyFirstName: 'Shipping Firstname',
      shopifyPhoneNumber: '+1 555 0100 999',
    },
    notification_data: {
      channels: [
        {
          id: 'abcdefghij',
          name: 'Mail',
          type: 'email',
          subject: 'Channel subject secret',
          body: 'Body',
        },
      ],
    },
  });
  attendeeId = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id] },
      as(w.adminA),
    )
  ).attendees[0]!.uid;
  // The secrets really are stored (so their absence below means something).
  const text = JSON.stringify(event);
  for (const secret of SECRETS.filter((s) => s !== 'sk_presenter_secret'))
    expect(text).toContain(secret);
});

const readAs = async (keyType: string, keyValue: string) => {
  const response = await t.call(endpoints.publicEventFullData, {
    key_type: keyType,
    key_value: keyValue,
  });
  expect(response.statusCode, keyType).toBe(200);
  const [read] = (response.body as { result: Record<string, unknown>[] }).result;
  return { read: read!, text: JSON.stringify(response.body) };
};

const sorted = (keys: string[]) => [...keys].sort();

describe('event/full-data/retrieve by key', () => {
  it('gives the public key the album fields only: no key, template, address, token or notification', async () => {
    const { read, text } = await readAs('public', event.public_api_key);
    expect(sorted(Object.keys(read))).toEqual(sorted(GUEST_FIELDS));
    expect(sorted(Object.keys(read.opts as object))).toEqual(sorted(GUEST_OPTS));
    expect(read).toMatchObject({ id: event.id, name: event.name, full_name: 'Presenter gala' });
    expect((read.opts as { slideshowBg: string }).slideshowBg).toBe('#000');
    for (const secret of [
      ...SECRETS,
      event.owner_api_key,
      event.private_api_key,
      event.public_api_key,
    ])
      expect(text).not.toContain(secret);
  });

  it('gives an attendee key the same album fields as the public key', async () => {
    const { read, text } = await readAs('attendee', attendeeId);
    expect(sorted(Object.keys(read))).toEqual(sorted(GUEST_FIELDS));
    expect(sorted(Object.keys(read.opts as object))).toEqual(sorted(GUEST_OPTS));
    for (const secret of [...SECRETS, event.owner_api_key, event.private_api_key])
      expect(text).not.toContain(secret);
  });

  it('gives the private key (kiosks) the album fields and printing, nothing operator-only', async () => {
    const { read, text } = await readAs('private', event.private_api_key);
    expect(sorted(Object.keys(read))).toEqual(sorted(PRIVATE_FIELDS));
    expect(sorted(Object.keys(read.opts as object))).toEqual(sorted(KIOSK_OPTS));
    for (const secret of [
      ...SECRETS,
      event.owner_api_key,
      event.private_api_key,
      event.public_api_key,
    ])
      expect(text).not.toContain(secret);
  });

  it('gives a robot key the kiosk fields and its processing set-up', async () => {
    const { read, text } = await readAs('robot', robotKey);
    expect(sorted(Object.keys(read))).toEqual(sorted(ROBOT_FIELDS));
    expect(sorted(Object.keys(read.opts as object))).toEqual(sorted(ROBOT_OPTS));
    for (const secret of [...SECRETS, event.owner_api_key, event.private_api_key])
      expect(text).not.toContain(secret);
  });

  it('gives the event-owner key the whole event but the other two keys, the unlock codes and the display token; never a secure field', async () => {
    const { read, text } = await readAs('event_owner', event.owner_api_key);
    const {
      private_api_key: _private,
      public_api_key: _public,
      secret_code_list: _codes,
      display_token: _display,
      ...expected
    } = event;
    expect(read).toEqual(expected);
    expect(text).not.toContain(event.display_token);
    expect(text).not.toContain('sk_presenter_secret');
    expect(text).not.toContain(event.private_api_key);
    expect(text).not.toContain(event.public_api_key);
  });
});

const GUEST_PHOTO_FIELDS = [
  'available_date',
  'category',
  'content_type',
  'created_date',
  'duration_ms',
  'event_id',
  'file_name',
  'height',
  'id',
  'is_curatable',
  'is_360',
  'is_curated',
  'is_original',
  'is_visible',
  'media_type',
  'printable',
  'printed',
  'size_bytes',
  'status',
  'uid',
  'urls',
  'width',
];
const OPERATOR_PHOTO_FIELDS = [
  ...GUEST_PHOTO_FIELDS,
  'attendee_uid',
  'full_path',
  'image_process_id',
  'original_photo_id',
  'robot_id',
];

describe('photo reads by key', () => {
  let photoUid = '';
  beforeAll(async () => {
    // A finished upload of a photo taken with the attendee's card (their id is on the photo).
    const now = t.clock.now();
    const folder = `events/${event.name}/photos/uid_guestview1_uid/`;
    const { photo } = await t.app.container.repositories.photos.insertOrGet({
      uid: 'guestview1',
      eventId: event.id,
      sha256: 'guestview1',
      storageKey: `${folder}original.jpg`,
      fileName: 'IMG_GUEST.jpg',
      contentType: 'image/jpeg',
      mediaType: 'image',
      width: 64,
      height: 48,
      sizeBytes: 100,
      robotId: null,
      attendeeUid: attendeeId,
      status: 'ready',
      createdAt: new Date(now.getTime() - 60_000),
      availableAt: new Date(now.getTime() - 60_000),
    });
    await t.app.container.repositories.photos.update(photo.id, {
      derivatives: { preview: `${folder}preview.jpg`, thumbnail: `${folder}thumbnail.jpg` },
    });
    photoUid = photo.uid;
  });

  const listAs = async (keyType: string, keyValue: string) => {
    const page = await t.ok(endpoints.publicPhotoList, {
      key_type: keyType as 'public',
      key_value: keyValue,
    });
    const photo = page.photos.find((p) => p.uid === photoUid);
    expect(photo, keyType).toBeDefined();
    return { photo: photo as Record<string, unknown>, text: JSON.stringify(page) };
  };

  it('lists the guest view to public, private and attendee keys: no path, robot or attendee id', async () => {
    for (const [keyType, keyValue] of [
      ['public', event.public_api_key],
      ['private', event.private_api_key],
      ['attendee', attendeeId],
    ] as const) {
      const { photo, text } = await listAs(keyType, keyValue);
      expect(sorted(Object.keys(photo)), keyType).toEqual(sorted(GUEST_PHOTO_FIELDS));
      // The attendee id is a bearer secret (it opens the album): never in a guest read.
      expect(text, keyType).not.toContain(attendeeId);
    }
  });

  it('lists whole photos to the event-owner key', async () => {
    const { photo } = await listAs('event_owner', event.owner_api_key);
    expect(sorted(Object.keys(photo))).toEqual(sorted(OPERATOR_PHOTO_FIELDS));
    expect(photo.attendee_uid).toBe(attendeeId);
  });

  it('lists a robot key its own uploads and their status: no attendee id, no original or preview', async () => {
    // The robot's own upload, still processing, taken with the attendee's card.
    const now = t.clock.now();
    const hidden = `protected/events/${event.name}/photos/uid_robotview1_uid/`;
    const { photo: own } = await t.app.container.repositories.photos.insertOrGet({
      uid: 'robotview1',
      eventId: event.id,
      sha256: 'robotview1',
      storageKey: `${hidden}original.jpg`,
      fileName: 'IMG_ROBOT.jpg',
      contentType: 'image/jpeg',
      mediaType: 'image',
      width: 64,
      height: 48,
      sizeBytes: 100,
      robotId,
      attendeeUid: attendeeId,
      status: 'ready',
      isVisible: 0,
      createdAt: new Date(now.getTime() - 30_000),
      availableAt: new Date(now.getTime() + 3_600_000),
    });
    await t.app.container.repositories.photos.update(own.id, {
      derivatives: {
        preview: `${hidden}preview.jpg`,
        thumbnail: `events/${event.name}/photos/uid_robotview1_uid/thumbnail.jpg`,
      },
    });
    const page = await t.ok(endpoints.publicPhotoList, { key_type: 'robot', key_value: robotKey });
    // Its own upload (hidden and delayed too: the robot follows its status), nobody else's.
    expect(page.photos.map((p) => p.uid)).toEqual(['robotview1']);
    const [photo] = page.photos as Record<string, unknown>[];
    expect(sorted(Object.keys(photo!))).toEqual(sorted(GUEST_PHOTO_FIELDS));
    expect(photo).toMatchObject({ status: 'ready', is_visible: 0 });
    const urls = photo!.urls as Record<string, string | null>;
    expect(urls.original).toBeNull();
    expect(urls.preview).toBeNull();
    expect(urls.thumbnail).toMatch(/thumbnail\.jpg$/);
    const text = JSON.stringify(page);
    expect(text).not.toContain(attendeeId);
    expect(text).not.toContain('/media/photos/');
    expect(page.stock_images).toEqual([]);

    // Uploading bytes that are already someone else's photo answers that photo without its
    // attendee id or original and preview URLs.
    const jpeg = await makeJpeg({ seed: 110 });
    const byOwner = await uploadPhoto(
      t,
      { key_type: 'event_owner', key_value: event.owner_api_key },
      event.name,
      jpeg,
    );
    const again = await uploadPhoto(
      t,
      { key_type: 'robot', key_value: robotKey },
      event.name,
      jpeg,
    );
    expect(again.id).toBe(byOwner.id);
    expect(again.urls.original).toBeNull();
    expect(again.urls.preview).toBeNull();
    await t.database.executeSql('update photos set attendee_uid = $1 where id = $2', [
      attendeeId,
      byOwner.id,
    ]);
    const third = await uploadPhoto(
      t,
      { key_type: 'robot', key_value: robotKey },
      event.name,
      jpeg,
    );
    expect(JSON.stringify(third)).not.toContain(attendeeId);
    expect(third.urls.original).toBeNull();
  });

  it('shows a mini-album link the guest view', async () => {
    const sent = await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: event.public_api_key,
      email_to_address_array: ['friend@example.com'],
      photo_uid_array: [photoUid],
    });
    const token = new URL(sent.url).searchParams.get('mId')!;
    const album = await t.ok(endpoints.retrieveMiniAlbum, { token });
    expect(album.photos.map((p) => p.uid)).toEqual([photoUid]);
    expect(sorted(Object.keys(album.photos[0]!))).toEqual(sorted(GUEST_PHOTO_FIELDS));
    expect(JSON.stringify(album)).not.toContain(attendeeId);
  });
});
