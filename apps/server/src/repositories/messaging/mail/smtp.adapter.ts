import { createTransport, type Transporter } from 'nodemailer';
import { ProviderError } from '../../provider-error.ts';
import type { MailProvider, OutgoingMail } from './mail-provider.ts';

/** Network-level nodemailer error codes: the server may answer later. */
const NETWORK_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNRESET']);

interface NodemailerError {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
}

/**
 * Translates a nodemailer failure: an SMTP 5xx reply is permanent (unknown mailbox, refused
 * sender, failed authentication), a 4xx reply or network trouble is retryable. The message holds
 * the server's reply line or the error code, never the SMTP URL (it carries the password).
 */
export const smtpError = (error: unknown): ProviderError => {
  const e = (typeof error === 'object' && error !== null ? error : {}) as NodemailerError;
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : null;
  const code = typeof e.code === 'string' ? e.code : null;
  const reply = typeof e.response === 'string' ? e.response.slice(0, 300) : '';
  if (responseCode !== null) {
    const message = `SMTP ${reply || responseCode}`;
    return responseCode >= 500
      ? ProviderError.permanent('smtp', message, String(responseCode))
      : ProviderError.retryable('smtp', message, String(responseCode));
  }
  if (code && NETWORK_CODES.has(code))
    return ProviderError.retryable('smtp', `SMTP server unreachable (${code})`, code);
  return ProviderError.retryable('smtp', `SMTP error${code ? ` (${code})` : ''}`, code);
};

/** Hands a message to an SMTP server (nodemailer, `SMTP_URL`). */
export class SmtpMailAdapter implements MailProvider {
  readonly name = 'smtp';
  readonly secrets: readonly string[];
  private readonly transporter: Transporter;

  constructor(
    smtpUrl: string,
    private readonly platformFrom: string,
  ) {
    // Bounded waits: an attempt must end well within the outbox's 5-minute claim.
    this.transporter = createTransport({
      url: smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    const url = new URL(smtpUrl);
    this.secrets = [decodeURIComponent(url.password)].filter(Boolean);
  }

  async send(message: OutgoingMail): Promise<{ providerMessageId: string | null }> {
    try {
      const info = (await this.transporter.sendMail({
        from: message.from ?? this.platformFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.attachments?.length
          ? {
              attachments: message.attachments.map((a) => ({
                filename: a.filename,
                contentType: `${a.contentType}; charset=utf-8`,
                content: a.content,
              })),
            }
          : {}),
        // The outbox id makes a retried delivery recognisable to the receiving side.
        headers: { ...message.headers, 'X-Flashbulb-Outbox-Id': String(message.outboxId) },
      })) as { messageId?: unknown };
      return { providerMessageId: typeof info.messageId === 'string' ? info.messageId : null };
    } catch (error) {
      throw smtpError(error);
    }
  }

  close(): void {
    this.transporter.close();
  }
}
