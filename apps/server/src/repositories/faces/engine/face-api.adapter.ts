import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { MAX_PIXELS } from '@flashbulb/shared';
import { ProviderError } from '../../provider-error.ts';
import type { DetectedFace, DetectOptions, FaceEngineProvider } from './face-engine-provider.ts';

/** The longer side faces are detected at: larger only grows the wasm heap (notes/faces.md). */
export const DETECTION_MAX_SIDE = 1280;
/**
 * Images whose longer side is at most this are padded before detection: the SSD detector misses
 * faces that fill the frame (tight crops, avatars, selfies cropped by the phone).
 */
const PAD_BELOW_SIDE = 400;
/** The border added around such an image, as a fraction of its longer side, on each side. */
const PAD_FRACTION = 1;
/** The SSD detector's own floor; callers filter higher (the event's detection confidence). */
const SSD_MIN_CONFIDENCE = 0.3;

// The face-api node-wasm build is CommonJS and types itself loosely; only what is used here.
interface FaceApiTensor {
  dispose(): void;
}
interface FaceApiResult {
  detection: { score: number; box: { x: number; y: number; width: number; height: number } };
  descriptor: Float32Array;
}
interface FaceApiModule {
  tf: {
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): FaceApiTensor;
  };
  nets: Record<
    'ssdMobilenetv1' | 'faceLandmark68Net' | 'faceRecognitionNet',
    { loadFromDisk(dir: string): Promise<void> }
  >;
  SsdMobilenetv1Options: new (options: { minConfidence: number; maxResults: number }) => unknown;
  detectAllFaces(
    input: FaceApiTensor,
    options: unknown,
  ): {
    withFaceLandmarks(): { withFaceDescriptors(): Promise<FaceApiResult[]> };
  };
}
interface WasmBackendModule {
  setWasmPaths(prefix: string): void;
}

let loading: Promise<FaceApiModule> | null = null;

/**
 * Loads tfjs on the wasm backend and the three face-api networks, once per process. The `.wasm`
 * files and the weights come from the installed npm packages: nothing is downloaded.
 */
const loadFaceApi = (): Promise<FaceApiModule> => {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmDir = path.join(
      path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')),
      'dist',
    );
    const wasm = require('@tensorflow/tfjs-backend-wasm') as WasmBackendModule;
    wasm.setWasmPaths(`${wasmDir}${path.sep}`);
    const faceApi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApiModule;
    await faceApi.tf.setBackend('wasm');
    await faceApi.tf.ready();
    const modelDir = path.join(
      path.dirname(require.resolve('@vladmandic/face-api/package.json')),
      'model',
    );
    await faceApi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
    await faceApi.nets.faceLandmark68Net.loadFromDisk(modelDir);
    await faceApi.nets.faceRecognitionNet.loadFromDisk(modelDir);
    return faceApi;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
};

export interface PreparedImage {
  /** RGB bytes, row by row. */
  data: Buffer;
  width: number;
  height: number;
  /** Where the photo sits inside `data` (a padded image has a border around it). */
  inner: { left: number; top: number; width: number; height: number };
  /** Photo pixels (after orientation) per detection pixel: 1 unless the photo was scaled down. */
  scale: number;
}

/**
 * Decodes once: EXIF orientation applied, the longer side capped at DETECTION_MAX_SIDE, small
 * images padded with a grey border. Unreadable bytes are a permanent ProviderError.
 */
