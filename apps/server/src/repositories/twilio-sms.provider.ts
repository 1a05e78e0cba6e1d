import type { SmsOutboxRow, SmsProvider } from './sms.repository.ts';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** A Twilio number (E.164) or alphanumeric sender id used when the event names none. */
  from: string | undefined;
  /** A Messaging Service picks the sender itself; takes precedence over `from`. */
  messagingServiceSid: string | undefined;
  /** `https://api.twilio.com` (regional edges or a test double may differ). */
  apiBase: string;
}

/**
 * A refusal that sending again cannot fix (Twilio answered 4xx other than 429: bad number,
 * unverified sender, suspended account). The outbox marks the message failed at once.
 */
export class PermanentSmsError extends Error {
  override readonly name = 'PermanentSmsError';
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
 * Twilio's Programmable Messaging REST API: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`
 * with HTTP basic auth (AccountSid:AuthToken) and form fields To, Body and From or
 * MessagingServiceSid; 201 with the Message resource, or a JSON error {code, message, status}.
 */
export class TwilioSmsProvider implements SmsProvider {
  constructor(
    private readonly settings: TwilioSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The sender: the event's own when Twilio can use it, else the configured one. */
  private sender(row: SmsOutboxRow): Record<string, string> {
    if (this.settings.messagingServiceSid)
      return { MessagingServiceSid: this.settings.messagingServiceSid };
    const eventFrom = row.fromName?.trim();
    if (eventFrom && (isPhoneNumber(eventFrom) || isSenderId(eventFrom))) {
      return { From: isPhoneNumber(eventFrom) ? e164(eventFrom) : eventFrom };
    }
    if (this.settings.from) return { From: this.settings.from };
    throw new PermanentSmsError('no SMS sender: set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID');
  }

  async send(row: SmsOutboxRow): Promise<void> {
    const { accountSid, authToken, apiBase } = this.settings;
    const url = `${apiBase.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
    const form = new URLSearchParams({
      To: e164(row.toNumber),
      Body: row.body,
      ...this.sender(row),
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
      // Network trouble: the job retries later.
      throw new Error(`Twilio unreachable: ${error instanceof Error ? error.message : 'error'}`);
    }
    if (response.ok) return;
    let detail = `HTTP ${response.status}`;
    try {
      const body = (await response.json()) as { code?: unknown; message?: unknown };
      const code =
        typeof body.code === 'number' || typeof body.code === 'string' ? body.code : null;
      const message = typeof body.message === 'string' ? body.message : '';
      if (code !== null || message) detail = `Twilio ${code ?? response.status}: ${message}`;
    } catch {
      // not JSON: keep the status
    }
    if (response.status >= 400 && response.status < 500 && response.status !== 429)
      throw new PermanentSmsError(detail);
    throw new Error(detail);
  }
}
