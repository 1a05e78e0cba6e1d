import { SECURE_FIELDS, type SecureField } from '@flashbulb/shared';
import type { SecretBox } from '../lib/secret-box.ts';
import type { EventRepository } from './event.repository.ts';

/**
 * Provider credentials an event carries itself (`events.secure_fields`: Stripe key, Shopify
 * credentials, Monobank token …), SecretBox-sealed at rest. A service reads them right before a
 * provider call for an event it has already checked access to, passes them to the adapter, and
 * keeps them nowhere: never logged, stored elsewhere, put in an error or a reply. Credentials that
 * belong to the platform rather than an event (Twilio, SMTP) come from configuration instead.
 */
export class EventProviderCredentials {
  constructor(
    private readonly events: EventRepository,
    private readonly secrets: SecretBox,
  ) {}

  /** The asked fields that are set, decrypted; an unknown event answers none. */
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
    }
    return out;
  }
}