export const prepareImage = async (image: Buffer): Promise<PreparedImage> => {
  try {
    const oriented = sharp(image, { limitInputPixels: MAX_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize(DETECTION_MAX_SIDE, DETECTION_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb');
    const decoded = await oriented.raw().toBuffer({ resolveWithObject: true });
    const { width, height } = decoded.info;
    const meta = await sharp(image, { limitInputPixels: MAX_PIXELS }).metadata();
    const rotated = (meta.orientation ?? 1) >= 5;
    const originalLonger = Math.max(
      (rotated ? meta.height : meta.width) ?? width,
      (rotated ? meta.width : meta.height) ?? height,
    );
    const scale = originalLonger / Math.max(width, height);
    const longer = Math.max(width, height);
    if (longer > PAD_BELOW_SIDE) {
      return {
        data: decoded.data,
        width,
        height,
        inner: { left: 0, top: 0, width, height },
        scale,
      };
    }
    const border = Math.round(longer * PAD_FRACTION);
    const padded = await sharp(decoded.data, { raw: { width, height, channels: 3 } })
      .extend({
        top: border,
        bottom: border,
        left: border,
        right: border,
        background: { r: 128, g: 128, b: 128 },
      })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data: padded.data,
      width: padded.info.width,
      height: padded.info.height,
      inner: { left: border, top: border, width, height },
      scale,
    };
  } catch (error) {
    throw ProviderError.permanent(PROVIDER, `image cannot be decoded: ${reason(error)}`);
  }
};

const PROVIDER = 'face-api';
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/**
 * The embedded face engine: `@vladmandic/face-api` (SSD MobileNet v1 detector, 68-point landmarks
 * for alignment, ResNet-34-like recognition net → 128-d descriptor, Euclidean distance) on
 * tfjs-wasm. Single-threaded; about 0.4 s per photo on this machine (docs/performance.md).
 */
export class FaceApiAdapter implements FaceEngineProvider {
  readonly name = PROVIDER;
  readonly model = 'face-api-1.7/ssd-mobilenetv1+resnet128';
  readonly dimensions = 128;
  // One detection at a time: the wasm backend is single-threaded and shares one heap.
  private queue: Promise<unknown> = Promise.resolve();

  async init(): Promise<void> {
    await loadFaceApi();
  }

  detect(image: Buffer, options: DetectOptions = {}): Promise<DetectedFace[]> {
    const run = this.queue.then(() => this.detectNow(image, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async detectNow(image: Buffer, options: DetectOptions): Promise<DetectedFace[]> {
    const faceApi = await loadFaceApi().catch((error: unknown) => {
      throw ProviderError.retryable(PROVIDER, `models cannot be loaded: ${reason(error)}`);
    });
    const prepared = await prepareImage(image);
    const tensor = faceApi.tf.tensor3d(
      new Uint8Array(prepared.data.buffer, prepared.data.byteOffset, prepared.data.length),
      [prepared.height, prepared.width, 3],
      'int32',
    );
    let results: FaceApiResult[];
    try {
      results = await faceApi
        .detectAllFaces(
          tensor,
          new faceApi.SsdMobilenetv1Options({
            minConfidence: Math.min(options.minScore ?? SSD_MIN_CONFIDENCE, SSD_MIN_CONFIDENCE),
            maxResults: 100,
          }),
        )
        .withFaceLandmarks()
        .withFaceDescriptors();
    } catch (error) {
      throw ProviderError.retryable(PROVIDER, `detection failed: ${reason(error)}`);
    } finally {
      tensor.dispose();
    }
    const { inner, scale } = prepared;
    const minScore = options.minScore ?? 0;
    const minSize = options.minSize ?? 0;
    const faces: DetectedFace[] = [];
    for (const result of results) {
      const { box, score } = result.detection;
      const left = clamp01((box.x - inner.left) / inner.width);
      const top = clamp01((box.y - inner.top) / inner.height);
      const right = clamp01((box.x + box.width - inner.left) / inner.width);
      const bottom = clamp01((box.y + box.height - inner.top) / inner.height);
      const faceBox = { x: left, y: top, width: right - left, height: bottom - top };
      const widthPx = faceBox.width * inner.width * scale;
      const heightPx = faceBox.height * inner.height * scale;
      if (score < minScore || widthPx < minSize || heightPx < minSize) continue;
      if (faceBox.width <= 0 || faceBox.height <= 0) continue;
      faces.push({
        box: faceBox,
        score,
        embedding: Float32Array.from(result.descriptor),
        pixels: { width: Math.round(widthPx), height: Math.round(heightPx) },
      });
    }
    faces.sort((a, b) => b.pixels.width * b.pixels.height - a.pixels.width * a.pixels.height);
    return options.maxFaces === undefined ? faces : faces.slice(0, options.maxFaces);
  }

  async close(): Promise<void> {
    await this.queue;
  }
}
