import { ProviderError } from '../provider-error.ts';

/** A provider's HTTP reply: status and the body parsed as JSON (null when it is not JSON). */
export interface JsonReply {
  status: number;
  ok: boolean;
  body: unknown;
}

/**
 * One request to a payment provider or device with a time limit, the reply body read as JSON.
 * Answers the reply, or `{ failure }` when no reply came (`timeout` past `timeoutMs`, `network`
 * for any other transport error) — each adapter turns that into its own error shape.
 */
export const requestJson = async (
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<JsonReply | { failure: 'timeout' | 'network' }> => {
  let response: Response;
  try {
    response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return {
      failure: error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network',
    };
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, ok: response.ok, body };
};

/** {@link requestJson} for a payment provider: no reply is a retryable ProviderError. */
export const providerJson = async (
  provider: string,
  name: string,
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<JsonReply> => {
  const reply = await requestJson(fetchImpl, url, init, timeoutMs);
  if ('failure' in reply) {
    throw ProviderError.retryable(
      provider,
      reply.failure === 'timeout'
        ? `${name} did not answer in time`
        : `${name} could not be reached`,
      reply.failure,
    );
  }
  return reply;
};
