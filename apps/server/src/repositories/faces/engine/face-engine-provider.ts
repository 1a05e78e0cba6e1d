/**
 * The face engine capability (interface only; the face search issue implements it). Adapters:
 * `<provider>.adapter.ts` next to this file — the embedded default runs `@vladmandic/face-api` on
 * tfjs-wasm in the worker (models shipped in npm packages); RetinaFace on onnxruntime-node may be
 * configured — chosen by configuration in repositories/providers.ts.
 *
 * The engine only finds faces and describes them; matching is a vector search in SQL (exact in
 * the embedded default, pgvector HNSW where the extension exists), not the engine's job.
 * Face crops and selfies are protected objects (signed URLs only); the engine gets bytes, never
 * URLs. Detection runs as a pg-boss job listening to `photo.ready`, never inline in a request.
 * Failures are ProviderErrors: `permanent` for an image it cannot read, `retryable` otherwise.
 */

/** A face's box in the image, each value a fraction (0–1) of the image's width or height. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DetectedFace {
  box: FaceBox;
  /** Detection confidence, 0–1. */
  score: number;
  /** The face descriptor; `dimensions` numbers, comparable only within one `model`. */
  embedding: Float32Array;
  /** The box's size in pixels of the given image (after EXIF orientation, before any scaling). */
  pixels: { width: number; height: number };
}

export interface DetectOptions {
  /** Faces scoring below (0–1) are left out. */
  minScore?: number;
  /** Faces narrower or lower than this many pixels of the given image are left out. */
  minSize?: number;
  /** At most this many faces, the largest. */
  maxFaces?: number;
}

export interface FaceEngineProvider {
  readonly name: string;
  /** Names the model and its version: embeddings of different models are never compared. */
  readonly model: string;
  /** The length of every embedding (the vector column's size). */
  readonly dimensions: number;
  /** Loads models once (in workers, before the first job). */
  init(): Promise<void>;
  /** Every face in a decoded-once image (JPEG/PNG bytes, EXIF orientation applied), largest first. */
  detect(image: Buffer, options?: DetectOptions): Promise<DetectedFace[]>;
  close(): Promise<void>;
}
