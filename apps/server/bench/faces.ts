/**
 * npm run bench:faces [-- --faces 10000,100000 --engines pglite,postgres --queries 30]
 *
 * Face search at scale: one event holding N faces (synthetic 128-d descriptors
 * spread like face-api's: distances between different people around 0.8–1.0), then `queries`
 * searches at the default threshold (similarity 80), each through both exact searches: SQL
 * (`FaceRepository.nearest`) and the in-memory copy the search call uses (`FaceVectorSearch`):
 * p50 / p95 per engine and size, the copy's first load, and recall@10 of the copy against SQL.
 * Each query is a stored face plus a little noise, so every search has at least one match.
 *
 * Then, with the real engine on PGlite (`--skip-real` leaves it out): indexing photos/s and
 * faces/s (`faces.index` on previews made from the shared test photos: read preview, detect,
 * store), and a selfie's end to end time (selfie stored → HTTP search-by-face → results).
 * Quality: `npm run bench:faces-calibrate`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { endpoints, PREVIEW_MAX_SIZE } from '@flashbulb/shared';
import sharp from 'sharp';
import { parseArgs } from 'node:util';
import { distanceForSimilarity } from '../src/services/faces/face-similarity.ts';
import { FaceVectorSearch } from '../src/services/faces/face-vectors.ts';
import { post, schedulingNote, setUp } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    faces: { type: 'string', default: '10000,100000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    queries: { type: 'string', default: '30' },
    data: { type: 'string', default: '' },
    'skip-real': { type: 'boolean', default: false },
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
  console.log(await schedulingNote());
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
        // Process CPU time per in-memory search: on a shared machine the wall time mostly
        // measures the other processes' load; this is what the search itself costs.
        const memoryCpu: number[] = [];
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
          const cpu = process.cpuUsage();
          const memory = await vectors.nearest(input);
          memoryTimes.push(performance.now() - t1);
          const used = process.cpuUsage(cpu);
          memoryCpu.push((used.user + used.system) / 1000);
          matches += exact.length;
          // recall@10 of the in-memory search against the SQL search.
          const top = new Set(exact.slice(0, 10).map((m) => m.faceId));
          compared += top.size;
          agree += memory.slice(0, 10).filter((m) => top.has(m.faceId)).length;
        }
        sqlTimes.sort((a, b) => a - b);
        memoryTimes.sort((a, b) => a - b);
        memoryCpu.sort((a, b) => a - b);
        rows.push({
          engine,
          faces: size,
          'insert (s)': insertSeconds.toFixed(1),
          'SQL p50/p95 (ms)': `${Math.round(percentile(sqlTimes, 50))} / ${Math.round(percentile(sqlTimes, 95))}`,
          'memory first load (ms)': Math.round(loadMs),
          'memory p50/p95 (ms)': `${percentile(memoryTimes, 50).toFixed(1)} / ${percentile(memoryTimes, 95).toFixed(1)}`,
          'memory CPU p50/p95 (ms)': `${percentile(memoryCpu, 50).toFixed(1)} / ${percentile(memoryCpu, 95).toFixed(1)}`,
          'load avg': loadavg()[0]!.toFixed(1),
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
  if (!values['skip-real']) await realEngine();
};

/** Indexing speed and a selfie's end-to-end time with the real models (PGlite). */
const realEngine = async () => {
  const dataDir = [
    values.data,
    path.resolve(process.cwd(), '../shared/testdata/faces'),
    path.resolve(process.cwd(), '../../../shared/testdata/faces'),
  ].find((dir) => dir && existsSync(path.join(dir, 'groups')));
  if (!dataDir) throw new Error('testdata/faces not found; pass --data');
  const s = await setUp('pglite');
  try {
    const { database, storage, services, repositories } = s.app.container;
    await database.executeSql('update events set enable_facial_recognition = 1 where id = $1', [
      s.eventId,
    ]);
    const files = [
      ...readdirSync(path.join(dataDir, 'groups')).map((f) => path.join(dataDir, 'groups', f)),
      ...['penny', 'raj', 'obama', 'kit_harington'].map((p) => {
        const folder = path.join(dataDir, 'people', p);
        return path.join(folder, readdirSync(folder).sort()[0]!);
      }),
    ];
    // Photo rows whose previews are the test photos made the way derivatives make them.
    await s.insertRows(files.length);
    const photoRows = (
      await database.executeSql('select id, uid from photos where event_id = $1 order by id', [
        s.eventId,
      ])
    ).rows as { id: number; uid: string }[];
    for (const [i, file] of files.entries()) {
      const key = `protected/events/${s.eventName}/photos/uid_${photoRows[i]!.uid}_uid/preview.jpg`;
      const preview = await sharp(readFileSync(file))
        .rotate()
        .resize(PREVIEW_MAX_SIZE, PREVIEW_MAX_SIZE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 90 })
        .toBuffer();
      await storage.put(key, preview, 'image/jpeg');
      await database.executeSql(
        `update photos set derivatives = jsonb_build_object('preview', $2::text) where id = $1`,
        [photoRows[i]!.id, key],
      );
    }
    await services.faceIndex.indexPhoto(photoRows[0]!.id); // loads the models
    await database.executeSql('delete from photo_face_scans where event_id = $1', [s.eventId]);
    const started = performance.now();
    let faces = 0;
    for (const row of photoRows) {
      const outcome = await services.faceIndex.indexPhoto(row.id);
      if (outcome.status === 'indexed') faces += outcome.faces;
    }
    const seconds = (performance.now() - started) / 1000;
    const selfies = ['penny/penny4.png', 'raj/raj2.png', 'obama/obama2.jpg', 'howard/howard1.png'];
    const times: number[] = [];
    for (const [i, selfie] of [...selfies, ...selfies].entries()) {
      const bytes = readFileSync(path.join(dataDir, 'people', selfie));
      const t0 = performance.now();
      const key = `selfies/${s.eventName}/bench-${i}.jpg`;
      await storage.put(key, bytes, 'image/jpeg');
      await post(
        s.base,
        endpoints.searchByFace,
        { event_id: s.eventId, photo_url_list: [await storage.signedGetUrl(key)] },
        s.apiKey,
      );
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const counts = await repositories.faces.countsForEvent(s.eventId);
    console.table([
      {
        photos: photoRows.length,
        faces: counts.faces,
        'indexing (s)': seconds.toFixed(1),
        'photos/s': (photoRows.length / seconds).toFixed(2),
        'faces/s': (faces / seconds).toFixed(2),
        'selfie end to end p50 / max (ms)': `${Math.round(percentile(times, 50))} / ${Math.round(times.at(-1)!)}`,
      },
    ]);
  } finally {
    await s.close();
  }
};

await main();
