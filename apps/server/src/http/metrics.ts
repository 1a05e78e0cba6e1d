import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import client from 'prom-client';
import type { OperationsRepository } from '../repositories/operations/operations.repository.ts';

/** The connection pool's numbers (PostgreSQL); PGlite has one connection and answers null. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * The process's Prometheus metrics (prom-client), one registry per app (tests build several apps
 * in one process). Counters and histograms are moved where things happen; the gauges read from
 * the database (queues, outbox) are collected when `/metrics` is scraped, so every process
 * answers the same numbers for shared state.
 */
export class Metrics {
  readonly registry = new client.Registry();
  private readonly httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  private readonly jobsFinished: client.Counter<'queue' | 'outcome'>;
  private readonly jobDuration: client.Histogram<'queue'>;
  private readonly photosIngested: client.Counter;
  private readonly photosReady: client.Counter;
  private readonly integrityProblems: client.Gauge<'kind'>;
  private readonly integrityChecked: client.Gauge;
  private operations: OperationsRepository | undefined;
  private poolStats: (() => PoolStats | null) | undefined;

  constructor() {
    client.collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new client.Histogram({
      name: 'flashbulb_http_request_duration_seconds',
      help: 'HTTP requests by route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.jobsFinished = new client.Counter({
      name: 'flashbulb_jobs_finished_total',
      help: 'Jobs run by this process, by queue and outcome (completed, failed)',
      labelNames: ['queue', 'outcome'],
      registers: [this.registry],
    });
    this.jobDuration = new client.Histogram({
      name: 'flashbulb_job_duration_seconds',
      help: 'How long a job handler ran, by queue',
      labelNames: ['queue'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [this.registry],
    });
    this.photosIngested = new client.Counter({
      name: 'flashbulb_photos_ingested_total',
      help: 'Photos whose upload completed in this process',
      registers: [this.registry],
    });
    this.photosReady = new client.Counter({
      name: 'flashbulb_photos_ready_total',
      help: 'Photos whose derivatives this process made',
      registers: [this.registry],
    });
    // The newest kept report (the nightly job's, on whichever worker ran it) at each scrape, so
    // every process answers the same; a check this process ran without keeping it otherwise.
    const readKeptReport = async () => {
      const kept = await this.operations?.latestIntegrity().catch(() => null);
      if (kept) this.recordIntegrity(kept);
    };
    this.integrityProblems = new client.Gauge({
      name: 'flashbulb_integrity_problems',
      help: 'Storage integrity problems found by the last check, by kind (missing, untracked, checksum_mismatch)',
      labelNames: ['kind'],
      registers: [this.registry],
      collect: readKeptReport,
    });
    this.integrityChecked = new client.Gauge({
      name: 'flashbulb_integrity_last_check_timestamp_seconds',
      help: 'When the last storage integrity check started (Unix time)',
      registers: [this.registry],
      collect: readKeptReport,
    });
    const jobs: client.Gauge<'queue' | 'state'> = new client.Gauge({
      name: 'flashbulb_jobs',
      help: 'Jobs in the queue table by queue and state (created, retry, active, failed)',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      collect: async () => {
        jobs.reset();
        for (const row of (await this.operations?.jobCounts().catch(() => null)) ?? []) {
          jobs.set({ queue: row.queue, state: row.state }, row.count);
        }
      },
    });
    const outbox: client.Gauge<'channel' | 'status'> = new client.Gauge({
      name: 'flashbulb_outbox_backlog',
      help: 'Messages not yet handed to a provider, by channel and status',
      labelNames: ['channel', 'status'],
      registers: [this.registry],
      collect: async () => {
        outbox.reset();
        for (const row of (await this.operations?.outboxBacklog().catch(() => null)) ?? []) {
          outbox.set({ channel: row.channel, status: row.status }, row.count);
        }
      },
    });
    const pool: client.Gauge<'state'> = new client.Gauge({
      name: 'flashbulb_db_pool_connections',
      help: 'Database pool connections by state (total, idle, waiting clients, max)',
      labelNames: ['state'],
      registers: [this.registry],
      collect: () => {
        pool.reset();
        const stats = this.poolStats?.();
        if (!stats) return;
        for (const state of ['total', 'idle', 'waiting', 'max'] as const)
          pool.set({ state }, stats[state]);
      },
    });
  }

  /** The database reads behind the gauges, once the container is built. */
  bind(operations: OperationsRepository, poolStats: () => PoolStats | null): void {
    this.operations = operations;
    this.poolStats = poolStats;
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  observeJob(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
    this.jobsFinished.inc({ queue, outcome });
    this.jobDuration.observe({ queue }, seconds);
  }

  photoIngested(): void {
    this.photosIngested.inc();
  }

  photoReady(): void {
    this.photosReady.inc();
  }

  recordIntegrity(report: {
    checked_date: string;
    missing: number;
    untracked: number;
    checksum_mismatch: number;
  }): void {
    for (const kind of ['missing', 'untracked', 'checksum_mismatch'] as const)
      this.integrityProblems.set({ kind }, report[kind]);
    this.integrityChecked.set(Date.parse(report.checked_date) / 1000);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Whether a scrape may read the metrics: the metrics token as a Bearer, or a connection from this
 * machine that no proxy forwarded (a proxy on the same host connects from loopback for everyone).
 */
export const mayReadMetrics = (request: FastifyRequest, token: string | undefined): boolean => {
  const authorization = request.headers.authorization;
  if (token && typeof authorization === 'string' && authorization.startsWith('Bearer ')) {
    const given = createHash('sha256').update(authorization.slice(7)).digest();
    const expected = createHash('sha256').update(token).digest();
    return timingSafeEqual(given, expected);
  }
  const forwarded = request.headers['x-forwarded-for'] ?? request.headers.forwarded;
  return !forwarded && LOOPBACK.has(request.socket.remoteAddress ?? '');
};

/** Times every request (route pattern, not the URL: bounded labels) and serves GET /metrics. */
export const registerMetrics = (
  app: FastifyInstance,
  metrics: Metrics,
  token: string | undefined,
): void => {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayReadMetrics(request, token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send('unauthorized\n');
    }
    const text = await metrics.text();
    return reply.header('content-type', metrics.registry.contentType).send(text);
  });
};
