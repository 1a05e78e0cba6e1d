import { randomUUID } from 'node:crypto';
import { administersOrganisation } from '../../access/rules.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type { SquareAdapter } from '../../repositories/payments/square.adapter.ts';
import type { PaymentConnectionService } from './payment-connection.service.ts';

/**
 * Card reader pairing (albums spec §4): the operator's Square token is passed to
 * Square for the one call and kept nowhere. Square's refusals (its `errors[].detail`) are answered
 * as `error_message` — a refused Square token is Square's error, not our `unauthorized_user`;
 * Square not answering is our error key.
 */
export class SquarePairingService {
  constructor(
    private readonly square: SquareAdapter,
    /** The organisation's Square connection, used when the popup leaves the token empty. */
    private readonly connections: PaymentConnectionService | null = null,
  ) {}

  /**
   * The token typed in the popup, else the caller's organisation's Square connection (for those
   * who may manage its payments), else `square_access_token_required`.
   */
  private async token(
    actor: SignedInUser | null,
    raw: string,
    requested: number | undefined,
  ): Promise<string> {
    if (!actor) throw new AppError('unauthorized_user');
    const token = raw.trim();
    if (token) return token;
    const organisationId = requested ?? actor.organisationId;
    const connected =
      this.connections && organisationId !== null && administersOrganisation(actor, organisationId)
        ? await this.connections.squareToken(organisationId)
        : null;
    if (!connected) throw new AppError('square_access_token_required', 'access_token');
    return connected;
  }

  private async refusal<T>(
    call: () => Promise<T>,
    unavailable:
      'payment_provider_error' | 'square_create_device_error' | 'square_get_device_error',
  ): Promise<{ value: T; error_message: null } | { value: null; error_message: string }> {
    try {
      return { value: await call(), error_message: null };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (!error.permanent) throw new AppError(unavailable);
      return { value: null, error_message: error.message };
    }
  }

  async locations(
    actor: SignedInUser | null,
    input: { access_token: string; organisation_id?: number },
  ) {
    const token = await this.token(actor, input.access_token, input.organisation_id);
    const { value, error_message } = await this.refusal(
      () => this.square.locations(token),
      'payment_provider_error',
    );
    return { locations: value ?? [], error_message };
  }

  async createDeviceCode(
    actor: SignedInUser | null,
    input: { access_token: string; organisation_id?: number; name: string; location_id: string },
  ) {
    const token = await this.token(actor, input.access_token, input.organisation_id);
    if (!input.name.trim()) throw new AppError('square_device_name_required', 'name');
    if (!input.location_id.trim()) throw new AppError('square_location_required', 'location_id');
    const { value, error_message } = await this.refusal(
      () =>
        this.square.createDeviceCode(token, {
          name: input.name.trim(),
          locationId: input.location_id.trim(),
          idempotencyKey: randomUUID(),
        }),
      'square_create_device_error',
    );
    return {
      device_code: value ? { id: value.id, code: value.code, status: value.status } : null,
      error_message,
    };
  }

  async getDeviceCode(
    actor: SignedInUser | null,
    input: { access_token: string; organisation_id?: number; id: string },
  ) {
    const token = await this.token(actor, input.access_token, input.organisation_id);
    if (!input.id.trim()) throw new AppError('square_get_device_error', 'id');
    const { value, error_message } = await this.refusal(
      () => this.square.getDeviceCode(token, input.id.trim()),
      'square_get_device_error',
    );
    return {
      device_code: value
        ? { id: value.id, status: value.status, device_id: value.device_id ?? '' }
        : null,
      error_message,
    };
  }
}
