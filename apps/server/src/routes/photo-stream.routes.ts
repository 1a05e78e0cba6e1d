import {
  API_BASE,
  PHOTO_STREAM_EVENT,
  PHOTO_STREAM_PATH,
  INSTANT_STREAM_EVENT,
  INSTANT_STREAM_PATH,
  photoStreamQuery,
  type PublicKeyType,
} from '@flashbulb/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../access/principal.ts';
import type { PhotoStreamService } from '../services/albums/photo-stream.service.ts';
import type { InstantPageService } from '../services/albums/instant-page.service.ts';

export const HEARTBEAT_MS = 15_000;
/** How long a browser's EventSource waits before reconnecting after a drop. */
export const RETRY_MS = 3_000;

/**
 * `GET /api/v1/photo/stream?key_type=…&key_value=…`: server-sent events for kiosk streams and
 * screens (docs/adr/0002-server-sent-events.md). A wrong key answers the 401 envelope before any
 * stream starts. Open streams end when the client goes away and when the server shuts down, so
 * a graceful shutdown never waits on them.
 */
export const registerPhotoStream = (
  app: FastifyInstance,
  stream: PhotoStreamService,
  resolveKey: (keyType: PublicKeyType, keyValue: string) => Promise<Principal>,
  instant?: { page: InstantPageService; rateLimit: number },
): void => {
  const open = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const end of [...open]) end();
    done();
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    `${API_BASE}${PHOTO_STREAM_PATH}`,
    {
      schema: {
        summary:
          'Live photos (text/event-stream): `event: photo` with the photo as the public list presents it for the key, a heartbeat comment every 15 s',
        description:
          'GET, not POST: browsers’ EventSource can only GET. Errors before the stream: invalid_key (401).',
        tags: ['albums'],
        querystring: photoStreamQuery,
      },
      config: { rateLimit: false },
    },
    async (request, reply) => {
      const principal = await resolveKey(request.query.key_type, request.query.key_value);
      const access = await stream.open(principal, {
        lead_token: request.query.lead_token,
        display: request.query.display,
      });

      await sendEventStream(request, reply, open, (send) =>
        stream.watch(access, (photo) =>
          send(`id: ${photo.id}\nevent: ${PHOTO_STREAM_EVENT}\ndata: ${JSON.stringify(photo)}\n\n`),
        ),
      );
    },
  );

  if (!instant) return;
  // An instant link's page: its state now and each change (developing → ready or failed).
  app.withTypeProvider<ZodTypeProvider>().get(
    `${API_BASE}${INSTANT_STREAM_PATH}`,
    {
      schema: {
        summary:
          'An instant link’s live state (text/event-stream): `event: instant` with the state as `photo/instant/retrieve` answers it, now and at each change',
        description:
          'GET for EventSource. Errors before the stream: not_found (404). Rate limited per client address.',
        tags: ['photos'],
        querystring: z.object({ instant: z.string().max(40) }),
      },
      config: { rateLimit: { max: instant.rateLimit, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const code = request.query.instant;
      // A wrong link answers 404 here, before the stream starts.
      await instant.page.retrieve(code);
      await sendEventStream(request, reply, open, (send) =>
        instant.page.watch(code, (state) =>
          send(`event: ${INSTANT_STREAM_EVENT}\ndata: ${JSON.stringify(state)}\n\n`),
        ),
      );
    },
  );
};

/**
 * Answers `text/event-stream` and keeps it open: `watch` starts sending (through `send`) and
 * answers how to stop; the stream ends when the client goes away or the server closes (`open`
 * holds the ends the app's `preClose` calls).
 */
export const sendEventStream = async (
  request: FastifyRequest,
  reply: FastifyReply,
  open: Set<() => void>,
  watch: (send: (chunk: string) => void) => Promise<() => void>,
): Promise<void> => {
  reply.hijack();
  const res = reply.raw;
  // Headers set so far (security headers, request id) travel with the stream.
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) res.setHeader(name, value);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies (nginx) must pass events on at once, not buffer them.
    'x-accel-buffering': 'no',
  });
  res.write(`retry: ${RETRY_MS}\n: connected\n\n`);

  let ended = false;
  let stopWatching: (() => void) | undefined;
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    stopWatching?.();
    open.delete(end);
    if (!res.writableEnded) res.end();
  };
  open.add(end);
  request.raw.on('close', end);
  res.on('close', end);
  res.on('error', end);

  try {
    stopWatching = await watch((chunk) => {
      if (!ended) res.write(chunk);
    });
  } catch (error) {
    request.log.error({ err: error }, 'event stream failed to start');
    end();
    return;
  }
  if (ended) stopWatching();
};
