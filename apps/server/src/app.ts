import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { registerMetrics } from './http/metrics.ts';
import { registerHealthRoutes } from './http/readiness.ts';
import type { AppConfig } from './config.ts';
import { createContainer, type Container, type ContainerOptions } from './container.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import {
  compressHtml,
  guestBootFor,
  withGuestBoot,
  withPageLanguage,
  type GuestBootDeps,
} from './routes/guest-boot.ts';
import { LANGUAGE_VARY, requestLanguage } from './http/guest-language.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { databaseRateLimitStore } from './http/rate-limit-store.ts';
import { HitCounterRepository } from './repositories/operations/hit-counter.repository.ts';
import { sendNok } from './http/envelope.ts';
import { requestLogSerializer } from './http/log-redaction.ts';
import { registerEndpoints } from './http/register-endpoints.ts';
import { createHandlers } from './routes/handlers.ts';
import { registerStorageRoutes } from './storage/storage.routes.ts';
import { registerMediaRoutes } from './routes/media.routes.ts';
import { registerAlbumDownloadRoutes } from './routes/album-download.routes.ts';
import { registerAttendeeExportRoutes } from './routes/attendee-export.routes.ts';
import { registerPhotoStream } from './routes/photo-stream.routes.ts';
import { registerSharePages, registerSharePreview } from './routes/share-pages.ts';
import { registerKioskEntry } from './routes/kiosk-entry.ts';
import { registerUnsubscribeRoutes } from './routes/unsubscribe.routes.ts';
import { AppError } from './lib/app-error.ts';
import { maintenancePage } from './pages/maintenance.ts';
import { sendPage } from './pages/page.ts';
import { registerWebhookRoutes } from './routes/webhook.routes.ts';
import { pageTypeFromQuery } from '@flashbulb/shared/rules/page-type';
import { webappShell } from './pages/webapp-shell.ts';
import { runAsRequestFrom } from './lib/request-context.ts';
import type { WebappService } from './services/albums/webapp.service.ts';
import type { InstantPageService } from './services/albums/instant-page.service.ts';

/** Owner calls and forms are small; uploads go straight to storage, not through these bodies. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions extends ContainerOptions {
  /** Run job handlers in this process (default: unless FLASHBULB_ROLE=api). */
  worker?: boolean;
  /** Logger options override (tests pass `false`-like levels). */
  logLevel?: AppConfig['logLevel'];
  /** Where log lines go (tests read them); standard output by default. */
  logStream?: { write(line: string): void };
}

declare module 'fastify' {
  interface FastifyInstance {
    container: Container;
  }
}

const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  'new_password',
  'temporary_password',
  'refresh_token',
  'code',
  'unlock_code',
  'card_number',
  'session',
];

/**
 * Fastify's `trustProxy` from FLASHBULB_TRUST_PROXY. A hop count is given as a function: Fastify 5
 * treats a bare number as "trust nothing", and `(address, hop) => hop < hops` is what a hop count
 * means (the socket's peer is hop 0; `X-Forwarded-For` is read from its right end, so the client's
 * own entries past the last trusted proxy are never believed). An address list goes as it is.
 */
