/**
 * npm run bench:faces [-- --faces 10000,100000 --engines pglite,postgres --queries 30]
 *
 * Face search at scale (issue 13 §7): one event holding N faces (synthetic 128-d descriptors
 * spread like face-api's: distances between different people around 0.8–1.0), then `queries`
 * searches at the default threshold (similarity 80), each through both exact searches: SQL
 * (`FaceRepository.nearest`) and the in-memory copy the search call uses (`FaceVectorSearch`):
 * p50 / p95 per engine and size, the copy's first load, and recall@10 of the copy against SQL.
 * Each query is a stored face plus a little noise, so every search has at least one match.
 * Indexing speed and quality are measured by `npm run bench:faces-calibrate`.
 */
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { distanceForSimilarity } from '../src/services/faces/face-similarity.ts';
import { FaceVectorSearch } from '../src/services/faces/face-vectors.ts';
import { setUp } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    faces: { type: 'string', default: '10000,100000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    queries: { type: 'string', default: '30' },
  },
});
const sizes = values.faces.split(',').map(Number);
const engines = values.engines.split(',') as ('pglite' | 'postgres')[];
const queries = Number(values.queries);
const MODEL = 'bench-model';
const FACES_PER_PHOTO = 4;

const gaussian = () => {
  const u = 1 - Math.random();
  const v = Math.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
};
// Per-dimension spread 0.065: two random descriptors are about 0.065·√256 ≈ 0.9 apart... for 128
// dimensions √(2·128)·0.06 ≈ 0.96, like two different people.
const SPREAD = 0.06;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const main = async () => {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  const rows: Record<string, string | number>[] = [];
  for (const engine of engines) {
    const s = await setUp(engine);
    try {
      const { database, repositories } = s.app.container;
      let stored = 0;
      // insertRows numbers photos from 1 each call: all the photos at once, faces per size.
      await s.insertRows(Math.ceil(Math.max(...sizes) / FACES_PER_PHOTO));
      for (const size of sizes) {
        const add = size - stored;
        const started = performance.now();
        await database.executeSql(
          `insert into photo_faces (photo_id, event_id, box_x, box_y, box_width, box_height,
             width_px, height_px, score, model, descriptor)
           select p.id, p.event_id, 0.1, 0.1, 0.1, 0.1, 80, 80, 0.9, $2,
             (select array_agg((sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) * $3)::real)
                from generate_series(1, 128) d where p.id * k > 0)
           from photos p cross join generate_series(1, $4::int) k
           where p.event_id = $1 and not exists (select 1 from photo_faces f where f.photo_id = p.id)
           order by p.id
           limit $5`,
          [s.eventId, MODEL, SPREAD, FACES_PER_PHOTO, add],
        );
        await database.executeSql('analyze photo_faces');
        stored = size;
        const insertSeconds = (performance.now() - started) / 1000;
        const sample = await database.executeSql(
          `select descriptor from photo_faces where event_id = $1 order by random() limit $2`,
          [s.eventId, queries],
        );
        const sqlTimes: number[] = [];
        const memoryTimes: number[] = [];
        let matches = 0;
        let agree = 0;
        let compared = 0;
        // A fresh copy per size: its first search loads the event's descriptors.
        const vectors = new FaceVectorSearch(repositories.faces);
        const firstLoad = performance.now();
        await vectors.nearest({
          eventId: s.eventId,
          model: MODEL,
          descriptor: new Array<number>(128).fill(0),
          maxDistance: 0,
          limit: 10,
          visibleOnly: false,
        });
        const loadMs = performance.now() - firstLoad;
        for (const row of sample.rows) {
          const base = row.descriptor as number[];
          const input = {
            eventId: s.eventId,
            model: MODEL,
            descriptor: base.map((v) => v + gaussian() * 0.01),
            maxDistance: distanceForSimilarity(80),
            limit: 5000,
            visibleOnly: false,
          };
          const t0 = performance.now();
          const exact = await repositories.faces.nearest(input);
          sqlTimes.push(performance.now() - t0);
          const t1 = performance.now();
          const memory = await vectors.nearest(input);
          memoryTimes.push(performance.now() - t1);
          matches += exact.length;
          // recall@10 of the in-memory search against the SQL search.
          const top = new Set(exact.slice(0, 10).map((m) => m.faceId));
          compared += top.size;
          agree += memory.slice(0, 10).filter((m) => top.has(m.faceId)).length;
        }
        sqlTimes.sort((a, b) => a - b);
        memoryTimes.sort((a, b) => a - b);
        rows.push({
          engine,
          faces: size,
          'insert (s)': insertSeconds.toFixed(1),
          'SQL p50/p95 (ms)': `${Math.round(percentile(sqlTimes, 50))} / ${Math.round(percentile(sqlTimes, 95))}`,
          'memory first load (ms)': Math.round(loadMs),
          'memory p50/p95 (ms)': `${percentile(memoryTimes, 50).toFixed(1)} / ${percentile(memoryTimes, 95).toFixed(1)}`,
          'recall@10': compared ? (agree / compared).toFixed(3) : '-',
          'matches/query': (matches / sqlTimes.length).toFixed(1),
        });
        console.table(rows.slice(-1));
      }
    } finally {
      await s.close();
    }
  }
  console.table(rows);
};

await main();
