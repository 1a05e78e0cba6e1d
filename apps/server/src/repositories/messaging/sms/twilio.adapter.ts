import { createHmac, timingSafeEqual } from 'node:crypto';
import { ProviderError } from '../../provider-error.ts';
import type {
  RawWebhook,
  VerifiedWebhook,
  WebhookReceiver,
} from '../../operations/webhook-receiver.ts';
import type { OutgoingSms, SmsProvider } from './sms-provider.ts';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** A Twilio number (E.164) or alphanumeric sender id used when the event names none. */
  from: string | undefined;
  /** A Messaging Service picks the sender itself; takes precedence over `from`. */
  messagingServiceSid: string | undefined;
  /** `https://api.twilio.com` (regional edges or a test double may differ). */
  apiBase: string;
  /**
   * Where Twilio reports delivery (`<public URL>/api/webhooks/twilio`); each message adds
   * `?outboxId=<id>`. Unset: no status callbacks are asked for.
   */
  statusCallbackUrl: string | undefined;
}

/**
 * To E.164. Numbers are stored as digits (albums §5 US phones): ten digits are US numbers
 * without the country code; eleven starting with 1 already carry it.
 */
export const e164 = (digits: string): string => {
  const only = digits.replace(/\D/g, '');
  if (only.length === 10) return `+1${only}`;
  return `+${only}`;
};

/** Alphanumeric sender ids: 1–11 letters, digits and spaces with at least one letter. */
const isSenderId = (value: string): boolean =>
  /^[A-Za-z0-9 ]{1,11}$/.test(value) && /[A-Za-z]/.test(value);
const isPhoneNumber = (value: string): boolean =>
  /^\+?[0-9]{6,15}$/.test(value.replace(/[\s()-]/g, ''));

/**
 * Twilio's request signature (Twilio docs, "Secure webhooks"): the full URL Twilio called, then
 * every POST parameter sorted by name, each as name + value with no separators; HMAC-SHA1 keyed
 * by the account's auth token; base64.
 */
export const twilioSignature = (
  authToken: string,
  url: string,
  params: ReadonlyArray<readonly [string, string]>,
): string => {
  const sorted = [...params].sort(([a, av], [b, bv]) =>
    a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0,
  );
  const data = sorted.reduce((text, [name, value]) => text + name + value, url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
};

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Message statuses Twilio reports that end a message's journey. */
const FINAL_STATUSES = new Set(['delivered', 'undelivered', 'failed'] as const);
type FinalStatus = 'delivered' | 'undelivered' | 'failed';

/**
 * Twilio's Programmable Messaging REST API: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`
 * with HTTP basic auth (AccountSid:AuthToken) and form fields To, Body and From or
 * MessagingServiceSid (and StatusCallback); 201 with the Message resource (`sid`), or a JSON error
 * {code, message, status}. 4xx other than 429 are permanent refusals (bad number, unverified
 * sender, bad credentials); 429, 5xx and network trouble are retryable.
 *
 * Status callbacks (`MessageSid`, `MessageStatus`, `ErrorCode`, signed with `X-Twilio-Signature`)
 * arrive at `/api/webhooks/twilio` and are verified here.
 */
export class TwilioSmsAdapter implements SmsProvider, WebhookReceiver {
  readonly name = 'twilio';
  readonly provider = 'twilio';
  readonly secrets: readonly string[];

  constructor(
    private readonly settings: TwilioSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.secrets = [settings.authToken];
  }

  /** The sender: the event's own when Twilio can use it, else the configured one. */
  private sender(message: OutgoingSms): Record<string, string> {
    if (this.settings.messagingServiceSid)
      return { MessagingServiceSid: this.settings.messagingServiceSid };
    const eventFrom = message.from?.trim();
    if (eventFrom && (isPhoneNumber(eventFrom) || isSenderId(eventFrom))) {
      return { From: isPhoneNumber(eventFrom) ? e164(eventFrom) : eventFrom };
    }
    if (this.settings.from) return { From: this.settings.from };
    throw ProviderError.permanent(
      'twilio',
      'no SMS sender: set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID',
    );
  }

  async send(message: OutgoingSms): Promise<{ providerMessageId: string | null }> {
    const { accountSid, authToken, apiBase, statusCallbackUrl } = this.settings;
    const url = `${apiBase.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
    const form = new URLSearchParams({
      To: e164(message.to),
      Body: message.body,
      ...this.sender(message),
      ...(statusCallbackUrl
        ? { StatusCallback: `${statusCallbackUrl}?outboxId=${message.outboxId}` }
        : {}),
    });
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'network error';
      throw ProviderError.retryable('twilio', `Twilio unreachable: ${reason}`);
    }
    let body: { sid?: unknown; code?: unknown; message?: unknown } = {};
    try {
      body = (await response.json()) as typeof body;
    } catch {
      // not JSON: keep the status
    }
    if (response.ok) return { providerMessageId: typeof body.sid === 'string' ? body.sid : null };
    const code =
      typeof body.code === 'number' || typeof body.code === 'string' ? String(body.code) : null;
    const text = typeof body.message === 'string' ? body.message.slice(0, 300) : '';
    const detail =
      code !== null || text
        ? `Twilio ${code ?? response.status}: ${text}`
        : `HTTP ${response.status}`;
    if (response.status >= 400 && response.status < 500 && response.status !== 429)
      throw ProviderError.permanent('twilio', detail, code);
    throw ProviderError.retryable('twilio', detail, code);
  }

  verifyWebhook(request: RawWebhook): VerifiedWebhook | null {
    const header = request.headers['x-twilio-signature'];
    const given = Array.isArray(header) ? header[0] : header;
    if (!given) return null;
    const contentType = String(request.headers['content-type'] ?? '');
    // Status callbacks are form posts; the signature covers their parameters.
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) return null;
    const params = [...new URLSearchParams(request.body.toString('utf8'))];
    const expected = twilioSignature(this.settings.authToken, request.url, params);
    if (!sameText(given, expected)) return null;

    const form = new Map(params);
    const messageSid = form.get('MessageSid') ?? form.get('SmsSid');
    const status = form.get('MessageStatus') ?? form.get('SmsStatus');
    if (!messageSid || !status)
      return { providerEventId: `unused:${expected}`, effect: { kind: 'ignored' } };
    const outboxId = Number(new URL(request.url).searchParams.get('outboxId'));
    const final = FINAL_STATUSES.has(status as FinalStatus) ? (status as FinalStatus) : null;
    const errorCode = form.get('ErrorCode');
    return {
      // A message reports each status once; a retried or replayed callback repeats the pair.
      providerEventId: `${messageSid}:${status}`,
      effect: {
        kind: 'message.status',
        outboxId: Number.isSafeInteger(outboxId) && outboxId > 0 ? outboxId : null,
        providerMessageId: messageSid,
        status: final,
        reason: final && final !== 'delivered' ? `Twilio ${errorCode || status}` : null,
      },
    };
  }
}
