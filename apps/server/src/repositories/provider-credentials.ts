import { SECURE_FIELDS, type SecureField } from '@flashbulb/shared';
import type { SecretBox } from '../lib/secret-box.ts';
import type { EventRepository } from './events/event.repository.ts';
import type { PaymentConnectionRepository } from './payments/payment-connection.repository.ts';

/**
 * The organisation connection (console Payments page) a secure field falls back to, and the
 * connection's secret that stands in for it. Shopify is a pair (shop + token): see `shopify()`.
 */
const ORGANISATION_FALLBACK: Partial<Record<SecureField, { provider: string; secret: string }>> = {
  square_access_token: { provider: 'square', secret: 'access_token' },
  stripe_secret_key: { provider: 'stripe', secret: 'secret_key' },
};

/**
 * Provider credentials an event carries itself (`events.secure_fields`: Stripe key, Shopify
 * credentials, Monobank token …), SecretBox-sealed at rest. A service reads them right before a
 * provider call for an event it has already checked access to, passes them to the adapter, and
 * keeps them nowhere: never logged, stored elsewhere, put in an error or a reply. Credentials that
 * belong to the platform rather than an event (Twilio, SMTP) come from configuration instead.
 *
 * Precedence: the event's own secure field first; when it is empty, the event's
 * organisation's connection to that provider (console Payments page), sealed the same way.
 */
export class EventProviderCredentials {
  constructor(
    private readonly events: EventRepository,
    private readonly secrets: SecretBox,
    private readonly connections: PaymentConnectionRepository | null = null,
  ) {}

  private async connectionSecrets(
    organisationId: number | null,
    provider: string,
  ): Promise<{ secrets: Record<string, string>; shop: string | null } | null> {
    if (!this.connections || organisationId === null) return null;
    const row = await this.connections.find(organisationId, provider);
    if (!row) return null;
    const secrets: Record<string, string> = {};
    for (const [name, sealed] of Object.entries(row.secrets))
      secrets[name] = this.secrets.decrypt(sealed);
    return { secrets, shop: row.shop };
  }

  /** The asked fields that are set (the event's, else its organisation's), decrypted. */
  async read(
    eventId: number,
    fields: readonly SecureField[],
  ): Promise<Partial<Record<SecureField, string>>> {
    const event = await this.events.findById(eventId);
    if (!event) return {};
    const sealed = event.row.secureFields;
    const out: Partial<Record<SecureField, string>> = {};
    for (const field of fields) {
      const value = SECURE_FIELDS.includes(field) ? sealed[field] : undefined;
      if (value) out[field] = this.secrets.decrypt(value);
      const fallback = ORGANISATION_FALLBACK[field];
      if (out[field]?.trim() || !fallback) continue;
      const connection = await this.connectionSecrets(event.row.organisationId, fallback.provider);
      const secret = connection?.secrets[fallback.secret];
      if (secret) out[field] = secret;
    }
    return out;
  }

  /**
   * The event's Shopify shop and token: the event's own pair (`shopDomain` opt and
   * `shopify_api_pass`) when its token is set, else its organisation's Shopify connection — never
   * one's shop with the other's token. Null when neither is complete.
   */
  async shopify(eventId: number): Promise<{ shop: string; access_token: string } | null> {
    const event = await this.events.findById(eventId);
    if (!event) return null;
    const sealed = event.row.secureFields.shopify_api_pass;
    const own = sealed ? this.secrets.decrypt(sealed).trim() : '';
    if (own) {
      const shop = event.row.opts.shopDomain?.trim() ?? '';
      return shop ? { shop, access_token: own } : null;
    }
    const connection = await this.connectionSecrets(event.row.organisationId, 'shopify');
    const token = connection?.secrets.access_token?.trim() ?? '';
    const shop = connection?.shop?.trim() ?? '';
    return token && shop ? { shop, access_token: token } : null;
  }
}
