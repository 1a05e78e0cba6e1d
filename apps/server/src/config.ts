import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { TwilioSettings } from './repositories/messaging/sms/twilio.adapter.ts';
import type { S3StorageConfig } from './storage/s3-storage.ts';
import type { QuotaLimits } from './services/operations/quotas.ts';
import { parseGuestLimits, type GuestLimits } from './access/guest-limits.ts';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  FLASHBULB_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  FLASHBULB_MAIL_FROM: z.string().default('Flashbulb <no-reply@flashbulb.local>'),
  FLASHBULB_PUBLIC_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  FLASHBULB_ADMIN_EMAIL: z.string().optional(),
  FLASHBULB_ADMIN_PASSWORD: z.string().optional(),
  FLASHBULB_MFA_EXEMPT_USERS: z.string().default(''),
  /** 32+ characters; encrypts secrets at rest and signs tokens. Generated into the data dir when unset. */
  FLASHBULB_SECRET_KEY: z
    .string()
    .min(32)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  FLASHBULB_TRUST_PROXY: z.string().optional(),
  FLASHBULB_AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(60),
  /** Overrides of the guest limits (`name=value,…`; access/guest-limits.ts, docs/security.md). */
  FLASHBULB_GUEST_LIMITS: z.string().optional(),
  /** api: serve calls, run no jobs; worker: run jobs and schedules, serve health only; all: both. */
  FLASHBULB_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  /** Nice value of the image threads (libvips) so requests run first; 0 leaves them as they are. */
  FLASHBULB_IMAGE_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** A system ffmpeg / ffprobe instead of the binaries the npm packages carry. */
  FLASHBULB_FFMPEG_PATH: z.string().optional(),
  FLASHBULB_FFPROBE_PATH: z.string().optional(),
  /**
   * Seconds a client has to send a whole request, body included (uploads to local storage too), and
   * its headers; a slower client gets 408 and the connection closes (a trickled body holds nothing).
   */
  FLASHBULB_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  FLASHBULB_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
  /** Quotas (docs/security.md): per organisation, and per key for selfies and face searches. */
  FLASHBULB_QUOTA_ATTENDEES_PER_CALL: z.coerce.number().int().min(1).default(10_000),
  FLASHBULB_QUOTA_ATTENDEES_PER_DAY: z.coerce.number().int().min(1).default(100_000),
  FLASHBULB_QUOTA_UPLOAD_COMPLETIONS: z.coerce.number().int().min(1).default(8),
  FLASHBULB_QUOTA_SELFIE_GRANTS_PER_HOUR: z.coerce.number().int().min(1).default(300),
  FLASHBULB_QUOTA_FACE_SEARCHES_PER_HOUR: z.coerce.number().int().min(1).default(600),
  FLASHBULB_WEB_DIST: z.string().optional(),
  /** Object storage: local disk unless FLASHBULB_S3_BUCKET is set (see src/storage). */
  FLASHBULB_STORAGE_ACCESS_KEY_ID: z.string().min(1).default('flashbulb-local'),
  FLASHBULB_STORAGE_SECRET_ACCESS_KEY: z
    .string()
    .min(16)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  FLASHBULB_S3_BUCKET: z.string().optional(),
  FLASHBULB_S3_ENDPOINT: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  FLASHBULB_S3_REGION: z.string().min(1).default('us-east-1'),
  FLASHBULB_S3_ACCESS_KEY_ID: z.string().optional(),
  FLASHBULB_S3_SECRET_ACCESS_KEY: z.string().optional(),
  FLASHBULB_S3_FORCE_PATH_STYLE: booleanFromEnv,
  FLASHBULB_S3_PUBLIC_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Mail adapter: `outbox` (the embedded default) keeps messages held; `smtp` sends through SMTP_URL. Default: `smtp` when SMTP_URL is set. */
  FLASHBULB_MAIL_PROVIDER: z.enum(['outbox', 'smtp', '']).optional(),
  /** SMS adapter: `outbox` (the embedded default, also when unset) keeps messages held; `twilio` sends through Twilio's REST API. */
  FLASHBULB_SMS_PROVIDER: z.enum(['outbox', 'twilio', '']).optional(),
  /**
   * `none` (the default, also when unset or empty): nothing sells until a real provider is
   * connected for an event; `test`: the built-in test provider (test cards, anyone holding a
   * payment id can pay it) sells events without a real provider, for demos and tests, and the
   * console shows a banner while it is on.
   */
  FLASHBULB_PAYMENTS_PROVIDER: z.enum(['test', 'none', '']).optional(),
  /** Stripe's API (a sandbox or the tests' double may stand in); keys are per event (`stripe_secret_key`). */
  STRIPE_API_BASE: z.string().url().default('https://api.stripe.com'),
  /** The webhook endpoint's signing secret (`whsec_…`); without it `/api/webhooks/stripe` is refused. */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Square's API (sandbox: https://connect.squareupsandbox.com; the tests' double). */
  SQUARE_API_BASE: z.string().url().default('https://connect.squareup.com'),
  /** The Square webhook subscription's signature key; without it `/api/webhooks/square` is refused. */
  SQUARE_WEBHOOK_SIGNATURE_KEY: z.string().optional(),
  /** PayPal's REST API (sandbox: https://api-m.sandbox.paypal.com; the tests' double). */
  PAYPAL_API_BASE: z.string().url().default('https://api-m.paypal.com'),
  /** PayPal card checkout on the album page: the app's client id and secret (global settings). */
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  /** `sandbox` or `live` (the album page's checkout script is told which). */
  PAYPAL_ENVIRONMENT: z.enum(['sandbox', 'live']).default('sandbox'),
  /** The webhook's id at PayPal (verify-webhook-signature needs it); without it `/api/webhooks/paypal` is refused. */
  PAYPAL_WEBHOOK_ID: z.string().optional(),
  /**
   * PayPal's JavaScript SDK the album page loads for its card form (the tests serve a stand-in from
   * the PayPal double); its origin joins the page's Content-Security-Policy while PayPal is on.
   */
  PAYPAL_SDK_URL: z.string().url().default('https://www.paypal.com/sdk/js'),
  /**
   * Where Shopify Admin API calls go instead of `https://<event's shop domain>` (development and the
   * tests' double only); unset in production, where only `*.myshopify.com` shop domains are called.
   */
  SHOPIFY_API_BASE: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The Shopify app's secret signing `X-Shopify-Hmac-Sha256`; without it `/api/webhooks/shopify` is refused. */
  SHOPIFY_WEBHOOK_SECRET: z.string().optional(),
  /** The venue's payment terminal service (`{terminal}/fcc/pay` …); without it terminal sales are refused. */
  FLASHBULB_PAYMENT_TERMINAL_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  FLASHBULB_PAYMENT_TERMINAL_STORE_ID: z.string().default(''),
  FLASHBULB_PAYMENT_TERMINAL_ID: z.string().default(''),
  FLASHBULB_PAYMENT_TERMINAL_LANE_ID: z.string().default(''),
  /** Milliseconds before a payment provider call is given up (then retried or reconciled). */
  FLASHBULB_PAYMENTS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().optional(),
  TWILIO_API_BASE: z.string().url().default('https://api.twilio.com'),
  /** Bearer token that may read /metrics from anywhere (without it: loopback, unproxied, only). */
  FLASHBULB_METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Lets webhook endpoints on private and loopback addresses through (tests, closed networks). */
  FLASHBULB_WEBHOOKS_ALLOW_PRIVATE: booleanFromEnv,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  mfaExemptUsers: ReadonlySet<string>;
  secretKey: string | undefined;
  /**
   * FLASHBULB_TRUST_PROXY: which hops may speak for the client in `X-Forwarded-*`: none (false),
   * the nearest N proxies (a hop count) or the proxies at these addresses (a list; proxy-addr's
   * `loopback`, `linklocal` and `uniquelocal` allowed). Never every hop (parseTrustProxy).
   */
  trustProxy: false | number | string[];
  /** Identity calls per client address per minute. */
  authRateLimit: number;
  /** What guests may make the server do per window (FLASHBULB_GUEST_LIMITS over the defaults). */
  guestLimits: GuestLimits;
  /** Whole request (headers and body) and headers alone, in seconds (408 after). */
  requestTimeoutSeconds: number;
  headersTimeoutSeconds: number;
  quotas: QuotaLimits;
  /** FLASHBULB_ROLE: which parts of the server this process runs (docs/domains/signals-and-jobs.md). */
  role: 'api' | 'worker' | 'all';
  /** FLASHBULB_IMAGE_NICE: image work below the event loop (src/lib/thread-priority.ts). */
  imageNice: number;
  /** FLASHBULB_FFMPEG_PATH / FLASHBULB_FFPROBE_PATH: a system build (else the npm packages'). */
  video: { ffmpegPath: string | undefined; ffprobePath: string | undefined };
  webDist: string;
  storage: {
    /** Credentials of the local backend's presigned POSTs; the secret defaults to one derived from the secret key. */
    localAccessKeyId: string;
    localSecretAccessKey: string | undefined;
    /** Set when FLASHBULB_S3_BUCKET is: objects live in that bucket instead of the data dir. */
    s3: S3StorageConfig | undefined;
  };
  /**
   * The adapter per capability, the embedded default first (repositories/providers.ts builds them):
   * `outbox` keeps messages held in the outbox for operators to read.
   */
  providers: {
    mail: { kind: 'outbox' } | { kind: 'smtp'; url: string };
    sms: { kind: 'outbox' } | { kind: 'twilio'; settings: TwilioSettings };
    /** `none` (the default: only real providers sell) or `test` (the built-in test provider on). */
    payments: { kind: 'test' } | { kind: 'none' };
  };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** FLASHBULB_METRICS_TOKEN: a Bearer token that may read /metrics (http/metrics.ts). */
  metricsToken: string | undefined;
  /** FLASHBULB_WEBHOOKS_ALLOW_PRIVATE: webhook endpoints may be private or loopback addresses. */
  webhooksAllowPrivate: boolean;
  /** Real payment providers' settings; each is used for events that carry its credentials. */
  paymentProviders?: {
    stripe: { apiBase: string; webhookSecret: string | null };
    square: { apiBase: string; webhookSignatureKey: string | null };
    /** PayPal card checkout; null without client id and secret. */
    paypal?: {
      apiBase: string;
      clientId: string;
      clientSecret: string;
      environment: 'sandbox' | 'live';
      webhookId: string | null;
      /** The JavaScript SDK's URL (without its query). */
      sdkUrl: string;
    } | null;
    /** The venue's payment terminal; null when not configured. */
    terminal?: { url: string; storeId: string; terminalId: string; laneId: string } | null;
    /** Shopify draft orders: the API base override and the webhook secret. */
    shopify?: { apiBase: string | null; webhookSecret: string | null };
    timeoutMs: number;
  };
}

