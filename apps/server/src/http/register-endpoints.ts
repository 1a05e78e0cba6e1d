import {
  API_BASE,
  endpoints,
  okEnvelope,
  type Endpoint,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
  type ResultOf,
} from '@flashbulb/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PublicKeyType } from '@flashbulb/shared';
import { ANONYMOUS, type Principal } from '../access/principal.ts';
import type { SignedInUser } from '../access/signed-in-user.ts';

type ActorFor<E extends Endpoint> = E['auth'] extends 'owner' ? SignedInUser : SignedInUser | null;

export interface HandlerContext<E extends Endpoint> {
  body: ParsedBodyOf<E>;
  actor: ActorFor<E>;
  /** Who is calling: the operator, the key presented in the body, or nobody (access/principal.ts). */
  principal: Principal;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** One handler per endpoint of the contract; the compiler checks none is missing. */
export type Handlers = {
  [K in EndpointName]: (ctx: HandlerContext<Endpoints[K]>) => Promise<ResultOf<Endpoints[K]>>;
};

export interface RegisterOptions {
  authenticate: (authorization: string | undefined) => Promise<SignedInUser>;
  /** A public twin's key into a principal (AccessControl.resolveKey); never throws for a wrong key. */
  resolveKey: (keyType: PublicKeyType, keyValue: string, display?: string) => Promise<Principal>;
  authRateLimit: number;
}

/** Registers every endpoint of `packages/shared` as `POST /api/v1<path>` with its schemas. */
export const registerEndpoints = (
  app: FastifyInstance,
  handlers: Handlers,
  options: RegisterOptions,
): void => {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const actors = new WeakMap<FastifyRequest, SignedInUser>();
  for (const name of Object.keys(endpoints) as EndpointName[]) {
    const endpoint: Endpoint = endpoints[name];
    const handler = handlers[name] as unknown as (
      ctx: HandlerContext<Endpoint>,
    ) => Promise<unknown>;
    typed.route({
      method: 'POST',
      url: `${API_BASE}${endpoint.path}`,
      schema: {
        summary: endpoint.summary,
        description: `Auth: ${endpoint.auth}. Errors: ${['invalid_value', ...endpoint.errors, 'Internal Error'].join(', ')}.`,
        tags: [endpoint.tag],
        ...(endpoint.auth === 'owner' ? { security: [{ bearer: [] }, { apiKey: [] }] } : {}),
        body: endpoint.body,
        response: { 200: okEnvelope(endpoint.result) },
      },
      // Who calls is settled before the body is parsed or validated: an owner call without valid
      // credentials answers 401 whatever its body (malformed JSON included), never 400 first.
      onRequest: async (request) => {
        const authorization = request.headers.authorization;
        if (endpoint.auth === 'owner' || (endpoint.auth === 'owner_optional' && authorization)) {
          actors.set(request, await options.authenticate(authorization));
        }
      },
      config: endpoint.rateLimited
        ? { rateLimit: { max: options.authRateLimit, timeWindow: '1 minute' } }
        : { rateLimit: false },
      // The client's address is already set for the whole request (app.ts's request hook,
      // lib/request-context.ts): budgets deep in the rules count per address.
      handler: async (request, reply) => {
        const actor: SignedInUser | null = actors.get(request) ?? null;
        // Key calls (and owner_optional calls given a key) carry key_type and key_value in the
        // body; the key, when present, decides (as it always has), else the signed-in operator.
        let principal: Principal = actor ? { kind: 'user', actor } : ANONYMOUS;
        if (endpoint.auth === 'key' || endpoint.auth === 'owner_optional') {
          const body = request.body as {
            key_type?: PublicKeyType;
            key_value?: string;
            display?: string;
          };
          // `display`: the event's display token the organiser's kiosk links carry (the kiosk).
          if (body.key_type)
            principal = await options.resolveKey(
              body.key_type,
              body.key_value ?? '',
              typeof body.display === 'string' ? body.display : undefined,
            );
        }
        const result = await handler({ body: request.body, actor, principal, request, reply });
        return { status: 'ok' as const, result };
      },
    });
  }
};
