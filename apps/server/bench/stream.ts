/**
 * npm run bench:stream [-- --streams 1000 --photos 20 --engines pglite,postgres]
 *
 * The live photo stream at event scale: one server process holds N open streams
 * (kiosks and album pages of one event, public key) while photos arrive.
 *
 * 1. Fan-out: for each photo, the time from `photo.ready` (the signal, in the server) to
 *    the moment the LAST of the N streams has received it; p50/p95/max over the photos.
 * 2. Memory per stream: the server's heap and RSS before and with the N streams open, divided by N.
 *    The streams are read by a separate client process, so the server's figures are its own.
 * 3. Opening streams: stream opens per second (request → headers → close, 50 at a time) against
 *    a bare Fastify route on the same machine answering `{ ok: true }`, in the same run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { photoStreamUrlAt } from '@flashbulb/shared';
import Fastify from 'fastify';
import sharp from 'sharp';
import { robotUpload, schedulingNote, setUp, type Setup } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '1000' },
    photos: { type: 'string', default: '20' },
    engines: { type: 'string', default: 'pglite,postgres' },
    'open-requests': { type: 'string', default: '2000' },
    client: { type: 'string' },
  },
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (v: number) => `${v.toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

// ---- the client process: holds the streams, reports each photo's arrival ------------------------

type ToClient = { open: string; count: number } | { close: true };
type FromClient =
  | { opened: number; failed: number }
  | { photo: string; at: number; stream: number }
  | { closed: true };

const runClient = () => {
  const responses: IncomingMessage[] = [];
  process.on('message', (message: ToClient) => {
    if ('close' in message) {
      for (const r of responses) r.destroy();
      process.send?.({ closed: true } satisfies FromClient);
      return;
    }
    let opened = 0;
    let failed = 0;
    let next = 0;
    // At most 100 connections being set up at once (kiosks do not all connect in the same
    // millisecond, and a thousand simultaneous SYNs overflow the listen backlog).
    const done = () => {
      if (opened + failed === message.count)
        process.send?.({ opened, failed } satisfies FromClient);
      else if (next < message.count) openOne(next++);
    };
    const openOne = (i: number) => {
      const req = request(message.open, { headers: { accept: 'text/event-stream' }, agent: false });
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          failed += 1;
          res.resume();
          return done();
        }
        responses.push(res);
        opened += 1;
        done();
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (!block.includes('event: photo')) continue;
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            const uid = data ? (JSON.parse(data.slice(6)) as { uid: string }).uid : '';
            process.send?.({ photo: uid, at: Date.now(), stream: i } satisfies FromClient);
          }
        });
        res.on('error', () => {});
      });
      req.on('error', (error) => {
        failed += 1;
        console.error(`stream ${i}: ${error.message}`);
        done();
      });
      req.end();
    };
    for (; next < Math.min(100, message.count); next += 1) openOne(next);
  });
};

// ---- the server side ----------------------------------------------------------------------------

const makePhoto = (i: number) =>
  sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 100 + i, sigma: 30 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();

const upload = (s: Setup, bytes: Buffer, name: string) => robotUpload(s, bytes, name);

/** Requests per second of `open` (answers once headers arrive), `concurrency` at a time. */
const rate = async (url: string, total: number, concurrency = 50): Promise<number> => {
  let left = total;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } });
      req.on('response', (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        res.destroy();
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await one();
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
};

const heap = () => {
  global.gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};

const benchEngine = async (engine: 'pglite' | 'postgres', client: ChildProcess) => {
  const streams = Number(values.streams);
  const photoCount = Number(values.photos);
  const s = await setUp(engine);
  try {
    const url = photoStreamUrlAt(s.base, { key_type: 'public', key_value: s.publicKey });
    const readyAt = new Map<string, number>();
    const uidOfId = new Map<number, string>();
    // The moment the event is emitted, before any listener (the stream's among them) runs.
    const bus = s.app.container.bus;
    const emit = bus.emit.bind(bus);
    bus.emit = ((name: string, payload: { photoId: number }) => {
      if (name === 'photo.ready') readyAt.set(String(payload.photoId), Date.now());
      return emit(name as 'photo.ready', payload as never);
    }) as typeof bus.emit;
    const arrivals = new Map<string, number[]>();
    const onMessage = (message: FromClient) => {
      if ('photo' in message) {
        const list = arrivals.get(message.photo) ?? [];
        list.push(message.at);
        arrivals.set(message.photo, list);
      }
    };
    client.on('message', onMessage);
    const ask = <T extends FromClient>(message: ToClient, match: (m: FromClient) => m is T) =>
      new Promise<T>((resolve) => {
        const listener = (m: FromClient) => {
          if (match(m)) {
            client.off('message', listener);
            resolve(m);
          }
        };
        client.on('message', listener);
        client.send(message);
      });

    const before = heap();
    const opened = await ask({ open: url, count: streams }, (m) => 'opened' in m);
    if (opened.failed > 0) throw new Error(`${opened.failed} streams could not open`);
    // Let the streams settle (their initial replay and keep-alive timers) before measuring memory.
    await new Promise((r) => setTimeout(r, 2000));
    const withStreams = heap();

    const photos = await Promise.all(Array.from({ length: photoCount }, (_, i) => makePhoto(i)));
    for (const [i, bytes] of photos.entries()) {
      const photo = (await upload(s, bytes, `stream_${i}.jpg`)) as { uid: string; id?: number };
      if (photo.id !== undefined) uidOfId.set(photo.id, photo.uid);
    }
    // Wait until every photo reached every stream.
    const deadline = Date.now() + 120_000;
    while ([...uidOfId.values()].some((uid) => (arrivals.get(uid)?.length ?? 0) < streams)) {
      if (Date.now() > deadline) throw new Error('photos did not reach every stream in 120 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const fanOut = [...uidOfId.entries()]
      .map(([id, uid]) => Math.max(...arrivals.get(uid)!) - readyAt.get(String(id))!)
      .sort((a, b) => a - b);
    await ask({ close: true }, (m): m is { closed: true } => 'closed' in m);
    client.off('message', onMessage);

    const openRequests = Number(values['open-requests']);
    const streamRate = await rate(url, openRequests);
    const bare = Fastify();
    bare.get('/ping', () => ({ ok: true }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const { port } = bare.server.address() as { port: number };
    const bareRate = await rate(`http://127.0.0.1:${port}/ping`, openRequests);
    await bare.close();

    console.log(
      `[${engine}] ${streams} streams, ${photoCount} photos: photo.ready → last stream p50 ${ms(percentile(fanOut, 50))}, p95 ${ms(percentile(fanOut, 95))}, max ${ms(fanOut.at(-1)!)}`,
    );
    console.log(
      `[${engine}] memory per open stream: heap ${((withStreams.heap - before.heap) / streams / 1024).toFixed(1)} KB (server heap ${mb(before.heap)} → ${mb(withStreams.heap)} after GC; RSS ${mb(before.rss)} → ${mb(withStreams.rss)})`,
    );
    console.log(
      `[${engine}] stream opens ${streamRate.toFixed(0)}/s vs bare Fastify route ${bareRate.toFixed(0)}/s — ${((streamRate / bareRate) * 100).toFixed(0)} %`,
    );
  } finally {
    await s.close();
  }
};

const main = async () => {
  console.log(`Flashbulb stream benchmark — ${new Date().toISOString()}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(await schedulingNote());
  for (const engine of values.engines.split(',') as ('pglite' | 'postgres')[]) {
    const client = fork(fileURLToPath(import.meta.url), ['--client', '1'], {
      execArgv: ['--import', 'tsx'],
    });
    try {
      await benchEngine(engine, client);
    } finally {
      client.kill();
    }
  }
};

if (values.client) runClient();
else await main();
