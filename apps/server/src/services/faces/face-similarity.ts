/**
 * Descriptor distance → similarity 0–100, shaped like Amazon Rekognition's `Similarity` (the
 * spec's `face_match_threshold` default 80 is on this scale). A pure, monotonic, piecewise-linear
 * map through calibrated anchor points: the constants come from `npm run bench:faces-calibrate`
 * on testdata/faces (docs/performance.md, docs/adr/0007-face-engine.md); re-calibrate when the
 * engine's model changes.
 */

import { DEFAULT_FACE_MATCH_THRESHOLD } from '@flashbulb/shared';

/** The search's default `face_match_threshold` (80, in the contract). */
export { DEFAULT_FACE_MATCH_THRESHOLD };

/** (Euclidean distance, similarity) anchors, distance ascending, similarity descending. */
export const SIMILARITY_ANCHORS: readonly (readonly [distance: number, similarity: number])[] = [
  [0, 100],
  [0.4, 95],
  [0.55, 80],
  [0.6, 60],
  [0.7, 20],
  [0.8, 0],
];

/** Euclidean distance between two descriptors of the same model. */
export const faceDistance = (
  a: Float32Array | readonly number[],
  b: Float32Array | readonly number[],
): number => {
  if (a.length !== b.length) throw new Error('descriptors of different lengths');
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
};

/** Similarity 0–100 of a descriptor distance (1 decimal). */
export const similarityFromDistance = (distance: number): number => {
  if (!Number.isFinite(distance) || distance < 0) return 0;
  for (let i = 1; i < SIMILARITY_ANCHORS.length; i++) {
    const [d1, s1] = SIMILARITY_ANCHORS[i]!;
    if (distance <= d1) {
      const [d0, s0] = SIMILARITY_ANCHORS[i - 1]!;
      const value = s0 + ((distance - d0) / (d1 - d0)) * (s1 - s0);
      return Math.round(value * 10) / 10;
    }
  }
  return 0;
};

/** The largest distance whose similarity is at least `threshold` (for SQL pre-filters). */
export const distanceForSimilarity = (threshold: number): number => {
  if (threshold <= 0) return Infinity;
  for (let i = 1; i < SIMILARITY_ANCHORS.length; i++) {
    const [d1, s1] = SIMILARITY_ANCHORS[i]!;
    if (s1 <= threshold) {
      const [d0, s0] = SIMILARITY_ANCHORS[i - 1]!;
      if (s0 === s1) return d0;
      return d0 + ((s0 - threshold) / (s0 - s1)) * (d1 - d0);
    }
  }
  return SIMILARITY_ANCHORS[SIMILARITY_ANCHORS.length - 1]![0];
};

/**
 * Detection confidence 0–100 (the event's "face-recognition confidence", Rekognition-like,
 * default 95) ⇄ the SSD detector's score 0–1. SSD scores real faces lower than Rekognition's
 * confidence (testdata/faces: main faces of group photos score 0.52–1.00), so the setting is
 * mapped onto the score scale rather than used as a score (docs/adr/0007-face-engine.md): the
 * default 95 is score 0.5 (face-api's own default cut-off), 99 is 0.9, 100 keeps only score 1.
 */
export const CONFIDENCE_ANCHORS: readonly (readonly [confidence: number, score: number])[] = [
  [0, 0],
  [50, 0.3],
  [95, 0.5],
  [99, 0.9],
  [100, 1],
];

/** The lowest detector score a face needs at the given confidence setting (0–100). */
export const minScoreForConfidence = (confidence: number): number => {
  const c = Math.min(100, Math.max(0, Number.isFinite(confidence) ? confidence : 100));
  for (let i = 1; i < CONFIDENCE_ANCHORS.length; i++) {
    const [c1, s1] = CONFIDENCE_ANCHORS[i]!;
    if (c <= c1) {
      const [c0, s0] = CONFIDENCE_ANCHORS[i - 1]!;
      return s0 + ((c - c0) / (c1 - c0)) * (s1 - s0);
    }
  }
  return 1;
};
