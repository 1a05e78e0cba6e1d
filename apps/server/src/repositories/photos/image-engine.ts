import sharp from 'sharp';
import type { ImageThreadPriority } from '../../lib/thread-priority.ts';
import {
  MAX_PIXELS,
  PREVIEW_MAX_SIZE,
  PREVIEW_QUALITY,
  PROTECTED_PREVIEW_MAX_SIZE,
  THUMBNAIL_SIZE,
} from '@flashbulb/shared';

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

/** What a protected preview repeats over the picture: the event's protector image, or a text. */
export type ProtectorMark = { kind: 'image'; image: Buffer } | { kind: 'text'; text: string };

/** How much of the mark shows through (the picture stays recognisable, the mark unmissable). */
const MARK_OPACITY = 0.5;
/** The mark's angle: a diagonal pattern, so no crop of a straight strip escapes it. */
const MARK_ANGLE = -30;
/** Longest mark text drawn (longer names are cut, with an ellipsis). */
const MARK_TEXT_MAX = 48;

const escapeXml = (text: string): string =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

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

  /**
   * A locked guest's preview: the picture fitted in PROTECTED_PREVIEW_MAX_SIZE (never enlarged)
   * with the mark repeated over all of it — a staggered diagonal grid, about three marks across the
   * long side, so every part of the picture carries one. JPEG, clean EXIF.
   */
  async protectedPreview(
    input: Buffer,
    mark: ProtectorMark,
  ): Promise<{ data: Buffer; width: number; height: number }> {
    const base = await this.open(input)
      .rotate()
      .resize(PROTECTED_PREVIEW_MAX_SIZE, PROTECTED_PREVIEW_MAX_SIZE, {
        fit: 'inside',
        withoutEnlargement: true,
      })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height } = base.info;
    const side = Math.max(64, Math.round(Math.max(width, height) / 2.4));
    const staggered = await this.staggeredTile(await this.markTile(mark, side), side);
    // A picture smaller than one tile (under 64 px a side) gets the tile's corner: sharp tiles
    // only an input no larger than the picture.
    const tile =
      side > width || side > height
        ? await this.sharp(staggered)
            .extract({
              left: 0,
              top: 0,
              width: Math.min(side, width),
              height: Math.min(side, height),
            })
            .png()
            .toBuffer()
        : staggered;
    const data = await this.sharp(base.data, { raw: base.info })
      .composite([{ input: tile, tile: true, gravity: 'northwest' }])
      .jpeg({ quality: PREVIEW_QUALITY, mozjpeg: true })
      .withExif(CLEAN_EXIF)
      .toBuffer();
    return { data, width, height };
  }

  /** One mark, turned diagonal and half transparent, centred in a transparent square. */
  private async markTile(mark: ProtectorMark, side: number): Promise<Buffer> {
    const transparent = { r: 0, g: 0, b: 0, alpha: 0 };
    if (mark.kind === 'text') {
      const chars = [...mark.text.trim()];
      const text =
        chars.length > MARK_TEXT_MAX
          ? `${chars.slice(0, MARK_TEXT_MAX - 1).join('')}…`
          : chars.join('');
      const length = Math.max(4, [...text].length);
      const size = Math.max(10, Math.min(side * 0.14, (side * 1.1) / (length * 0.6)));
      const c = side / 2;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><text x="${c}" y="${c}" transform="rotate(${MARK_ANGLE} ${c} ${c})" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="700" font-size="${size.toFixed(1)}" fill="#ffffff" fill-opacity="${MARK_OPACITY + 0.1}" stroke="#000000" stroke-opacity="${MARK_OPACITY - 0.15}" stroke-width="${Math.max(1, size / 16).toFixed(1)}">${escapeXml(text)}</text></svg>`;
      return this.sharp(Buffer.from(svg)).png().toBuffer();
    }
    const fitted = await this.sharp(mark.image, { limitInputPixels: MAX_PIXELS })
      .ensureAlpha()
      .resize(Math.round(side * 0.6), Math.round(side * 0.6), { fit: 'inside' })
      .rotate(MARK_ANGLE, { background: transparent })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = fitted.data;
    for (let i = 3; i < pixels.length; i += 4) pixels[i] = Math.round(pixels[i]! * MARK_OPACITY);
    const w = Math.min(side, fitted.info.width);
    const h = Math.min(side, fitted.info.height);
    const turned = await this.sharp(pixels, { raw: fitted.info })
      .resize(w, h, { fit: 'inside' })
      .png()
      .toBuffer({ resolveWithObject: true });
    const left = Math.floor((side - turned.info.width) / 2);
    const top = Math.floor((side - turned.info.height) / 2);
    return this.sharp(turned.data)
      .extend({
        left,
        top,
        right: side - turned.info.width - left,
        bottom: side - turned.info.height - top,
        background: transparent,
      })
      .png()
      .toBuffer();
  }

  /**
   * The tile with a second copy shifted by half a tile (its quarters in the corners): tiled, the
   * marks form a staggered grid instead of plain rows and columns.
   */
  private async staggeredTile(tile: Buffer, side: number): Promise<Buffer> {
    const canvas = (size: number) =>
      sharp({
        create: {
          width: size,
          height: size,
          channels: 4,
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        },
      });
    const four = await canvas(side * 2)
      .composite([{ input: tile, tile: true, gravity: 'northwest' }])
      .png()
      .toBuffer();
    const half = Math.floor(side / 2);
    const shifted = await this.sharp(four)
      .extract({ left: half, top: half, width: side, height: side })
      .png()
      .toBuffer();
    return canvas(side)
      .composite([{ input: tile }, { input: shifted }])
      .png()
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

  /**
   * The picture resized to `width`×`height` (a guest's photo fitted to the event's box,
   * services/photos/guest-upload-rules.ts): orientation applied, the same format (JPEG at the
   * preview quality), metadata stripped (a guest's location stays theirs).
   */
  async fitTo(input: Buffer, width: number, height: number): Promise<Buffer> {
    const image = this.open(input).rotate().resize(width, height, { fit: 'fill' });
    const meta = await this.sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
    return meta.format === 'png'
      ? image.png().toBuffer()
      : image.jpeg({ quality: PREVIEW_QUALITY, mozjpeg: true }).withExif(CLEAN_EXIF).toBuffer();
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
