import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FACE_MATCH_THRESHOLD,
  SIMILARITY_ANCHORS,
  distanceForSimilarity,
  faceDistance,
  minScoreForConfidence,
  similarityFromDistance,
} from '../../src/services/faces/face-similarity.ts';

describe('face similarity mapping', () => {
  it('is 100 for identical descriptors and 0 far away', () => {
    expect(similarityFromDistance(0)).toBe(100);
    expect(similarityFromDistance(1.2)).toBe(0);
    expect(similarityFromDistance(Number.NaN)).toBe(0);
    expect(similarityFromDistance(-1)).toBe(0);
  });

  it('decreases monotonically with distance and stays within 0–100', () => {
    let previous = 101;
    for (let d = 0; d <= 1.5; d += 0.005) {
      const s = similarityFromDistance(d);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(100);
      expect(s).toBeLessThanOrEqual(previous);
      previous = s;
    }
  });

  it('puts the default threshold 80 between the calibrated same-person and different-person distances', () => {
    expect(DEFAULT_FACE_MATCH_THRESHOLD).toBe(80);
    // Calibration (docs/performance.md): same person mostly < 0.55, different people ≥ 0.6.
    expect(similarityFromDistance(0.45)).toBeGreaterThan(80);
    expect(similarityFromDistance(0.6)).toBeLessThan(80);
    expect(similarityFromDistance(0.7)).toBeLessThan(50);
  });

  it('inverts to the distance cut-off of a threshold', () => {
    for (const threshold of [99, 90, 80, 70, 50, 10]) {
      const cut = distanceForSimilarity(threshold);
      expect(similarityFromDistance(cut)).toBeCloseTo(threshold, 0);
      expect(similarityFromDistance(cut + 0.01)).toBeLessThan(threshold);
    }
    expect(distanceForSimilarity(0)).toBe(Infinity);
    expect(SIMILARITY_ANCHORS[0]).toEqual([0, 100]);
  });

  it('measures Euclidean distance and refuses descriptors of different lengths', () => {
    expect(faceDistance([0, 3], [4, 0])).toBe(5);
    expect(faceDistance(new Float32Array([1, 1]), new Float32Array([1, 1]))).toBe(0);
    expect(() => faceDistance([1], [1, 2])).toThrow();
  });

  it("maps the event's detection confidence onto the detector's score: 95 → 0.5, stricter above", () => {
    expect(minScoreForConfidence(95)).toBeCloseTo(0.5, 6);
    expect(minScoreForConfidence(99)).toBeCloseTo(0.9, 6);
    expect(minScoreForConfidence(100)).toBe(1);
    expect(minScoreForConfidence(0)).toBe(0);
    expect(minScoreForConfidence(50)).toBeCloseTo(0.3, 6);
    let previous = -1;
    for (let c = 0; c <= 100; c += 0.5) {
      const s = minScoreForConfidence(c);
      expect(s).toBeGreaterThanOrEqual(previous);
      previous = s;
    }
    // Out of range or not a number: clamped, never looser than asked.
    expect(minScoreForConfidence(150)).toBe(1);
    expect(minScoreForConfidence(-5)).toBe(0);
    expect(minScoreForConfidence(Number.NaN)).toBe(1);
  });
});
