// The face tests that run the real models (slow: ~0.5 s per photo on the wasm backend). Keep every
// model-heavy test in this file so the models load once per run.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { FaceApiAdapter } from '../src/repositories/face-engine/face-api.adapter.ts';
import { ProviderError } from '../src/repositories/provider-error.ts';
import {
  DEFAULT_FACE_MATCH_THRESHOLD,
  faceDistance,
  similarityFromDistance,
} from '../src/services/faces/face-similarity.ts';
import { facePhoto } from './helpers/faces.ts';

const engine = new FaceApiAdapter();

beforeAll(async () => {
  await engine.init();
}, 120_000);

describe('face engine (face-api on tfjs-wasm)', () => {
  it('finds every face of a group photo with a box, a score and a 128-d descriptor', async () => {
    const faces = await engine.detect(facePhoto('groups/bbt1.jpg'));
    // bbt1: Raj, Leonard, Howard and Sheldon on the sofa.
    expect(faces).toHaveLength(4);
    for (const face of faces) {
      expect(face.embedding).toBeInstanceOf(Float32Array);
      expect(face.embedding).toHaveLength(engine.dimensions);
      expect(face.score).toBeGreaterThan(0.9);
      expect(face.score).toBeLessThanOrEqual(1);
      for (const v of [
        face.box.x,
        face.box.y,
        face.box.x + face.box.width,
        face.box.y + face.box.height,
      ]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
      expect(face.pixels.width).toBeGreaterThan(40);
    }
    // Largest first; the four sit side by side left to right.
    const areas = faces.map((f) => f.pixels.width * f.pixels.height);
    expect([...areas].sort((a, b) => b - a)).toEqual(areas);
    const lefts = faces.map((f) => f.box.x).sort((a, b) => a - b);
    for (let i = 1; i < lefts.length; i++) expect(lefts[i]! - lefts[i - 1]!).toBeGreaterThan(0.1);
  });

  it('finds the face in a tight 150×150 crop (padded before detection)', async () => {
    const faces = await engine.detect(facePhoto('people/stuart/stuart4.png'));
    expect(faces).toHaveLength(1);
    // The box is in the crop's own coordinates, not the padded image's: the face fills the crop.
    expect(faces[0]!.box.width).toBeGreaterThan(0.6);
    expect(faces[0]!.pixels.width).toBeGreaterThan(90);
  });

  it('applies the EXIF orientation: a rotated JPEG tagged upright gives the same face', async () => {
    const upright = facePhoto('people/obama/obama.jpg');
    // Store the pixels turned 90° clockwise with orientation 8 (= "turn 90° back to view").
    const turned = await sharp(upright)
      .rotate(90)
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 8 })
      .toBuffer();
    const [a] = await engine.detect(upright);
    const [b] = await engine.detect(turned);
    expect(a && b).toBeTruthy();
    expect(Math.abs(a!.box.x - b!.box.x)).toBeLessThan(0.05);
    expect(Math.abs(a!.box.y - b!.box.y)).toBeLessThan(0.05);
    expect(similarityFromDistance(faceDistance(a!.embedding, b!.embedding))).toBeGreaterThan(90);
  });

  it('leaves out faces under the minimum score or size and keeps at most maxFaces', async () => {
    const photo = facePhoto('groups/bbt4.jpg');
    const all = await engine.detect(photo);
    expect(all.length).toBe(6);
    const confident = await engine.detect(photo, { minScore: 0.8 });
    expect(confident.length).toBeLessThan(all.length);
    expect(confident.every((f) => f.score >= 0.8)).toBe(true);
    const big = await engine.detect(photo, { minSize: 100 });
    expect(big.length).toBeGreaterThan(0);
    expect(big.every((f) => f.pixels.width >= 100 && f.pixels.height >= 100)).toBe(true);
    expect(big.length).toBeLessThan(all.length);
    expect(await engine.detect(photo, { maxFaces: 1 })).toHaveLength(1);
  });

  it('says a photo with no face has none, and refuses bytes that are no image (permanent)', async () => {
    const blank = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 90, b: 160 } },
    })
      .jpeg()
      .toBuffer();
    expect(await engine.detect(blank)).toEqual([]);
    const error = await engine.detect(Buffer.from('not an image')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).permanent).toBe(true);
  });

  it('matches the same person above the default threshold and another person below it', async () => {
    const [raj1] = await engine.detect(facePhoto('people/raj/raj1.png'));
    const [raj2] = await engine.detect(facePhoto('people/raj/raj2.png'));
    const [howard] = await engine.detect(facePhoto('people/howard/howard1.png'));
    const same = similarityFromDistance(faceDistance(raj1!.embedding, raj2!.embedding));
    const other = similarityFromDistance(faceDistance(raj1!.embedding, howard!.embedding));
    expect(same).toBeGreaterThanOrEqual(DEFAULT_FACE_MATCH_THRESHOLD);
    expect(other).toBeLessThan(DEFAULT_FACE_MATCH_THRESHOLD);
  });
});