type Env = z.infer<typeof envSchema>;

const mailProvider = (e: Env): AppConfig['providers']['mail'] => {
  const chosen = e.FLASHBULB_MAIL_PROVIDER || (e.SMTP_URL ? 'smtp' : 'outbox');
  if (chosen === 'outbox') return { kind: 'outbox' };
  if (!e.SMTP_URL)
    throw new Error('Invalid configuration: FLASHBULB_MAIL_PROVIDER=smtp needs SMTP_URL');
  return { kind: 'smtp', url: e.SMTP_URL };
};

const smsProvider = (e: Env, publicUrl: string): AppConfig['providers']['sms'] => {
  const settings = twilioSettings(e, publicUrl);
  return settings ? { kind: 'twilio', settings } : { kind: 'outbox' };
};

/** Twilio calls back only public https addresses: ask for status callbacks only then. */
const statusCallbackUrl = (publicUrl: string, provider: string): string | undefined =>
  publicUrl.startsWith('https://') ? `${publicUrl}/api/webhooks/${provider}` : undefined;

const twilioSettings = (e: Env, publicUrl: string): TwilioSettings | undefined => {
  if (e.FLASHBULB_SMS_PROVIDER !== 'twilio') return undefined;
  const missing = [
    ['TWILIO_ACCOUNT_SID', e.TWILIO_ACCOUNT_SID],
    ['TWILIO_AUTH_TOKEN', e.TWILIO_AUTH_TOKEN],
  ].filter(([, value]) => !value?.trim());
  if (!e.TWILIO_FROM?.trim() && !e.TWILIO_MESSAGING_SERVICE_SID?.trim())
    missing.push(['TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID', undefined]);
  if (missing.length > 0)
    throw new Error(
      `Invalid configuration: FLASHBULB_SMS_PROVIDER=twilio needs ${missing.map(([name]) => name).join(', ')}`,
    );
  return {
    accountSid: e.TWILIO_ACCOUNT_SID!.trim(),
    authToken: e.TWILIO_AUTH_TOKEN!.trim(),
    from: e.TWILIO_FROM?.trim() || undefined,
    messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID?.trim() || undefined,
    apiBase: e.TWILIO_API_BASE,
    statusCallbackUrl: statusCallbackUrl(publicUrl, 'twilio'),
  };
};

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a proxy list: an address, an address/prefix (CIDR) or one of proxy-addr's names. */
const isProxyEntry = (entry: string): boolean => {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
};

