/**
 * npm run bench:faces-calibrate [-- --data ../shared/testdata/faces]
 *
 * Calibrates the descriptor distance → similarity mapping on the shared face photos
 * (testdata/faces/README.md: `people/<name>/` is one person each, `groups/` several people):
 * 1. detects every photo once with the embedded engine (the largest face of each `people/` photo
 *    is that person), timing each photo;
 * 2. every pair of `people/` faces is a genuine pair (same folder) or an impostor pair;
 *    prints the distance distributions, the true-accept rate at 0.1 % and 1 % false accepts, and
 *    both rates at similarity 80 (the search's default threshold) under `similarityFromDistance`;
 * 3. for each group photo: the faces found, and for every person of the group (their folder name
 *    is given below) whether one of the found faces matches their photos at similarity ≥ 80.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FaceApiAdapter } from '../src/repositories/faces/engine/face-api.adapter.ts';
import {
  DEFAULT_FACE_MATCH_THRESHOLD,
  faceDistance,
  similarityFromDistance,
} from '../src/services/faces/face-similarity.ts';

const { values } = parseArgs({
  options: { data: { type: 'string', default: '' } },
});
const candidates = [
  values.data,
  path.resolve(process.cwd(), '../shared/testdata/faces'),
  path.resolve(process.cwd(), '../../../shared/testdata/faces'),
  '/work/shared/testdata/faces',
].filter(Boolean);
const dataDir = candidates.find((dir) => existsSync(path.join(dir, 'people')));
if (!dataDir) throw new Error(`no testdata/faces found (tried ${candidates.join(', ')})`);

/** Who is in each group photo (testdata/faces/README.md). */
const GROUPS: Record<string, string[]> = {
  'bbt1.jpg': ['raj', 'leonard', 'howard', 'sheldon'],
  'bbt2.jpg': ['leonard', 'sheldon'],
  'bbt3.jpg': ['sheldon', 'howard', 'penny', 'raj', 'leonard'],
  'bbt4.jpg': ['amy', 'raj', 'bernadette', 'leonard', 'penny', 'sheldon'],
  'bbt5.jpg': ['raj', 'penny', 'sheldon', 'leonard', 'howard'],
  'obama_and_biden.jpg': ['obama', 'biden'],
  'kit_with_rose.jpg': ['kit_harington', 'rose_leslie'],
  'two_people.jpg': ['obama', 'biden'],
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

const main = async () => {
  const engine = new FaceApiAdapter();
  const loadStart = performance.now();
  await engine.init();
  const loadMs = performance.now() - loadStart;
  const times: number[] = [];
  const people: { person: string; file: string; embedding: Float32Array }[] = [];
  const missing: string[] = [];
  for (const person of readdirSync(path.join(dataDir, 'people')).sort()) {
    for (const file of readdirSync(path.join(dataDir, 'people', person)).sort()) {
      const bytes = readFileSync(path.join(dataDir, 'people', person, file));
      const started = performance.now();
      const faces = await engine.detect(bytes);
      times.push(performance.now() - started);
      if (faces.length === 0) missing.push(`${person}/${file}`);
      else people.push({ person, file, embedding: faces[0]!.embedding });
    }
  }
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let i = 0; i < people.length; i++) {
    for (let j = i + 1; j < people.length; j++) {
      const d = faceDistance(people[i]!.embedding, people[j]!.embedding);
      (people[i]!.person === people[j]!.person ? genuine : impostor).push(d);
    }
  }
  genuine.sort((a, b) => a - b);
  impostor.sort((a, b) => a - b);
  const tarAt = (far: number) => {
    // The largest distance cut-off whose impostor acceptance stays within `far`.
    const allowed = Math.floor(far * impostor.length);
    const cut = impostor[allowed] ?? Infinity; // accept d < cut
    const accepted = genuine.filter((d) => d < cut).length;
    return { cut, tar: accepted / genuine.length, falseAccepts: allowed };
  };
  const atThreshold = (threshold: number) => ({
    tar: genuine.filter((d) => similarityFromDistance(d) >= threshold).length / genuine.length,
    far: impostor.filter((d) => similarityFromDistance(d) >= threshold).length / impostor.length,
  });
  const fmt = (xs: number[]) =>
    [0, 1, 5, 50, 95, 99, 100].map((p) => `p${p} ${percentile(xs, p).toFixed(3)}`).join('  ');

  console.log(`data: ${dataDir}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(`models loaded in ${loadMs.toFixed(0)} ms`);
  const sortedTimes = [...times].sort((a, b) => a - b);
  console.log(
    `people photos: ${times.length}, detect+describe p50 ${percentile(sortedTimes, 50).toFixed(0)} ms, p95 ${percentile(sortedTimes, 95).toFixed(0)} ms`,
  );
  console.log(`people photos with no face found: ${missing.length ? missing.join(', ') : 'none'}`);
  console.log(`genuine pairs ${genuine.length}: ${fmt(genuine)}`);
  console.log(`impostor pairs ${impostor.length}: ${fmt(impostor)}`);
  for (const far of [0.001, 0.01]) {
    const r = tarAt(far);
    console.log(
      `TAR at ${(far * 100).toFixed(1)} % FAR: ${(r.tar * 100).toFixed(1)} % (distance < ${r.cut.toFixed(3)}, similarity ${similarityFromDistance(r.cut).toFixed(1)})`,
    );
  }
  for (const threshold of [DEFAULT_FACE_MATCH_THRESHOLD, 90, 70, 50]) {
    const r = atThreshold(threshold);
    console.log(
      `similarity ≥ ${threshold}: TAR ${(r.tar * 100).toFixed(1)} %, FAR ${(r.far * 100).toFixed(2)} %`,
    );
  }

  console.log('\ngroup photos:');
  for (const file of readdirSync(path.join(dataDir, 'groups')).sort()) {
    const bytes = readFileSync(path.join(dataDir, 'groups', file));
    const started = performance.now();
    const faces = await engine.detect(bytes);
    const ms = performance.now() - started;
    const scores = faces.map((f) => f.score.toFixed(2)).join(' ');
    const sizes = faces.map((f) => `${f.pixels.width}×${f.pixels.height}`).join(' ');
    // Who each face is: the person whose photos it is closest to on average, if similarity ≥ 80.
    const names = faces.map((face) => {
      let best = { person: '?', similarity: 0 };
      const byPerson = new Map<string, number[]>();
      for (const p of people) {
        const list = byPerson.get(p.person) ?? [];
        list.push(similarityFromDistance(faceDistance(face.embedding, p.embedding)));
        byPerson.set(p.person, list);
      }
      for (const [person, sims] of byPerson) {
        const top = Math.max(...sims);
        if (top > best.similarity) best = { person, similarity: top };
      }
      return best.similarity >= DEFAULT_FACE_MATCH_THRESHOLD
        ? `${best.person}(${best.similarity.toFixed(0)})`
        : `unknown(${best.person} ${best.similarity.toFixed(0)})`;
    });
    const expected = GROUPS[file] ?? [];
    const foundAll = expected.every((person) => names.some((n) => n.startsWith(`${person}(`)));
    console.log(
      `${file}: ${faces.length} faces in ${ms.toFixed(0)} ms; scores ${scores}; sizes ${sizes}; ${names.join(' ')}${expected.length ? ` — expected ${expected.join(', ')}: ${foundAll ? 'all found' : 'MISSING'}` : ''}`,
    );
  }
  await engine.close();
};

await main();
