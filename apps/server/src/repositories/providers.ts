import type { AppConfig } from '../config.ts';
import type { MailProvider } from './messaging/mail/mail-provider.ts';
import { SmtpMailAdapter } from './messaging/mail/smtp.adapter.ts';
import type { SmsProvider } from './messaging/sms/sms-provider.ts';
import { TwilioSmsAdapter } from './messaging/sms/twilio.adapter.ts';
import type { WebhookReceiver } from './operations/webhook-receiver.ts';

/** The configured adapter of every capability; null is the embedded default (see each interface). */
export interface Providers {
  /** null: messages stay in the outbox. */
  mail: MailProvider | null;
  /** null: messages stay in the outbox. */
  sms: SmsProvider | null;
  /** Adapters that take webhooks, by their `/api/webhooks/:provider` name. */
  webhooks: ReadonlyMap<string, WebhookReceiver>;
  /** Every secret the adapters hold (for scrubbing texts); never logged. */
  secrets: readonly string[];
  close(): void;
}

/**
 * Chooses the adapters from configuration, the embedded default first: a capability gets an
 * outside provider only when configuration names it (FLASHBULB_<CAPABILITY>_PROVIDER, see
 * config.ts). Adding a provider: an `<provider>.adapter.ts` implementing the capability's
 * interface, one case here and in config.ts (docs/domains/providers.md).
 */
export const createProviders = (config: AppConfig): Providers => {
  const mail =
    config.providers.mail.kind === 'smtp'
      ? new SmtpMailAdapter(config.providers.mail.url, config.mailFrom)
      : null;
  const twilio =
    config.providers.sms.kind === 'twilio'
      ? new TwilioSmsAdapter(config.providers.sms.settings)
      : null;
  const webhooks = new Map<string, WebhookReceiver>();
  if (twilio) webhooks.set(twilio.provider, twilio);
  return {
    mail,
    sms: twilio,
    webhooks,
    secrets: [...(mail?.secrets ?? []), ...(twilio?.secrets ?? [])],
    close() {
      mail?.close();
    },
  };
};
