/**
 * npm run bench:attendees [-- --counts 10000,100000,1000000 --engines pglite,postgres]
 *
 * Generating attendee ids (owner-console §5: 1 to 1,000,000 per call) through the HTTP API on a
 * running server: wall time and ids per second per call, the server process's peak RSS, and how
 * long a public photo-list request waits while the generation runs (the generation is one
 * transaction; PGlite has one connection, so other requests queue behind it).
 */
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { endpoints } from '@flashbulb/shared';
import { post, schedulingNote, setUp } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    counts: { type: 'string', default: '10000,100000,1000000' },
    engines: { type: 'string', default: 'pglite,postgres' },
  },
});
const counts = values.counts.split(',').map(Number);
const engines = values.engines.split(',') as ('pglite' | 'postgres')[];

interface Row {
  engine: string;
  attendees: number;
  'generate (s)': string;
  'ids/s': number;
  'peak RSS (MB)': number;
  'photo list while generating: slowest (ms)': number;
  'photo list idle (ms)': number;
}

const listOnce = async (base: string, publicKey: string): Promise<number> => {
  const started = performance.now();
  await post(base, endpoints.publicPhotoList, {
    key_type: 'public',
    key_value: publicKey,
    max_size: 100,
  });
  return performance.now() - started;
};

const main = async () => {
  const rows: Row[] = [];
  for (const engine of engines) {
    const s = await setUp(engine);
    try {
      const event = (await post(
        s.base,
        endpoints.eventFullData,
        { event_name: s.eventName },
        s.apiKey,
      )) as { public_api_key: string }[];
      const publicKey = event[0]!.public_api_key;
      await s.insertRows(1000);
      for (const count of counts) {
        const idle = await listOnce(s.base, publicKey);
        let peak = process.memoryUsage().rss;
        const sampler = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().rss);
        }, 100);
        let generating = true;
        let slowest = 0;
        const prober = (async () => {
          while (generating) {
            slowest = Math.max(slowest, await listOnce(s.base, publicKey));
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        })();
        const started = performance.now();
        const result = (await post(
          s.base,
          endpoints.generateAttendeeList,
          { attendee_count: count, event_id_array: [s.eventId] },
          s.apiKey,
        )) as { count: number };
        const seconds = (performance.now() - started) / 1000;
        generating = false;
        await prober;
        clearInterval(sampler);
        if (result.count !== count) throw new Error(`asked ${count}, got ${result.count}`);
        rows.push({
          engine,
          attendees: count,
          'generate (s)': seconds.toFixed(1),
          'ids/s': Math.round(count / seconds),
          'peak RSS (MB)': Math.round(peak / 2 ** 20),
          'photo list while generating: slowest (ms)': Math.round(slowest),
          'photo list idle (ms)': Math.round(idle),
        });
        console.log(`${engine}: ${count} attendees in ${seconds.toFixed(1)} s`);
      }
    } finally {
      await s.close();
    }
  }
  console.log(
    `\nbench:attendees — ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(await schedulingNote());
  console.table(rows);
};

await main();