const trustProxyOption = (
  trust: AppConfig['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) =>
  typeof trust === 'number' ? (_address, hop) => hop < trust : trust;

/**
 * The request a line is logged for. Fastify's request logger carries `reqId`; lines logged by
 * services, repositories and listeners through the app's logger while serving a request get it
 * from here, so every line of a request can be found by its id.
 */
const requestContext = new AsyncLocalStorage<{ reqId: string }>();

const requestIdMixin = (
  mergeObject: object,
  _level: number,
  logger: { bindings(): Record<string, unknown> },
): object => {
  const reqId = requestContext.getStore()?.reqId;
  if (!reqId || 'reqId' in mergeObject || 'reqId' in logger.bindings()) return {};
  return { reqId };
};

export const buildApp = async (
  config: AppConfig,
  options: BuildOptions = {},
): Promise<FastifyInstance> => {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: { req: requestLogSerializer },
      mixin: requestIdMixin,
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(config.trustProxy),
    // A client gets so long for its headers and for the whole request; Node checks open
    // connections against both every `connectionsCheckingInterval` (a few times per headers timeout).
    requestTimeout: config.requestTimeoutSeconds * 1000,
    http: {
      headersTimeout: config.headersTimeoutSeconds * 1000,
      requestTimeout: config.requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: Math.min(5_000, (config.headersTimeoutSeconds * 1000) / 4),
    },
    return503OnClosing: true,
    clientErrorHandler,
    // Plugins (the API docs' UI among them) load while the process also opens the database and
    // starts the job queue: on a small or busy box that outlasts Fastify's 10 s default.
    pluginTimeout: 60_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', (request, _reply, done) => {
    // The request id for log lines, and the client's address for budgets counted per address.
    requestContext.run({ reqId: request.id }, () => runAsRequestFrom(request.ip, done));
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  const container = await createContainer(config, app.log, options);
  app.decorate('container', container);
  // While a backup is restored into this server: new requests are answered 503 `maintenance`
  // (but health, readiness and metrics), and the restore waits for the running ones to end.
  const gate = container.maintenance;
  const counted = new WeakSet<object>();
  const notCounted = (url: string) =>
    url.startsWith('/api/health') || url.startsWith('/api/ready') || url.startsWith('/metrics');
  app.addHook('onRequest', (request, reply, done) => {
    if (notCounted(request.url)) return done();
    if (gate.active) {
      // A browser opening a page gets a page; API callers the envelope with the error key.
      if (
        !request.url.startsWith('/api/') &&
        String(request.headers.accept).includes('text/html')
      ) {
        void reply.header('retry-after', '60');
        void sendPage(reply, maintenancePage(), {
          status: 503,
          cacheControl: 'no-store',
          referrerPolicy: 'no-referrer',
        });
        return;
      }
      return done(new AppError('maintenance'));
    }
    if (!String(request.headers.accept ?? '').includes('text/event-stream')) {
      counted.add(request);
      gate.started();
    }
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (counted.delete(request)) gate.ended();
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    if (counted.delete(request)) gate.ended();
    done();
  });
  app.addHook('onClose', async () => container.close());
  const runsWorker = options.worker ?? config.role !== 'api';
  if (runsWorker) await container.startWorker();
  else await container.startQueue();
  registerMetrics(app, container.metrics, config.metricsToken);

  // PayPal's card form (album page): its SDK's origin, and PayPal's own hosts where the
  // real SDK is used (its documented CSP: scripts, frames, calls and images on paypal.com hosts).
  const paypal = payPalSources(config.paymentProviders?.paypal?.sdkUrl ?? null);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...paypal],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", ...paypal],
        connectSrc: ["'self'", ...paypal],
        frameSrc: ["'self'", ...paypal],
        frameAncestors: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        // Kiosks on a site network reach us over plain http; upgrading would break them.
        upgradeInsecureRequests: null,
      },
    },
    // HSTS only where the client reached us over https (see the hook below).
    strictTransportSecurity: false,
    frameguard: { action: 'sameorigin' },
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') {
      void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
  });
  await app.register(fastifyCookie);
  // Counted in the database: the identity rate limit holds across every API process.
  await app.register(fastifyRateLimit, {
    global: false,
    store: databaseRateLimitStore(new HitCounterRepository(container.database)),
  });
  registerErrorHandling(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Flashbulb API',
        version: '1',
        description:
          'Every call is POST with a JSON body; replies are `{"status":"ok","result":…}` or `{"status":"nok","error":{…}}`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  registerHealthRoutes(app, {
    database: container.database,
    operations: container.operations,
    storage: container.storage,
    jobs: container.jobs,
    runsWorker,
  });

  // A worker process serves its health, readiness and metrics only; calls, streams and pages go to api processes.
  if (config.role === 'worker') {
    app.setNotFoundHandler((_request, reply) => sendNok(reply, 'not_found'));
    return app;
  }

  registerEndpoints(app, createHandlers(container.services), {
    authenticate: (authorization) => container.services.auth.authenticate(authorization),
    resolveKey: (keyType, keyValue, display) =>
      container.access.resolveKey(keyType, keyValue, display),
    authRateLimit: config.authRateLimit,
  });

  // Albums: the live photo stream (SSE) and the server-rendered share pages.
  registerPhotoStream(
    app,
    container.services.photoStream,
    (keyType, keyValue) => container.access.resolveKey(keyType, keyValue),
    { page: container.services.instantPages, rateLimit: config.authRateLimit },
  );
  registerSharePages(app, container.services.shares);
  // `/?photoId=…`: the share-preview page (albums §2.1), before the web app's own `/` links.
  registerSharePreview(app, container.services.shares);
  // Album downloads: the zip of a selection or the whole album, streamed.
  registerAlbumDownloadRoutes(app, container.services.albumDownloads);
  registerAttendeeExportRoutes(app, container.services.attendeePrivacy);
  // Kiosks: the card-scan entry page, hosted and as a downloadable file.
  registerKioskEntry(app, {
    resolveKey: (keyType, keyValue) => container.access.resolveKey(keyType, keyValue),
    publicUrl: config.publicUrl,
  });

  // Provider webhooks (raw body, signature checked by the provider's adapter).
  await registerWebhookRoutes(app, container.services.webhooks, config.publicUrl);
  // Unsubscribe links and one-click List-Unsubscribe POSTs of notifications.
  await registerUnsubscribeRoutes(app, container.services.notifications);

  // Local object storage speaks S3 at /storage (uploads by presigned POST, public GETs).
  await registerStorageRoutes(app, container.storage);
  // Signed media URLs of protected photo files (ADR 0006), both backends.
  await registerMediaRoutes(app, { media: container.services.mediaAccess });

  registerWebApp(
    app,
    config.webDist,
    container.services.webapp,
    config.publicUrl,
    {
      resolveKey: (keyType, keyValue) => container.access.resolveKey(keyType, keyValue),
      events: container.services.events,
      photoListing: container.services.photoListing,
    },
    { page: container.services.instantPages, rateLimit: config.authRateLimit },
  );
  return app;
};

