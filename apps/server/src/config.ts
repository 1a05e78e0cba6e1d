import path from 'node:path';
import { z } from 'zod';
import type { TwilioSettings } from './repositories/twilio-sms.provider.ts';
import type { S3StorageConfig } from './storage/s3-storage.ts';

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
  FLASHBULB_TRUST_PROXY: booleanFromEnv,
  FLASHBULB_AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(60),
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
  /** SMS provider: `twilio` sends through Twilio's REST API; unset keeps messages in the outbox. */
  FLASHBULB_SMS_PROVIDER: z.enum(['twilio', '']).optional(),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().optional(),
  TWILIO_API_BASE: z.string().url().default('https://api.twilio.com'),
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
  trustProxy: boolean;
  /** Identity calls per client address per minute. */
  authRateLimit: number;
  webDist: string;
  storage: {
    /** Credentials of the local backend's presigned POSTs; the secret defaults to one derived from the secret key. */
    localAccessKeyId: string;
    localSecretAccessKey: string | undefined;
    /** Set when FLASHBULB_S3_BUCKET is: objects live in that bucket instead of the data dir. */
    s3: S3StorageConfig | undefined;
  };
  /** Set when FLASHBULB_SMS_PROVIDER=twilio: SMS leave the outbox through Twilio. */
  sms: TwilioSettings | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
}

const twilioSettings = (e: z.infer<typeof envSchema>): TwilioSettings | undefined => {
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
  };
};

/** Parse the environment once, at start. Throws with every problem listed. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): AppConfig => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.FLASHBULB_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.FLASHBULB_MAIL_FROM,
    publicUrl: (e.FLASHBULB_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    adminEmail: e.FLASHBULB_ADMIN_EMAIL?.trim() || undefined,
    adminPassword: e.FLASHBULB_ADMIN_PASSWORD || undefined,
    mfaExemptUsers: new Set(
      e.FLASHBULB_MFA_EXEMPT_USERS.split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
    secretKey: e.FLASHBULB_SECRET_KEY,
    trustProxy: e.FLASHBULB_TRUST_PROXY,
    authRateLimit: e.FLASHBULB_AUTH_RATE_LIMIT,
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
    sms: twilioSettings(e),
    logLevel: e.LOG_LEVEL,
  };
};