/**
 * FLASHBULB_TRUST_PROXY. Unset, empty, `false` or `0`: no proxy (the socket's address is the
 * client). A whole number: that many proxies in front of us (`X-Forwarded-For` is read from the
 * right, so a client cannot write its own address into it). A comma list of addresses and CIDRs:
 * only those proxies. `true` trusted every hop — the left-most `X-Forwarded-For`, which the client
 * writes — and is refused, as is anything else that is not one of the above.
 */
export const parseTrustProxy = (raw: string | undefined): AppConfig['trustProxy'] => {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true')
    throw new Error(
      'Invalid configuration: FLASHBULB_TRUST_PROXY=true would trust every hop (any client could pick its own address); set the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)',
    );
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32)
      throw new Error('Invalid configuration: FLASHBULB_TRUST_PROXY: at most 32 proxy hops');
    return hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isProxyEntry(entry));
  if (entries.length === 0 || bad.length > 0)
    throw new Error(
      `Invalid configuration: FLASHBULB_TRUST_PROXY must be false, a number of proxy hops or a comma list of proxy addresses/CIDRs; not understood: ${bad.join(', ') || raw}`,
    );
  return entries;
};

/** Parse the environment once, at start. Throws with every problem listed. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): AppConfig => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const publicUrl = (e.FLASHBULB_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.FLASHBULB_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.FLASHBULB_MAIL_FROM,
    publicUrl,
    adminEmail: e.FLASHBULB_ADMIN_EMAIL?.trim() || undefined,
    adminPassword: e.FLASHBULB_ADMIN_PASSWORD || undefined,
    mfaExemptUsers: new Set(
      e.FLASHBULB_MFA_EXEMPT_USERS.split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
    secretKey: e.FLASHBULB_SECRET_KEY,
    trustProxy: parseTrustProxy(e.FLASHBULB_TRUST_PROXY),
    authRateLimit: e.FLASHBULB_AUTH_RATE_LIMIT,
    guestLimits: parseGuestLimits(e.FLASHBULB_GUEST_LIMITS),
    requestTimeoutSeconds: e.FLASHBULB_REQUEST_TIMEOUT_SECONDS,
    quotas: {
      attendeesPerCall: e.FLASHBULB_QUOTA_ATTENDEES_PER_CALL,
      attendeesPerDay: e.FLASHBULB_QUOTA_ATTENDEES_PER_DAY,
      uploadCompletions: e.FLASHBULB_QUOTA_UPLOAD_COMPLETIONS,
      selfieGrantsPerHour: e.FLASHBULB_QUOTA_SELFIE_GRANTS_PER_HOUR,
      faceSearchesPerHour: e.FLASHBULB_QUOTA_FACE_SEARCHES_PER_HOUR,
    },
    headersTimeoutSeconds: Math.min(
      e.FLASHBULB_HEADERS_TIMEOUT_SECONDS,
      e.FLASHBULB_REQUEST_TIMEOUT_SECONDS,
    ),
    role: e.FLASHBULB_ROLE,
    imageNice: e.FLASHBULB_IMAGE_NICE,
    video: {
      ffmpegPath: e.FLASHBULB_FFMPEG_PATH?.trim() || undefined,
      ffprobePath: e.FLASHBULB_FFPROBE_PATH?.trim() || undefined,
    },
    webDist: path.resolve(
      e.FLASHBULB_WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname,
    ),
    storage: {
      localAccessKeyId: e.FLASHBULB_STORAGE_ACCESS_KEY_ID,
      localSecretAccessKey: e.FLASHBULB_STORAGE_SECRET_ACCESS_KEY,
      s3: e.FLASHBULB_S3_BUCKET?.trim()
        ? {
            bucket: e.FLASHBULB_S3_BUCKET.trim(),
            region: e.FLASHBULB_S3_REGION,
            endpoint: e.FLASHBULB_S3_ENDPOINT,
            accessKeyId: e.FLASHBULB_S3_ACCESS_KEY_ID || undefined,
            secretAccessKey: e.FLASHBULB_S3_SECRET_ACCESS_KEY || undefined,
            forcePathStyle: e.FLASHBULB_S3_FORCE_PATH_STYLE,
            publicUrl: e.FLASHBULB_S3_PUBLIC_URL?.replace(/\/+$/, ''),
          }
        : undefined,
    },
    providers: {
      mail: mailProvider(e),
      sms: smsProvider(e, publicUrl),
      payments: { kind: e.FLASHBULB_PAYMENTS_PROVIDER === 'test' ? 'test' : 'none' },
    },
    logLevel: e.LOG_LEVEL,
    metricsToken: e.FLASHBULB_METRICS_TOKEN,
    webhooksAllowPrivate: e.FLASHBULB_WEBHOOKS_ALLOW_PRIVATE,
    paymentProviders: {
      stripe: {
        apiBase: e.STRIPE_API_BASE.replace(/\/+$/, ''),
        webhookSecret: e.STRIPE_WEBHOOK_SECRET?.trim() || null,
      },
      square: {
        apiBase: e.SQUARE_API_BASE.replace(/\/+$/, ''),
        webhookSignatureKey: e.SQUARE_WEBHOOK_SIGNATURE_KEY?.trim() || null,
      },
      paypal:
        e.PAYPAL_CLIENT_ID?.trim() && e.PAYPAL_CLIENT_SECRET?.trim()
          ? {
              apiBase: e.PAYPAL_API_BASE.replace(/\/+$/, ''),
              clientId: e.PAYPAL_CLIENT_ID.trim(),
              clientSecret: e.PAYPAL_CLIENT_SECRET.trim(),
              environment: e.PAYPAL_ENVIRONMENT,
              webhookId: e.PAYPAL_WEBHOOK_ID?.trim() || null,
              sdkUrl: e.PAYPAL_SDK_URL,
            }
          : null,
      terminal: e.FLASHBULB_PAYMENT_TERMINAL_URL
        ? {
            url: e.FLASHBULB_PAYMENT_TERMINAL_URL.replace(/\/+$/, ''),
            storeId: e.FLASHBULB_PAYMENT_TERMINAL_STORE_ID,
            terminalId: e.FLASHBULB_PAYMENT_TERMINAL_ID,
            laneId: e.FLASHBULB_PAYMENT_TERMINAL_LANE_ID,
          }
        : null,
      shopify: {
        apiBase: e.SHOPIFY_API_BASE?.replace(/\/+$/, '') ?? null,
        webhookSecret: e.SHOPIFY_WEBHOOK_SECRET?.trim() || null,
      },
      timeoutMs: e.FLASHBULB_PAYMENTS_TIMEOUT_MS,
    },
  };
};
