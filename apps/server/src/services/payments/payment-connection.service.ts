import type { FastifyBaseLogger as Logger } from 'fastify';
import type { ConnectionProvider, Endpoints, ParsedBodyOf } from '@flashbulb/shared';
import { requireAdministeredOrganisation } from '../../access/rules.ts';
import {
  cardReaderForOwner,
  paymentConnectionForOwner,
} from '../../presenters/payment.presenter.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type {
  PaymentConnectionRepository,
  PaymentConnectionRow,
} from '../../repositories/payments/payment-connection.repository.ts';
import { ProviderError, redactSecrets } from '../../repositories/provider-error.ts';
import { SHOP_DOMAIN, type ShopifyAdapter } from '../../repositories/payments/shopify.adapter.ts';
import type { SquareAdapter } from '../../repositories/payments/square.adapter.ts';
import type { StripePaymentsAdapter } from '../../repositories/payments/stripe.adapter.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';

/** The name each provider's main secret is sealed under (what the adapters call it). */
const SECRET_NAME: Record<ConnectionProvider, string> = {
  square: 'access_token',
  stripe: 'secret_key',
  shopify: 'access_token',
};

type OwnerBody<N extends keyof Endpoints> = ParsedBodyOf<Endpoints[N]>;

/**
 * The organisation's payment provider connections and card readers (console
 * Payments page). Who: super users any organisation, admins their own — the reach of the event's
 * secure fields (`administersOrganisation`); event owners are refused. Secrets are sealed with the
 * SecretBox the secure fields use, decrypted only for a provider call, and never answered or
 * logged: a connection is presented as connected, its last four characters and the last test.
 */
export class PaymentConnectionService {
  constructor(
    private readonly deps: {
      connections: PaymentConnectionRepository;
      organisations: OrganisationRepository;
      secrets: SecretBox;
      square: SquareAdapter;
      stripe: StripePaymentsAdapter;
      shopify: ShopifyAdapter;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** The organisation the call is about, once the caller may manage its payments. */
  private organisationOf(actor: SignedInUser | null, requested: number | undefined) {
    return requireAdministeredOrganisation(actor, requested, this.deps.organisations);
  }

  private decrypt(row: PaymentConnectionRow): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, sealed] of Object.entries(row.secrets))
      out[name] = this.deps.secrets.decrypt(sealed);
    return out;
  }

  /** The organisation's decrypted Square token, or null (pairing and reader re-checks). */
  async squareToken(organisationId: number): Promise<string | null> {
    const row = await this.deps.connections.find(organisationId, 'square');
    return row ? (this.decrypt(row).access_token ?? null) : null;
  }

  async list(actor: SignedInUser | null, input: OwnerBody<'paymentConnectionList'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    const rows = await this.deps.connections.list(organisationId);
    return {
      connections: (['square', 'stripe', 'shopify'] as const).map((provider) =>
        paymentConnectionForOwner(
          provider,
          rows.find((r) => r.provider === provider),
        ),
      ),
    };
  }

  async save(actor: SignedInUser | null, input: OwnerBody<'paymentConnectionSave'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    let shop: string | null = null;
    if (input.provider === 'shopify') {
      shop = (input.shop ?? '').toLowerCase();
      if (!SHOP_DOMAIN.test(shop)) throw new AppError('shopify_shop_invalid', 'shop');
    }
    const secret = input.secret;
    const row = await this.deps.connections.save({
      organisationId,
      provider: input.provider,
      secrets: { [SECRET_NAME[input.provider]]: this.deps.secrets.encrypt(secret) },
      shop,
      lastFour: secret.length > 8 ? secret.slice(-4) : '',
    });
    this.deps.logger.info(
      { organisationId, provider: input.provider, userId: actor?.userId },
      'payment provider connected',
    );
    return paymentConnectionForOwner(input.provider, row);
  }

  /**
   * One harmless call with the stored credentials: Square `GET /v2/locations`, Stripe
   * `GET /v1/account`, Shopify `GET /admin/api/<version>/shop.json`. A refusal is recorded in the
   * provider's own words (secret redacted); no answer at all is our `payment_provider_error`.
   */
  async test(actor: SignedInUser | null, input: OwnerBody<'paymentConnectionTest'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    const row = await this.deps.connections.find(organisationId, input.provider);
    if (!row) throw new AppError('payment_connection_not_found', 'provider');
    const secrets = this.decrypt(row);
    const secret = secrets[SECRET_NAME[input.provider]] ?? '';
    let problem = '';
    try {
      if (input.provider === 'square') await this.deps.square.locations(secret);
      else if (input.provider === 'stripe') await this.deps.stripe.account({ secret_key: secret });
      else await this.deps.shopify.shop({ access_token: secret, shop: row.shop ?? '' });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.deps.logger.warn(
        {
          organisationId,
          provider: input.provider,
          kind: error.kind,
          code: error.code,
          reason: redactSecrets(error.message, [secret]),
        },
        'payment credentials test failed',
      );
      if (!error.permanent) throw new AppError('payment_provider_error');
      problem = redactSecrets(error.message, [secret]) || 'refused';
    }
    const tested = await this.deps.connections.recordTest(
      organisationId,
      input.provider,
      this.deps.clock.now(),
      problem,
    );
    return paymentConnectionForOwner(input.provider, tested ?? row);
  }

  async remove(actor: SignedInUser | null, input: OwnerBody<'paymentConnectionDelete'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    if (!(await this.deps.connections.remove(organisationId, input.provider)))
      throw new AppError('payment_connection_not_found', 'provider');
    this.deps.logger.info(
      { organisationId, provider: input.provider, userId: actor?.userId },
      'payment provider disconnected',
    );
    return paymentConnectionForOwner(input.provider);
  }

  async readers(actor: SignedInUser | null, input: OwnerBody<'cardReaderList'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    return {
      readers: (await this.deps.connections.readers(organisationId)).map(cardReaderForOwner),
    };
  }

  async saveReader(actor: SignedInUser | null, input: OwnerBody<'cardReaderSave'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    const row = await this.deps.connections.saveReader({
      organisationId,
      name: input.name,
      locationId: input.location_id,
      locationName: input.location_name,
      deviceCodeId: input.device_code_id,
      deviceId: input.device_id,
    });
    return cardReaderForOwner(row);
  }

  /** Asks Square about the reader's device code with the organisation's Square connection. */
  async checkReader(actor: SignedInUser | null, input: OwnerBody<'cardReaderCheck'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    const reader = await this.deps.connections.reader(organisationId, input.id);
    if (!reader) throw new AppError('card_reader_not_found', 'id');
    const token = await this.squareToken(organisationId);
    if (!token) throw new AppError('payment_connection_not_found', 'provider');
    try {
      const code = await this.deps.square.getDeviceCode(token, reader.deviceCodeId);
      const deviceId = code.device_id ?? '';
      const row =
        deviceId && deviceId !== reader.deviceId
          ? await this.deps.connections.setReaderDevice(reader.id, deviceId)
          : reader;
      return { reader: cardReaderForOwner(row ?? reader), error_message: null };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (!error.permanent) throw new AppError('square_get_device_error');
      return {
        reader: cardReaderForOwner(reader),
        error_message: redactSecrets(error.message, [token]),
      };
    }
  }

  async removeReader(actor: SignedInUser | null, input: OwnerBody<'cardReaderDelete'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    if (!(await this.deps.connections.removeReader(organisationId, input.id)))
      throw new AppError('card_reader_not_found', 'id');
    return { deleted: 1 as const };
  }
}
