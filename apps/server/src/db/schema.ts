import { sql } from 'drizzle-orm';
import type {
  BackupSchedule,
  EventOpts,
  IntegrityReport,
  LeadParams,
  NotificationData,
  PaymentStatusName,
  SecureField,
  ShopifyShippingAddress,
  TemplateLayout,
} from '@flashbulb/shared';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** The table's own key, numbered by the database. */
const identityId = () => integer('id').primaryKey().generatedAlwaysAsIdentity();
/** The event the row belongs to: it is deleted with the event. */
const belongsToEvent = () =>
  integer('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' });
/** The organisation the row belongs to: it is deleted with the organisation. */
const belongsToOrganisation = () =>
  integer('organisation_id')
    .notNull()
    .references(() => organisations.id, { onDelete: 'cascade' });

export const organisations = pgTable(
  'organisations',
  {
    id: identityId(),
    name: text('name').notNull(),
    /** ISO 4217 code every price, order and provider call of the organisation is in. */
    currency: text('currency').notNull().default('USD'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('organisations_name_lower_idx').on(sql`lower(${t.name})`)],
);

export const users = pgTable(
  'users',
  {
    id: identityId(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: smallint('role').notNull(),
    organisationId: integer('organisation_id').references(() => organisations.id),
    /** FORCE_CHANGE_PASSWORD until a temporary password is replaced. */
    status: text('status').notNull(),
    temporaryPasswordExpiresAt: timestamp('temporary_password_expires_at', { withTimezone: true }),
    /** AES-256-GCM encrypted base32 TOTP secret, once verified. */
    totpSecret: text('totp_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** Highest TOTP time step accepted; a code is accepted only for a later step (no replay). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Set when an administrator disables the account: no sign-in, no session, no API key. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(t.email),
    index('users_organisation_idx').on(t.organisationId),
  ],
);

export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    /** The refresh token before the last rotation: presenting it again means theft, so the session ends. */
    previousRefreshTokenHash: text('previous_refresh_token_hash'),
    createdAt: createdAt(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('auth_sessions_refresh_idx').on(t.refreshTokenHash),
    index('auth_sessions_previous_refresh_idx').on(t.previousRefreshTokenHash),
    index('auth_sessions_user_idx').on(t.userId),
  ],
);

/** A sign-in in progress between steps (the opaque `session` of the challenge calls). */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    challengeName: text('challenge_name').notNull(),
    /** Encrypted TOTP secret offered by associate-software-token, not yet verified. */
    pendingTotpSecret: text('pending_totp_secret'),
    /** Set by verify-software-token in the MFA_SETUP flow. */
    totpVerified: boolean('totp_verified').notNull().default(false),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_challenges_user_idx').on(t.userId)],
);

/** Authenticator set-up started by a signed-in user (associate with Authorization). */
export const pendingTotpSecrets = pgTable('pending_totp_secrets', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});

/** Failure counts per user name (known or not, so lockout tells nothing about existence). */
export const loginThrottle = pgTable('login_throttle', {
  username: text('username').primaryKey(),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  hourWindowStart: timestamp('hour_window_start', { withTimezone: true }),
  hourFailures: integer('hour_failures').notNull().default(0),
});

/**
 * Request counts of rate-limited routes per client and window, shared by every process on the
 * database (apps/server/src/http/rate-limit-store.ts).
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
});

export const passwordResetCodes = pgTable('password_reset_codes', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  tries: integer('tries').notNull().default(0),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: identityId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

/**
 * Two-factor recovery codes: each replaces one authenticator code at sign-in, once. Stored as a
 * keyed HMAC (the server's signing key), so a copy of the database alone gives no usable code.
 * A new set replaces the old one.
 */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: identityId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    /** When it replaced an authenticator code; a used code is never accepted again. */
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);

// ---- events ---------------------------------------------------------------------------

/** A 0/1 flag as the contract has it. */
const flag = (name: string) => smallint(name).$type<0 | 1>().notNull();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * One row per event. The settings columns carry the contract's field names (snake_case, as in the
 * API) so the repository maps them one to one; robots, image processes and print templates live in
 * their own tables.
 *
 * API keys: the three event keys are shown to operators on every read of the event (album links
 * embed the private and public ones), so they cannot be one-way hashed only. Each is stored twice:
 * a sha-256 hash (unique, for look-ups by key) and the key sealed with the SecretBox (for display).
 * A copy of the database alone therefore gives no usable key.
 */
