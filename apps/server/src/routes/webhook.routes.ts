import type { FastifyInstance } from 'fastify';
import type { WebhookService } from '../services/operations/webhook-in.service.ts';

/** Provider webhooks are small (a status callback is under 1 KB). */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;
export const WEBHOOK_PATH = '/api/webhooks/:provider';

/**
 * `POST /api/webhooks/:provider` (docs/adr/0004-outbox-adapters-webhooks.md). The body is kept as
 * raw bytes — for this route only: its own plugin scope replaces the JSON parser with one that
 * parses nothing — because signatures are computed over what the provider sent. The adapter
 * verifies the signature against the URL the provider called (`publicUrl` + path + query).
 * Answers 200 once the event is recorded (and applied), 403 `forbidden` for a bad or missing
 * signature, 404 `not_found` for a provider that is not configured here.
 */
export const registerWebhookRoutes = async (
  app: FastifyInstance,
  webhooks: WebhookService,
  publicUrl: string,
): Promise<void> => {
  await app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.post<{ Params: { provider: string } }>(
      WEBHOOK_PATH,
      { schema: { hide: true }, config: { rateLimit: false } },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = await webhooks.receive(request.params.provider, {
          url: `${publicUrl}${request.url}`,
          headers: request.headers,
          body,
        });
        return { status: 'ok', result };
      },
    );
    done();
  });
};
