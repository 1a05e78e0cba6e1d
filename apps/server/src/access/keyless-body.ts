import type { EndpointName, Endpoints, ParsedBodyOf } from '@flashbulb/shared';

/** The parsed body of a key-authenticated call without its key: the principal already carries it. */
export type KeylessBody<E extends EndpointName> = Omit<
  ParsedBodyOf<Endpoints[E]>,
  'key_type' | 'key_value'
>;
