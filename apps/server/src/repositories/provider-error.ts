/**
 * A provider-neutral failure of an outside service (mail, SMS, payments, printers, face engine).
 * Adapters translate their provider's answers into it so services decide without knowing who the
 * provider is:
 * - `permanent`: sending again cannot help (a refused number, an unknown mailbox, a bad credential);
 *   the work is marked failed with the reason at once.
 * - `retryable`: a busy or unreachable provider (HTTP 429/5xx, SMTP 4xx, network trouble); the work
 *   is tried again later with backoff.
 *
 * The message is the provider's reason (status, code, text) and must never contain a secret:
 * adapters build it from the answer, never from the request they sent.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';

  constructor(
    readonly provider: string,
    readonly kind: 'permanent' | 'retryable',
    message: string,
    /** The provider's own code (`21211`, `550`, `ECONNECTION`), when it gave one. */
    readonly code: string | null = null,
  ) {
    super(message);
  }

  get permanent(): boolean {
    return this.kind === 'permanent';
  }

  static permanent(provider: string, message: string, code: string | null = null): ProviderError {
    return new ProviderError(provider, 'permanent', message, code);
  }

  static retryable(provider: string, message: string, code: string | null = null): ProviderError {
    return new ProviderError(provider, 'retryable', message, code);
  }
}

/**
 * Replaces every given secret in a text by `[redacted]` (defence in depth for texts that leave an
 * adapter: stored errors and log lines). Secrets shorter than 4 characters are ignored.
 */
export const redactSecrets = (text: string, secrets: readonly string[]): string =>
  secrets
    .filter((s) => s.length >= 4)
    .reduce((out, secret) => out.split(secret).join('[redacted]'), text);