/** Serves the built web app; unknown non-API paths get index.html (client-side routes). */
const registerWebApp = (
  app: FastifyInstance,
  webDist: string,
  webapp: WebappService,
  publicUrl: string,
  guestBoot: GuestBootDeps,
  instant: { page: Pick<InstantPageService, 'exists'>; rateLimit: number },
): void => {
  const indexFile = path.join(webDist, 'index.html');
  // The guest build's page: album, kiosk, slide-show and web-app links get it, so
  // guests load neither the console's code nor its texts. Older builds have only index.html.
  const guestFile = existsSync(path.join(webDist, 'guest.html')) ? 'guest.html' : 'index.html';
  if (!existsSync(indexFile)) {
    app.log.warn({ webDist }, 'web app not built; run `npm run build`');
    app.setNotFoundHandler((_request, reply) => sendNok(reply, 'not_found'));
    return;
  }
  void app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The build writes .br and .gz beside each asset (apps/web/vite-precompress.ts): sent by Accept-Encoding.
    preCompressed: true,
    // We set Cache-Control ourselves below; the plugin's default would overwrite it.
    cacheControl: false,
    setHeaders: (res, filePath) => {
      // Vite puts a content hash in asset names: cache them for a year; the HTML is always checked.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        res.setHeader('cache-control', 'no-cache');
      }
    },
  });
  // An instant link's page answers 404 when the link names no photo's link (a typo, an old
  // code): a real not-found for browsers and link checkers, still the guest page, which says so in
  // the guest's words. Whether a code exists is what guessing wants to learn, so these lookups
  // are limited per address like the instant calls themselves.
  const instantLimit = app.rateLimit({
    max: instant.rateLimit,
    timeWindow: '1 minute',
    keyGenerator: (request) => `instant-page|${request.ip}`,
  });
  const sendInstantPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    code: string,
  ): Promise<FastifyReply> => {
    await instantLimit.call(app, request, reply);
    const found = await instant.page.exists(code);
    const html = withPageLanguage(
      await readFile(path.join(webDist, guestFile), 'utf8'),
      requestLanguage(request, null),
    );
    const { body, encoding } = await compressHtml(html, request.headers['accept-encoding']);
    if (encoding) void reply.header('content-encoding', encoding);
    return reply
      .code(found ? 200 : 404)
      .header('vary', `accept-encoding, ${LANGUAGE_VARY}`)
      .header('content-type', 'text/html; charset=utf-8')
      .send(body);
  };
  app.setNotFoundHandler((request, reply) => {
    // API calls, non-GETs and missing build files (an old tab asking for a replaced chunk) are
    // 404s; every other path is a client-side route of the web app.
    if (
      request.method !== 'GET' ||
      request.url.startsWith('/api') ||
      request.url.startsWith('/assets/')
    ) {
      return sendNok(reply, 'not_found');
    }
    void reply.header('cache-control', 'no-cache');
    // The web-app page `/?eName=<code>`: the shell carries the event's Open Graph tags.
    const url = new URL(request.url, 'http://local');
    const guestPage = url.pathname === '/' && pageTypeFromQuery(url.search).page.kind !== 'console';
    const eventName = url.pathname === '/' ? url.searchParams.get('eName') : null;
    if (!guestPage) return reply.sendFile('index.html');
    if (pageTypeFromQuery(url.search).page.kind === 'instant')
      return sendInstantPage(request, reply, url.searchParams.get('instant') ?? '');
    return (async () => {
      // Album links get their event and first photo page with the page (guest-boot.ts).
      const [page, boot] = await Promise.all([
        eventName ? webapp.pageOrNull(eventName) : null,
        guestBootFor(guestBoot, url.search),
      ]);
      if (!page && !boot) return reply.sendFile(guestFile);
      let html = await readFile(path.join(webDist, guestFile), 'utf8');
      if (page) {
        const pageUrl = `${publicUrl.replace(/\/+$/, '')}${url.pathname}${url.search}`;
        html = webappShell(html, page, pageUrl);
      }
      // Worded in the guest's language: the link's, their choice, their browser's, the event's.
      const language = requestLanguage(request, boot?.event?.opts ?? null);
      html = boot
        ? withGuestBoot(html, boot, url.search, language)
        : withPageLanguage(html, language);
      const { body, encoding } = await compressHtml(html, request.headers['accept-encoding']);
      if (encoding) void reply.header('content-encoding', encoding);
      // The page now carries what this key may read: no shared cache keeps it.
      if (boot) void reply.header('cache-control', 'private, no-cache');
      return reply
        .header('vary', `accept-encoding, ${LANGUAGE_VARY}`)
        .header('content-type', 'text/html; charset=utf-8')
        .send(body);
    })();
  });
};

/** The origins PayPal's checkout script needs on the album page; none while PayPal is off. */
export const payPalSources = (sdkUrl: string | null): string[] => {
  if (!sdkUrl) return [];
  const { origin, hostname } = new URL(sdkUrl);
  return /(^|\.)paypal\.com$/.test(hostname)
    ? [origin, 'https://*.paypal.com', 'https://*.paypalobjects.com']
    : [origin];
};