export const events = pgTable(
  'events',
  {
    id: identityId(),
    /** The 4-character short code (EVENT_CODE_ALPHABET), unique. */
    name: text('name').notNull(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    /** The user who created the event (an event owner sees the events they own). */
    ownerUserId: integer('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    ownerKeyHash: text('owner_key_hash').notNull(),
    ownerKeySealed: text('owner_key_sealed').notNull(),
    privateKeyHash: text('private_key_hash').notNull(),
    privateKeySealed: text('private_key_sealed').notNull(),
    publicKeyHash: text('public_key_hash').notNull(),
    publicKeySealed: text('public_key_sealed').notNull(),
    /** SecretBox-sealed values of the secure fields that are set; never returned by normal reads. */
    secureFields: jsonb('secure_fields')
      .$type<Partial<Record<SecureField, string>>>()
      .notNull()
      .default({}),
    unlocked: flag('unlocked').default(0),
    full_name: text('full_name').notNull(),
    is_visible: flag('is_visible').default(1),
    empty_album_text: text('empty_album_text').notNull(),
    logo_full_path: text('logo_full_path'),
    logo_link: text('logo_link').notNull(),
    email_for_reports: text('email_for_reports').notNull(),
    hash_tag: text('hash_tag').notNull(),
    enable_facial_recognition: flag('enable_facial_recognition'),
    date_utc_diff_hours: integer('date_utc_diff_hours').notNull(),
    /** IANA time zone (`Europe/Berlin`); when set it wins over `date_utc_diff_hours` (DST included). */
    time_zone: text('time_zone').notNull().default(''),
    email_subject: text('email_subject').notNull(),
    email_from_address: text('email_from_address').notNull(),
    /** Reset whenever the address changes; set by the link in the verification e-mail. */
    emailFromAddressVerified: boolean('email_from_address_verified').notNull().default(false),
    email_from_name: text('email_from_name').notNull(),
    email_body_template: text('email_body_template').notNull(),
    email_body_template_share: text('email_body_template_share').notNull(),
    receipt_email_body: text('receipt_email_body').notNull(),
    sharing_body_template: text('sharing_body_template').notNull(),
    sharing_video_body_template: text('sharing_video_body_template').notNull(),
    sharing_360_body_template: text('sharing_360_body_template').notNull(),
    sms_body_template: text('sms_body_template').notNull(),
    is_sms_enabled: flag('is_sms_enabled'),
    photo_stream_available_minutes: integer('photo_stream_available_minutes'),
    photo_auto_delete_days: integer('photo_auto_delete_days'),
    instant_archive_days: integer('instant_archive_days'),
    collect_leads: flag('collect_leads'),
    is_photo_printer_active: flag('is_photo_printer_active'),
    print_from_all_albums: flag('print_from_all_albums'),
    is_printer_pool_enabled: flag('is_printer_pool_enabled'),
    is_print_every_photo: flag('is_print_every_photo'),
    printer_pool_name_list: text('printer_pool_name_list').array(),
    max_print_copies_count: integer('max_print_copies_count').notNull(),
    max_print_photos_count: integer('max_print_photos_count').notNull(),
    place_holder_count: integer('place_holder_count').notNull(),
    is_free: flag('is_free'),
    protector_watermark: text('protector_watermark'),
    secret_code_list: text('secret_code_list').notNull(),
    live_view_watermark: text('live_view_watermark'),
    photo_watermark: text('photo_watermark'),
    watermark_pt_id: integer('watermark_pt_id').references(() => printTemplates.id, {
      onDelete: 'set null',
    }),
    stock_images_enable: flag('stock_images_enable'),
    opts: jsonb('opts').$type<EventOpts>().notNull(),
    notification_data: jsonb('notification_data').$type<NotificationData>().notNull(),
    lead_params: jsonb('lead_params').$type<LeadParams>().notNull(),
    shopify_shipping_address: jsonb('shopify_shipping_address')
      .$type<ShopifyShippingAddress>()
      .notNull(),
    createdAt: createdAt(),
    /** Optimistic concurrency: an update names the value it read; a different one is a conflict. */
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('events_name_idx').on(t.name),
    uniqueIndex('events_owner_key_idx').on(t.ownerKeyHash),
    uniqueIndex('events_private_key_idx').on(t.privateKeyHash),
    uniqueIndex('events_public_key_idx').on(t.publicKeyHash),
    index('events_organisation_idx').on(t.organisationId),
    index('events_owner_user_idx').on(t.ownerUserId),
  ],
);

/** Robots and cameras that upload photos; each serves at most one event at a time. */
export const robots = pgTable(
  'robots',
  {
    id: identityId(),
    name: text('name').notNull(),
    organisationId: belongsToOrganisation(),
    /** sha-256 of the robot's API key (shown once, at create). */
    keyHash: text('key_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('robots_key_idx').on(t.keyHash),
    index('robots_organisation_idx').on(t.organisationId),
    index('robots_event_idx').on(t.eventId),
  ],
);

/** Named processing steps of an organisation (resize, watermark, print…). */
export const imageProcesses = pgTable(
  'image_processes',
  {
    id: identityId(),
    organisationId: belongsToOrganisation(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    autoPrint: boolean('auto_print').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('image_processes_organisation_idx').on(t.organisationId)],
);

export const eventImageProcesses = pgTable(
  'event_image_processes',
  {
    eventId: belongsToEvent(),
    imageProcessId: integer('image_process_id')
      .notNull()
      .references(() => imageProcesses.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.imageProcessId] })],
);

/** Print and watermark templates ("ppt"); organisation null = public (super users manage them). */
export const printTemplates = pgTable(
  'print_templates',
  {
    id: identityId(),
    name: text('name').notNull(),
    organisationId: integer('organisation_id').references(() => organisations.id, {
      onDelete: 'cascade',
    }),
    isWatermark: boolean('is_watermark').notNull().default(false),
    placeholderCounts: integer('placeholder_counts').notNull().default(1),
    /** The sheet: size, DPI, placeholders, images, texts (null: a grid of placeholderCounts on a 4×6). */
    layout: jsonb('layout').$type<TemplateLayout>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('print_templates_organisation_idx').on(t.organisationId)],
);

export const eventPrintTemplates = pgTable(
  'event_print_templates',
  {
    eventId: belongsToEvent(),
    templateId: integer('template_id')
      .notNull()
      .references(() => printTemplates.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.templateId] })],
);

/** Face images face search ignores for an event (staff, performers). */
export const indexIgnoreFaces = pgTable(
  'index_ignore_faces',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    fullPath: text('full_path').notNull(),
    /**
     * Set once face search has looked at the image: the engine's model, and the
     * descriptor of its largest face (null: no face, or not an image of this event's storage).
     */
    model: text('model'),
    descriptor: real('descriptor').array(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('index_ignore_faces_event_path_idx').on(t.eventId, t.fullPath)],
);

