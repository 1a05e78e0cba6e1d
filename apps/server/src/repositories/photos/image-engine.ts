import sharp from 'sharp';
import type { ImageThreadPriority } from '../../lib/thread-priority.ts';
import { MAX_PIXELS, PREVIEW_MAX_SIZE, PREVIEW_QUALITY, THUMBNAIL_SIZE } from '@flashbulb/shared';

export type ImageProblem = 'photo_too_large' | 'photo_truncated' | 'unsupported_picture_format';

export interface ImageInfo {
  width: number;
  height: number;
  /** A 2:1 picture whose XMP says `GPano:ProjectionType` equirectangular (a 360° photo). */
  is360: boolean;
  /** Frames in the file (an animated GIF has more than one). */
  frames: number;
}

/** 360° cameras write Google's photo-sphere XMP; the projection may be an attribute or an element. */
const EQUIRECTANGULAR = /GPano:ProjectionType\s*(?:=\s*["']|>)\s*equirectangular/i;

export interface Derivatives {
  preview: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
  watermarked: Partial<Record<WatermarkKind, Buffer>>;
}

export type WatermarkKind = 'live_view_watermark' | 'photo_watermark' | 'protector_watermark';

// A fresh EXIF block with nothing personal in it: some print pipelines (CUPS imagetopdf) refuse
// JPEGs without an APP marker, and location or camera data must not reach public files.
const CLEAN_EXIF = { IFD0: { Software: 'Flashbulb' } };

/**
 * The image engine (sharp/libvips). Everything here decodes untrusted bytes, so every call caps
 * the pixel count and refuses truncated input.
 */
export class ImageEngine {
  /** `priority`: libvips threads run below the event loop (src/lib/thread-priority.ts). */
  constructor(private readonly priority?: ImageThreadPriority) {}

  private sharp(input: sharp.SharpInput, options?: sharp.SharpOptions) {
    this.priority?.apply();
    return sharp(input, options);
  }

  private open(input: Buffer, animated = false) {
    return this.sharp(input, {
      limitInputPixels: MAX_PIXELS,
      failOn: 'truncated',
      animated,
      sequentialRead: true,
    });
  }

  /** Decodes the whole image once: size within limits, not truncated, really an image. */
  async inspect(input: Buffer): Promise<ImageInfo | ImageProblem> {
    let meta: sharp.Metadata;
    try {
      meta = await this.sharp(input, { limitInputPixels: false }).metadata();
    } catch {
      return 'unsupported_picture_format';
    }
    if (!meta.width || !meta.height) return 'unsupported_picture_format';
    if (meta.width * meta.height > MAX_PIXELS) return 'photo_too_large';
    try {
      // A small decode walks every scan line (JPEG shrink-on-load keeps it cheap).
      await this.open(input).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      if (/pixel limit/i.test(message)) return 'photo_too_large';
      if (/truncat|premature|end of|corrupt|incomplete|bad/i.test(message))
        return 'photo_truncated';
      return 'photo_truncated';
    }
    const rotated = (meta.orientation ?? 1) >= 5;
    const width = rotated ? meta.height : meta.width;
    const height = rotated ? meta.width : meta.height;
    const xmp = meta.xmp ? meta.xmp.toString('utf8') : '';
    return {
      width,
      height,
      // 2:1 within a pixel or two of rounding, and the camera says so.
      is360: Math.abs(width - 2 * height) <= 2 && EQUIRECTANGULAR.test(xmp),
      frames: meta.pages ?? 1,
    };
  }

  async makeDerivatives(
    input: Buffer,
    watermarks: Partial<Record<WatermarkKind, Buffer>>,
  ): Promise<Derivatives> {
    // rotate() applies the EXIF orientation; the output carries none of the input's metadata.
    const preview = await this.open(input)
      .rotate()
      .resize(PREVIEW_MAX_SIZE, PREVIEW_MAX_SIZE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: PREVIEW_QUALITY, mozjpeg: true })
      .withExif(CLEAN_EXIF)
      .toBuffer({ resolveWithObject: true });
    const thumbnail = await this.sharp(preview.data)
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80, mozjpeg: true })
      .withExif(CLEAN_EXIF)
      .toBuffer();
    const watermarked: Derivatives['watermarked'] = {};
    for (const [kind, overlay] of Object.entries(watermarks) as [WatermarkKind, Buffer][]) {
      const fitted = await this.sharp(overlay)
        .resize(preview.info.width, preview.info.height, {
          fit: 'contain',
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        })
        .png()
        .toBuffer();
      watermarked[kind] = await this.sharp(preview.data)
        .composite([{ input: fitted, gravity: 'center' }])
        .jpeg({ quality: PREVIEW_QUALITY, mozjpeg: true })
        .withExif(CLEAN_EXIF)
        .toBuffer();
    }
    return {
      preview: preview.data,
      thumbnail,
      width: preview.info.width,
      height: preview.info.height,
      watermarked,
    };
  }

  /**
   * The output of one image process: `resize` fits the photo in 2000 px (never
   * enlarged); `watermark` lays the overlay over the whole photo (at most 4000 px); `print` crops
   * the photo to fill a 4×6 at 300 dpi (1800×1200, or 1200×1800 for an upright photo). JPEG with a
   * clean EXIF block; the orientation is applied.
   */
  async processVariant(
    input: Buffer,
    kind: 'resize' | 'watermark' | 'print',
    overlay?: Buffer,
  ): Promise<Buffer> {
    if (kind === 'print') {
      const meta = await this.open(input).metadata();
      const turned = (meta.orientation ?? 1) >= 5;
      const w = (turned ? meta.height : meta.width) ?? 1;
      const h = (turned ? meta.width : meta.height) ?? 1;
      const [width, height] = w >= h ? [1800, 1200] : [1200, 1800];
      // Decoded to raw pixels first, so nothing of the input's metadata reaches the output.
      const cropped = await this.open(input)
        .rotate()
        .resize(width, height, { fit: 'cover', position: 'attention' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return this.sharp(cropped.data, { raw: cropped.info })
        .withMetadata({ density: 300 })
        .withExif(CLEAN_EXIF)
        .jpeg({ quality: 92 })
        .toBuffer();
    }
    const side = kind === 'resize' ? 2000 : 4000;
    const base = await this.open(input)
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 92 })
      .toBuffer({ resolveWithObject: true });
    if (kind === 'resize' || !overlay)
      return this.sharp(base.data).jpeg({ quality: 90 }).withExif(CLEAN_EXIF).toBuffer();
    const fitted = await this.sharp(overlay)
      .resize(base.info.width, base.info.height, {
        fit: 'contain',
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      })
      .png()
      .toBuffer();
    return this.sharp(base.data)
      .composite([{ input: fitted, gravity: 'center' }])
      .jpeg({ quality: 90 })
      .withExif(CLEAN_EXIF)
      .toBuffer();
  }

  /** Frames in an image (an animated GIF has more than one); header read only. */
  async frameCount(input: Buffer): Promise<number> {
    const meta = await this.sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
    return meta.pages ?? 1;
  }

  /** A watermark fitted into `width`×`height` (centred, transparent around): a clip's overlay. */
  async fitOverlay(overlay: Buffer, width: number, height: number): Promise<Buffer> {
    return this.sharp(overlay)
      .resize(width, height, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer();
  }

  /** A stand-alone thumbnail (stock images): 400 px, orientation applied, metadata stripped. */
  async thumbnail(input: Buffer): Promise<Buffer> {
    return this.open(input)
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80, mozjpeg: true })
      .withExif(CLEAN_EXIF)
      .toBuffer();
  }

  /** The built-in watermark: the product name, semi-transparent, for events that use the default. */
  async defaultWatermark(): Promise<Buffer> {
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1800"><text x="600" y="1700" font-size="96" text-anchor="middle" fill="white" fill-opacity="0.6" font-family="sans-serif">Flashbulb</text></svg>`,
    );
    return this.sharp(svg).png().toBuffer();
  }
}