/** One-time links that prove an event's from address belongs to its operator (stored hashed). */
export const fromAddressVerifications = pgTable(
  'from_address_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    eventId: belongsToEvent(),
    address: text('address').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('from_address_verifications_event_idx').on(t.eventId)],
);

/** Photos and videos of an event. Originals and derivatives live in storage; this is the index. */
export const photos = pgTable(
  'photos',
  {
    id: identityId(),
    uid: text('uid').notNull(),
    eventId: belongsToEvent(),
    /** sha-256 of the original bytes: the same bytes in the same event are the same photo. */
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    mediaType: text('media_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    robotId: integer('robot_id'),
    attendeeUid: text('attendee_uid'),
    category: text('category'),
    isVisible: smallint('is_visible').notNull().default(1),
    isOriginal: smallint('is_original').notNull().default(1),
    isCuratable: smallint('is_curatable').notNull().default(1),
    isCurated: smallint('is_curated').notNull().default(0),
    isKiosk: smallint('is_kiosk').notNull().default(0),
    printable: smallint('printable').notNull().default(1),
    printed: smallint('printed').notNull().default(0),
    printRequested: smallint('print_requested').notNull().default(0),
    /** Sheets printed with this photo (copies included). */
    printCount: integer('print_count').notNull().default(0),
    imageProcessId: integer('image_process_id'),
    originalPhotoId: integer('original_photo_id'),
    /** processing → ready | failed */
    status: text('status').notNull(),
    /** A video or animated GIF: its length (the probe's), else null. */
    durationMs: integer('duration_ms'),
    /** An equirectangular 360° photo (its XMP says so, or the uploader marked it). */
    is360: smallint('is_360').notNull().default(0),
    /** Storage keys of the derivatives by kind (preview, thumbnail, watermarks). */
    derivatives: jsonb('derivatives').$type<Record<string, string>>().notNull().default({}),
    /**
     * Labels of the photo (a robot may send them on upload): a paid button's `partialUnlockTags`
     * opens the photos carrying one of its tags (unlock scope `tag:<t>`).
     */
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    failureReason: text('failure_reason'),
    /**
     * When an upload completion claimed the enqueue of the derivatives: set once, by one conditional
     * update, so two processes completing the same upload send one `photo.derivatives` job.
     */
    derivativesQueuedAt: timestamp('derivatives_queued_at', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    /** When albums may show the photo: after the event's photo delay. */
    availableAt: timestamp('available_at', { withTimezone: true }).notNull(),
    /**
     * Moderation (services/photos/moderation.ts): `pending` waits in the console queue and reaches
     * no guest; `releasing` was approved and its `photo.ready` is still owed (job
     * `photos.moderation-release`); `approved` is out (approved, or never held).
     */
    moderation: text('moderation')
      .$type<'pending' | 'releasing' | 'approved'>()
      .notNull()
      .default('approved'),
    /**
     * A guest's own photo the event keeps private (`opts.guestUploadsPublic` off): shown in its
     * uploader's attendee album only, never in the event's album, stream or searches
     * (repositories/photos/photo-visibility.ts).
     */
    albumOnly: smallint('album_only').notNull().default(0),
  },
  (t) => [
    uniqueIndex('photos_uid_idx').on(t.uid),
    uniqueIndex('photos_event_sha_idx').on(t.eventId, t.sha256),
    index('photos_event_created_idx').on(t.eventId, t.createdAt),
    index('photos_event_available_idx').on(t.eventId, t.availableAt),
    index('photos_event_attendee_idx').on(t.eventId, t.attendeeUid),
    /** A robot's last upload (robot list). */
    index('photos_robot_created_idx').on(t.robotId, t.createdAt),
    /** The stuck-photo sweep (jobs/photos-stuck.job.ts) reads only photos still processing. */
    index('photos_processing_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'processing'`),
    /** The moderation queue and the release sweep read only photos not yet out. */
    index('photos_moderation_idx')
      .on(t.eventId, t.createdAt)
      .where(sql`${t.moderation} <> 'approved'`),
  ],
);

/**
 * Faces found in a ready photo (docs/domains/faces.md): the box as fractions of the
 * preview, the detection score (0–1), the box's size in preview pixels and the descriptor of the
 * face engine's `model`. Exact search computes the Euclidean distance in SQL (works on PGlite and
 * on PostgreSQL without pgvector). Deleted with the photo or the event.
 */
export const photoFaces = pgTable(
  'photo_faces',
  {
    id: identityId(),
    photoId: integer('photo_id')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    eventId: belongsToEvent(),
    boxX: real('box_x').notNull(),
    boxY: real('box_y').notNull(),
    boxWidth: real('box_width').notNull(),
    boxHeight: real('box_height').notNull(),
    widthPx: integer('width_px').notNull(),
    heightPx: integer('height_px').notNull(),
    score: real('score').notNull(),
    model: text('model').notNull(),
    descriptor: real('descriptor').array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // (event, id): the search's in-memory copy fetches only the faces added since it last looked.
    index('photo_faces_event_idx').on(t.eventId, t.id),
    index('photo_faces_photo_idx').on(t.photoId),
  ],
);

/**
 * Which photos the face indexer has looked at, with which model and thresholds, and how many faces
 * it kept: a photo with no face is indexed too (backfill progress, re-index on a model change).
 */
export const photoFaceScans = pgTable(
  'photo_face_scans',
  {
    photoId: integer('photo_id')
      .primaryKey()
      .references(() => photos.id, { onDelete: 'cascade' }),
    eventId: belongsToEvent(),
    model: text('model').notNull(),
    minScore: real('min_score').notNull(),
    faceCount: integer('face_count').notNull(),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('photo_face_scans_event_idx').on(t.eventId)],
);

/**
 * A guest's selfie (docs/domains/faces.md): stored only after the guest accepted the
 * event's face-recognition text (its version and the time are kept), deleted with its storage
 * object when `expiresAt` passes (the event's selfie expiration, at the latest its photo
 * retention). An attendee's selfie within the event's association time also keeps matching new
 * photos (`associateUntil`, the descriptor found on its first search, `notifiedAt`).
 */
export const faceSelfies = pgTable(
  'face_selfies',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    storageKey: text('storage_key').notNull(),
    keyType: text('key_type').notNull(),
    attendeeId: integer('attendee_id').references(() => attendees.id, { onDelete: 'cascade' }),
    consentVersion: text('consent_version').notNull(),
    consentedAt: timestamp('consented_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    associateUntil: timestamp('associate_until', { withTimezone: true }),
    model: text('model'),
    descriptor: real('descriptor').array(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('face_selfies_key_idx').on(t.storageKey),
    index('face_selfies_event_idx').on(t.eventId),
    index('face_selfies_expires_idx').on(t.expiresAt),
  ],
);

/** What face data was deleted per event and why (the owner's deletion counts). */
export const faceDataDeletions = pgTable(
  'face_data_deletions',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    reason: text('reason').notNull(),
    faces: integer('faces').notNull(),
    selfies: integer('selfies').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('face_data_deletions_event_idx').on(t.eventId)],
);

/** Who deleted which photo, when and why (photo list delete with delete_reason). */
export const photoAudit = pgTable(
  'photo_audit',
  {
    id: identityId(),
    eventId: integer('event_id').notNull(),
    photoId: integer('photo_id').notNull(),
    photoUid: text('photo_uid').notNull(),
    fileName: text('file_name').notNull(),
    action: text('action').notNull(),
    reason: text('reason'),
    actorUserId: integer('actor_user_id'),
    createdAt: createdAt(),
  },
  (t) => [index('photo_audit_event_idx').on(t.eventId, t.createdAt)],
);

/** What robots report about photos (activity create / bulk create). */
export const activities = pgTable(
  'activities',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    robotId: integer('robot_id').notNull(),
    photoId: integer('photo_id'),
    name: text('name').notNull(),
    type: text('type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('activities_event_idx').on(t.eventId, t.createdAt)],
);

/** Which upload (temporary storage key) became which photo: a retried completion finds its photo. */
export const photoUploads = pgTable('photo_uploads', {
  uploadKey: text('upload_key').primaryKey(),
  photoId: integer('photo_id')
    .notNull()
    .references(() => photos.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/**
 * An instant link: a photo's permanent guest page, handed out with its upload grant before any
 * byte is sent (`/?instant=<event>-<code>`). `photo_id` is set when the upload completes;
 * `failed_at` when the completion refused the file. No photo by `expires_at` (the grant's end)
 * and the page says the photo did not arrive.
 */
export const instantLinks = pgTable(
  'instant_links',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    code: text('code').notNull(),
    uploadKey: text('upload_key').notNull(),
    photoId: integer('photo_id').references(() => photos.id, { onDelete: 'set null' }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('instant_links_code_idx').on(t.eventId, t.code),
    uniqueIndex('instant_links_upload_key_idx').on(t.uploadKey),
  ],
);

/**
 * A completion at work on an upload under `tmp/`: the upload sweep leaves the object alone while its
 * claim is fresh, however old the object. Deleted when the completion ends; a crash's leftover
 * goes with the next sweep once it is stale.
 */
export const uploadClaims = pgTable('upload_claims', {
  uploadKey: text('upload_key').primaryKey(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
});

/**
 * Storage to delete after a commit that made it unreachable (a privacy erasure): written in the
 * same transaction as the rows it served, removed once deleted; `storage.delete-pending` retries.
 */
export const storageDeletions = pgTable('storage_deletions', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** A key, or a folder prefix ending in `/`. */
  prefix: text('prefix').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: createdAt(),
});

// ---- albums ---------------------------------------------------------------------------

/**
 * A mini-album: chosen photos of one event behind an unguessable link (`/?mId=<token>`). Only the
 * token's sha-256 is stored, so a copy of the database opens no album.
 */
export const miniAlbums = pgTable(
  'mini_albums',
  {
    id: identityId(),
    tokenHash: text('token_hash').notNull(),
    eventId: belongsToEvent(),
    photoIds: integer('photo_ids').array().notNull(),
    /** Instant links sent before their photos were ready: the page shows them once they are. */
    instantLinkIds: integer('instant_link_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    receiverFullName: text('receiver_full_name').notNull(),
    receiverCompanyName: text('receiver_company_name'),
    contactPhoneNumber: text('contact_phone_number'),
    receiverConsent: smallint('receiver_consent').notNull().default(0),
    senderAttendeeUid: text('sender_attendee_uid'),
    emailAddresses: text('email_addresses').array().notNull(),
    smsNumber: text('sms_number'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mini_albums_token_idx').on(t.tokenHash),
    index('mini_albums_event_idx').on(t.eventId),
  ],
);

/**
 * Shares of a photo by viewers (Facebook and others), albums spec §7.2 "tracked as FacebookShare".
 * Not in `activities`: those are robot reports (robot_id required); a share comes from a viewer
 * with a public key and no robot, and weakening that invariant would blur both.
 */
export const photoShares = pgTable(
  'photo_shares',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    photoId: integer('photo_id')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    /** The activity name, e.g. `FacebookShare`. */
    activityName: text('activity_name').notNull(),
    keyType: text('key_type'),
    createdAt: createdAt(),
  },
  (t) => [index('photo_shares_event_idx').on(t.eventId, t.createdAt)],
);

// ---- attendees (attendee albums and kiosk pages) --------------------------------------

/**
 * A person with an album of their own (albums §3). `uid` is the normalised attendee id (upper
 * case, no dashes) and opens the album like a key; `private_id` is the code printed on kiosk cards.
 * Generated by owners for one or more events of an organisation, or created when a robot uploads a
 * photo with an attendee id that the event's `attendeeIdRegex` accepts.
 */
/**
 * One call of attendee generation. Its attendees are written in many short transactions (so a
 * million ids never hold the database for a minute) and become visible together when the batch
 * turns `ready`; a batch left `pending` by a crash is deleted by the `attendees.cleanup` job.
 */
export const attendeeBatches = pgTable(
  'attendee_batches',
  {
    id: identityId(),
    organisationId: belongsToOrganisation(),
    requestedCount: integer('requested_count').notNull(),
    /** pending → ready */
    status: text('status').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('attendee_batches_status_idx').on(t.status, t.createdAt)],
);

export const attendees = pgTable(
  'attendees',
  {
    id: identityId(),
    /** The generation that made it; null for attendees created by uploads. */
    batchId: integer('batch_id').references(() => attendeeBatches.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    privateId: text('private_id'),
    /**
     * 1: the id was chosen by a booth (an upload's attendee id, often a short wristband number):
     * guessable, so it opens the album only together with the private id (`<id>~<private id>`).
     */
    customUid: smallint('custom_uid').notNull().default(0),
    organisationId: belongsToOrganisation(),
    email: text('email'),
    isPrepaid: smallint('is_prepaid').notNull().default(0),
    unlocked: smallint('unlocked').notNull().default(0),
    partialUnlockTag: text('partial_unlock_tag'),
    urlPrefix: text('url_prefix'),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('attendees_uid_idx').on(t.uid),
    index('attendees_batch_idx').on(t.batchId),
    index('attendees_organisation_idx').on(t.organisationId, t.createdAt),
  ],
);

/** The events an attendee's album spans. */
export const attendeeEvents = pgTable(
  'attendee_events',
  {
    attendeeId: integer('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
    eventId: belongsToEvent(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.attendeeId, t.eventId] }),
    index('attendee_events_event_idx').on(t.eventId, t.attendeeId),
  ],
);

/**
 * Photos in an attendee's album beyond those uploaded with their id: attached by an owner, at an
 * all-photos kiosk or by a QR scan at a ride (`source`).
 */
export const attendeePhotos = pgTable(
  'attendee_photos',
  {
    attendeeId: integer('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
    photoId: integer('photo_id')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.attendeeId, t.photoId] }),
    index('attendee_photos_photo_idx').on(t.photoId),
  ],
);

/**
 * The photos an attendee marked as favourites in their album (a heart on the photo): kept with the
 * album so they follow the guest to another device. Only photos of their own album (the service
 * checks it); a photo or attendee deleted takes its marks with it.
 */
export const attendeeFavourites = pgTable(
  'attendee_favourites',
  {
    attendeeId: integer('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
    photoId: integer('photo_id')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.attendeeId, t.photoId] }),
    index('attendee_favourites_photo_idx').on(t.photoId),
  ],
);

/**
 * Profile photos of an attendee taken or picked at a kiosk (albums §7.2 `/attendee/profile-photo/*`):
 * protected objects under `profile-photos/<attendee uid>/`, jpg/jpeg/png at most 1500 px wide.
 */
export const attendeeProfilePhotos = pgTable(
  'attendee_profile_photos',
  {
    id: identityId(),
    attendeeId: integer('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('attendee_profile_photos_key_idx').on(t.storageKey),
    index('attendee_profile_photos_attendee_idx').on(t.attendeeId, t.id),
  ],
);

/**
 * Privacy requests answered (an attendee's export or erasure): who, when, which attendee id and how
 * many rows and objects, nothing else about the person. Kept apart from the attendee's rows (no
 * foreign key to them), so the erasure leaves it.
 */
export const privacyRequests = pgTable(
  'privacy_requests',
  {
    id: identityId(),
    organisationId: belongsToOrganisation(),
    actorUserId: integer('actor_user_id'),
    /** export | erase */
    action: text('action').$type<'export' | 'erase'>().notNull(),
    attendeeUid: text('attendee_uid').notNull(),
    counts: jsonb('counts').$type<Record<string, number>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('privacy_requests_organisation_idx').on(t.organisationId, t.createdAt)],
);

// ---- outbox and webhooks --------------------------------------------------------------

export type OutboxChannel = 'mail' | 'sms';
/**
 * `outbox`: held, no provider configured for the channel (the embedded default; operators read it);
 * `queued` → `sending` (claimed by one worker) → `sent` | `failed` (permanent refusal or attempts
 * used up); a provider's delivery report may then move `sent` to `delivered`, `undelivered` or
 * `failed`, once.
 */
export type OutboxStatus =
  'outbox' | 'queued' | 'sending' | 'sent' | 'failed' | 'delivered' | 'undelivered';
export interface MailContent {
  subject: string;
  text: string;
  html: string | null;
  /** Extra headers (`List-Unsubscribe`, `List-Unsubscribe-Post`); absent on older rows. */
  headers?: Record<string, string>;
  /** Text files sent with the mail (an attendee list's CSV and QR sheet). */
  attachments?: MailAttachment[];
}
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The file's text (UTF-8). */
  content: string;
}
export interface SmsContent {
  body: string;
}
export type OutboxContent = MailContent | SmsContent;

/** Every message the product sends, mail and SMS alike (one outbox; see docs/domains/providers.md). */
export const outbox = pgTable(
  'outbox',
  {
    id: identityId(),
    channel: text('channel').$type<OutboxChannel>().notNull(),
    /** What the message is for (`user_invitation`, `mini_album_link`, …). */
    kind: text('kind').notNull(),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'set null' }),
    /** An e-mail address (mail) or digits only (sms). */
    recipient: text('recipient').notNull(),
    /** The sender for this message (an event's verified address or SMS sender); null: the platform's. */
    sender: text('sender'),
    content: jsonb('content').$type<OutboxContent>().notNull(),
    status: text('status').$type<OutboxStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due (a retry), or when a claimed attempt's lease runs out. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Why the last attempt failed, in the provider's words (never a secret). */
    lastError: text('last_error'),
    /** The adapter that took the message (`smtp`, `twilio`) and its id for it. */
    provider: text('provider'),
    providerMessageId: text('provider_message_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /**
     * At most one message per key (topic notifications: `topic:<key>:<event key>:<channel>:<recipient>`);
     * null for messages that may repeat (sign-in codes …).
     */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('outbox_dedupe_idx').on(t.dedupeKey),
    index('outbox_created_idx').on(t.createdAt),
    index('outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('outbox_provider_message_idx').on(t.provider, t.providerMessageId),
  ],
);

/**
 * Recipients who asked an event for no further marketing messages (the unsubscribe link or the
 * one-click `List-Unsubscribe` POST). `recipient` is a lower-cased address or digits only.
 */
export const unsubscribes = pgTable(
  'unsubscribes',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    recipient: text('recipient').notNull(),
    channel: text('channel').$type<OutboxChannel>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('unsubscribes_event_recipient_idx').on(t.eventId, t.recipient)],
);

/**
 * A lead: what a guest gave before an album of an event that collects leads
 * opened (`collect_leads`, `lead_params`), with the consent text's version and time when the
 * event asks for agreement. One row per event and e-mail (lower case); a later entry updates it.
 */
export const leads = pgTable(
  'leads',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    companyName: text('company_name'),
    phone: text('phone'),
    /** The key type of the page the guest came through (public, private, attendee). */
    source: text('source').notNull(),
    consentVersion: text('consent_version'),
    consentText: text('consent_text'),
    consentedAt: timestamp('consented_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('leads_event_email_idx').on(t.eventId, t.email)],
);

/** Webhooks already taken in, by the provider's event id: a replay or duplicate changes state once. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: identityId(),
    provider: text('provider').notNull(),
    providerEventId: text('provider_event_id').notNull(),
    /** What it was about (`sms.status` …), for operators. */
    kind: text('kind').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_events_provider_event_idx').on(t.provider, t.providerEventId)],
);

// ---- paid albums ---------------------------------------------------------------------

/** What an order sells: the photos whose originals it unlocks, and those it prints. */
export interface OrderItems {
  /** Photo uids whose originals the order unlocks; `all`: the attendee's whole album of the event. */
  digitals: string[] | 'all';
  /** Photo uids to print (one copy each), queued once the order is paid. */
  prints: string[];
  /** The printer pool of the button's prints (`printsPool`); null or absent: the event's default. */
  printsPool?: string | null;
  /**
   * A purchase from a public or private album: the photo uids put into the buyer's personal album
   * (the order's attendee) once the order is paid. Absent on an attendee's own album purchase.
   */
  attach?: string[];
  /**
   * False when bought at a kiosk: the prints wait for the guest's "Print" there (counted in
   * `orders.prints_used`). True or absent: printed at once when the order is paid.
   */
  printOnPayment?: boolean;
}

/**
 * An attendee's purchase at one event (albums spec §3, §9: USD, tax 0, quantity 1). The amount is
 * fixed when the order is made, from the pricing button the guest chose. `client_request_id` makes
 * a repeated create answer the same order.
 */
export const orders = pgTable(
  'orders',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    attendeeId: integer('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
    pricingButtonIndex: integer('pricing_button_index').notNull(),
    /** The button's text when ordered (buttons may change later). */
    buttonText: text('button_text').notNull(),
    items: jsonb('items').$type<OrderItems>().notNull(),
    /** Only photos with this tag unlock (a partial-unlock button); null: the items as listed. */
    partialUnlockTag: text('partial_unlock_tag'),
    /** Integer cents. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /**
     * Prints of the order already printed at a kiosk (`items.prints` is how many were bought); moved
     * only by one conditional update, so racing kiosks never print more than were bought.
     */
    printsUsed: integer('prints_used').notNull().default(0),
    /** open → paid → refunded */
    status: text('status').$type<'open' | 'paid' | 'refunded'>().notNull(),
    clientRequestId: text('client_request_id').notNull(),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_client_request_idx').on(t.eventId, t.clientRequestId),
    index('orders_event_idx').on(t.eventId, t.createdAt),
    index('orders_attendee_idx').on(t.attendeeId, t.eventId),
  ],
);

/**
 * One attempt to pay an order through a provider. Status only moves forward
 * (`@flashbulb/shared` payment-state.ts); `public_id` is what clients and checkout pages see.
 */
export const payments = pgTable(
  'payments',
  {
    id: identityId(),
    /** Random, unguessable (`pay_…`): the id in replies, checkout URLs and provider references. */
    publicId: text('public_id').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The provider's id for this payment, once it has one. */
    providerReference: text('provider_reference'),
    status: text('status').$type<PaymentStatusName>().notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    clientRequestId: text('client_request_id').notNull(),
    /** The provider's words for a failure (never a secret). */
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /**
     * When what the payment bought was handed over (unlock, prints, receipt). Null on a paid
     * payment: a crash came between the confirmation and its effects; `payments.fulfil` redoes them.
     */
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_public_id_idx').on(t.publicId),
    uniqueIndex('payments_client_request_idx').on(t.orderId, t.clientRequestId),
    uniqueIndex('payments_provider_reference_idx').on(t.provider, t.providerReference),
    index('payments_status_idx').on(t.status, t.createdAt),
  ],
);

export type UnlockSource = 'employee_code' | 'payment' | 'owner';

/**
 * What unlocked an attendee's album at an event: an employee's code at the desk (cash sale), a
 * confirmed payment, or the owner. `scope` is `*` for the whole album or the partial-unlock tag; one
 * row per attendee, event and scope (the first unlock is the one recorded).
 */
export const attendeeUnlocks = pgTable(
  'attendee_unlocks',
  {
    id: identityId(),
    attendeeId: integer('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
    eventId: belongsToEvent(),
    scope: text('scope').notNull(),
    source: text('source').$type<UnlockSource>().notNull(),
    /** `First Last` of the employee whose code was used (employee_code). */
    employeeName: text('employee_name'),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('attendee_unlocks_scope_idx').on(t.attendeeId, t.eventId, t.scope)],
);

/**
 * Photos to print, asked for with an unlock (albums spec §7.2 unlock-and-print). Stored `queued`
 * until the printing issue sends them to a printer pool.
 */
export const printRequests = pgTable(
  'print_requests',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    attendeeId: integer('attendee_id').references(() => attendees.id, { onDelete: 'set null' }),
    photoUids: jsonb('photo_uids').$type<string[]>().notNull(),
    copies: integer('copies').notNull(),
    /** The pool to print on; null: the event's default. */
    printerPool: text('printer_pool'),
    source: text('source').$type<UnlockSource>().notNull(),
    /** `First Last` of the employee whose code was used. */
    employeeName: text('employee_name'),
    /** `queued` when stored; `sent` once its print jobs exist. */
    status: text('status').$type<'queued' | 'sent'>().notNull(),
    /** The caller's request id: a retried unlock-and-print answers this request (no second one). */
    clientRequestId: text('client_request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('print_requests_event_idx').on(t.eventId, t.createdAt),
    uniqueIndex('print_requests_client_request_idx')
      .on(t.eventId, t.clientRequestId)
      .where(sql`${t.clientRequestId} is not null`),
  ],
);

export type PrintJobState =
  'queued' | 'rendering' | 'sent' | 'printing' | 'printed' | 'failed' | 'cancelled';

/**
 * One sheet to print (docs/domains/printing.md): up to the event's placeholder count of
 * photos, printed `copies` times on a printer of `pool`. A request with a client request id makes
 * its sheets once (unique per event, request and sheet index).
 */
export const printJobs = pgTable(
  'print_jobs',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    pool: text('pool').notNull(),
    /** Photo ids in placeholder order. */
    photoIds: jsonb('photo_ids').$type<number[]>().notNull(),
    copies: integer('copies').notNull(),
    state: text('state').$type<PrintJobState>().notNull(),
    /** owner | kiosk | auto | unlock | reprint | story */
    source: text('source').notNull(),
    requestKey: text('request_key'),
    sheetIndex: integer('sheet_index').notNull().default(0),
    printRequestId: integer('print_request_id').references(() => printRequests.id, {
      onDelete: 'set null',
    }),
    printer: text('printer'),
    /** Where the file printer wrote the sheets. */
    output: text('output'),
    error: text('error'),
    reprintReason: text('reprint_reason'),
    /** The print template the sheet is laid out on (null: the default grid). */
    templateId: integer('template_id').references(() => printTemplates.id, {
      onDelete: 'set null',
    }),
    /** The rendered sheet in storage, for a print agent to fetch. */
    sheetKey: text('sheet_key'),
    /** A print agent's lease: the job goes back to the queue when it runs out. */
    leaseToken: text('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('print_jobs_event_idx').on(t.eventId, t.createdAt),
    index('print_jobs_pool_state_idx').on(t.pool, t.state),
    uniqueIndex('print_jobs_request_idx').on(t.eventId, t.requestKey, t.sheetIndex),
  ],
);

/** A paused printer pool of an event (print desk): its sheets wait in the queue until resumed. */
export const printPoolPauses = pgTable(
  'print_pool_pauses',
  {
    eventId: belongsToEvent(),
    pool: text('pool').notNull(),
    pausedAt: timestamp('paused_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.pool] })],
);

/**
 * A print station: the key a print agent on a booth computer uses to take the jobs of
 * one pool of one event. Only the key's SHA-256 is stored; revoked keys open nothing.
 */
export const printStations = pgTable(
  'print_stations',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    pool: text('pool').notNull(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    /** The printers the agent last reported: name, state, reasons. */
    printers: jsonb('printers')
      .$type<{ name: string; state: string; reasons: string[] }[]>()
      .notNull()
      .default([]),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('print_stations_key_idx').on(t.keyHash),
    index('print_stations_event_idx').on(t.eventId, t.pool),
  ],
);

/**
 * An organisation's connection to a payment provider: the provider's secrets,
 * SecretBox-sealed as the event's secure fields are, never answered (only the last four characters
 * of the main secret), and the outcome of the last credentials test. An event whose own secure
 * field is empty uses its organisation's connection (event first).
 */
export const paymentConnections = pgTable(
  'payment_connections',
  {
    organisationId: belongsToOrganisation(),
    /** 'square' | 'stripe' | 'shopify'. */
    provider: text('provider').notNull(),
    /** Sealed secrets by name (access_token, secret_key; shop is not secret but kept here too). */
    secrets: jsonb('secrets').$type<Record<string, string>>().notNull(),
    /** Not secret: Shopify's shop domain. */
    shop: text('shop'),
    lastFour: text('last_four').notNull(),
    testedAt: timestamp('tested_at', { withTimezone: true }),
    /** null: not tested; '' passed; otherwise the provider's own words (or our error key). */
    testError: text('test_error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.provider] })],
);

/**
 * A Square card reader paired from the console: what the pairing popup learnt,
 * per organisation; re-checked with the organisation's Square connection. No token here.
 */
export const cardReaders = pgTable(
  'card_readers',
  {
    id: identityId(),
    organisationId: belongsToOrganisation(),
    name: text('name').notNull(),
    locationId: text('location_id').notNull(),
    locationName: text('location_name').notNull(),
    deviceCodeId: text('device_code_id').notNull(),
    /** Empty while the reader is still unpaired. */
    deviceId: text('device_id').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('card_readers_code_idx').on(t.organisationId, t.deviceCodeId)],
);

// ---- outgoing webhooks (operations) -------------------------------------------------------------

/**
 * An operator's webhook endpoint: facts of the organisation (or of one of its events) of the
 * chosen types are POSTed to `url`, signed with the sealed secret. Disabled by hand or after
 * `failure_count` attempts in a row failed (`disabled_reason` says so).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: identityId(),
    organisationId: belongsToOrganisation(),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    eventTypes: jsonb('event_types').$type<string[]>().notNull(),
    /** SecretBox-sealed `whsec_…`. */
    secret: text('secret').notNull(),
    secretHint: text('secret_hint').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    failureCount: integer('failure_count').notNull().default(0),
    disabledReason: text('disabled_reason'),
    createdByUserId: integer('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_org_idx').on(t.organisationId)],
);

/**
 * One webhook delivery: the webhook channel of the outbox (the same life as a message: `queued` →
 * `sending` (claimed, leased) → `sent` | back to `queued` with `next_attempt_at` | `failed`).
 * `body` is the exact JSON sent; a replay is a new row with the same `event_key`.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: identityId(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The `Flashbulb-Event-Id`: the same for every endpoint and every replay of one fact. */
    eventKey: text('event_key').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    status: text('status').$type<'queued' | 'sending' | 'sent' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** A fact is delivered once per endpoint (null on replays). */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_dedupe_idx').on(t.dedupeKey),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

// ---- operations: backup schedule, backup runs, integrity reports --------------------------------

/**
 * The install's operations settings: one row (`id` 1, absent until a super user saves them).
 * `backup_schedule`: `{"kind":"off"}`, `{"kind":"daily","at":"HH:MM"}` (UTC) or
 * `{"kind":"hours","every":N}`; `backup_keep`: how many backups retention keeps.
 */
export const operationsSettings = pgTable('operations_settings', {
  id: integer('id').primaryKey(),
  backupSchedule: jsonb('backup_schedule').$type<BackupSchedule>().notNull(),
  backupKeep: integer('backup_keep').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each backup the server made or tried (scheduled or asked for): the console's "last backup". */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: identityId(),
    trigger: text('trigger').$type<'schedule' | 'manual'>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms'),
    bytes: bigint('bytes', { mode: 'number' }),
    path: text('path'),
    result: text('result').$type<'ok' | 'failed'>().notNull(),
    /** The error key (or "internal") of a failed run; never a message with paths or secrets. */
    error: text('error'),
    removed: integer('removed').notNull().default(0),
  },
  (t) => [index('backup_runs_started_idx').on(t.startedAt)],
);

/** The storage integrity check's reports, newest kept (the console's integrity page). */
export const integrityReports = pgTable(
  'integrity_reports',
  {
    id: identityId(),
    trigger: text('trigger').$type<'schedule' | 'manual'>().notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    report: jsonb('report').$type<IntegrityReport>().notNull(),
  },
  (t) => [index('integrity_reports_checked_idx').on(t.checkedAt)],
);

/**
 * Guest reach the other tables do not record (docs/domains/operations.md "Insight"): one row per
 * album view, download or face search, appended and never updated, added up by SQL when an
 * operator opens the dashboard. `visitor` is a hash of the guest's address and browser with the
 * day's salt (`insight_salts`), never the address itself: it counts unique visitors per day and
 * means nothing once the salt is gone.
 */
export const insightHits = pgTable(
  'insight_hits',
  {
    id: identityId(),
    eventId: belongsToEvent(),
    kind: text('kind').$type<'view' | 'download' | 'face_search'>().notNull(),
    /** The booth a download's photo came from (null: a zip of many, or a stock image). */
    robotId: integer('robot_id'),
    visitor: text('visitor'),
    createdAt: createdAt(),
  },
  (t) => [index('insight_hits_event_idx').on(t.eventId, t.createdAt)],
);

/** The salt of each UTC day's visitor hashes; a day's salt is deleted once the day is over. */
export const insightSalts = pgTable('insight_salts', {
  day: text('day').primaryKey(),
  salt: text('salt').notNull(),
});
