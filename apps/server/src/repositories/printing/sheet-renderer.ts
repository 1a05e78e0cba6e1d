import {
  layoutInches,
  layoutPixels,
  type TemplateLayout,
  type TemplatePlaceholder,
  type TemplateText,
} from '@flashbulb/shared';
import sharp, { type OverlayOptions } from 'sharp';
import { escapeHtml } from '../../lib/escape-html.ts';

/** A sheet: a print template's layout (size, DPI, placeholders in fractions, images, texts). */
export type SheetLayout = TemplateLayout;

/** The images a template names, already read from storage (null: none or unreadable). */
export interface SheetImages {
  background?: Buffer | null;
  overlay?: Buffer | null;
}

/** The image engine of print sheets as the printing services see it (sharp behind it). */
export interface SheetRenderer {
  render(photos: Buffer[], layout: SheetLayout, images?: SheetImages): Promise<Buffer>;
}

/**
 * The embedded default sheet: 6×4 inches (a 4×6 print, landscape) at `dpi` (300: 1800×1200
 * pixels), with `count` placeholders in a grid (1: the whole sheet; 2: side by side; 4: two by
 * two …). Used when the event has no print template.
 */
export const gridLayout = (count: number, dpi = 300): SheetLayout => {
  const n = Math.max(1, Math.floor(count));
  const cols = n <= 3 ? n : Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const placeholders: TemplatePlaceholder[] = [];
  for (let i = 0; i < n; i++)
    placeholders.push({
      x: (i % cols) / cols,
      y: Math.floor(i / cols) / rows,
      width: 1 / cols,
      height: 1 / rows,
      rotation: 0,
    });
  return {
    width: 6,
    height: 4,
    unit: 'in',
    dpi,
    placeholders,
    background_image: null,
    overlay_image: null,
    texts: [],
  };
};

export const sheetPixels = (layout: SheetLayout) => layoutPixels(layout);

/** A placeholder's pixel box; neighbours share edges exactly (no gaps from rounding). */
export const placeholderBox = (
  p: TemplatePlaceholder,
  sheet: { width: number; height: number },
) => {
  const left = Math.round(p.x * sheet.width);
  const top = Math.round(p.y * sheet.height);
  const right = Math.min(sheet.width, Math.round((p.x + p.width) * sheet.width));
  const bottom = Math.min(sheet.height, Math.round((p.y + p.height) * sheet.height));
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
};

/**
 * Places `image` with its top-left corner at (left, top), clipping whatever falls outside the
 * sheet (sharp refuses overlays that overflow the base image).
 */
const clipped = async (
  image: Buffer,
  size: { width: number; height: number },
  left: number,
  top: number,
  sheet: { width: number; height: number },
): Promise<OverlayOptions | null> => {
  const x0 = Math.max(0, left);
  const y0 = Math.max(0, top);
  const x1 = Math.min(sheet.width, left + size.width);
  const y1 = Math.min(sheet.height, top + size.height);
  if (x1 <= x0 || y1 <= y0) return null;
  if (x0 === left && y0 === top && x1 - x0 === size.width && y1 - y0 === size.height)
    return { input: image, left, top };
  const input = await sharp(image)
    .extract({ left: x0 - left, top: y0 - top, width: x1 - x0, height: y1 - y0 })
    .png()
    .toBuffer();
  return { input, left: x0, top: y0 };
};

/** One photo cropped to fill its placeholder (EXIF orientation applied), turned by its rotation. */
const placePhoto = async (
  photo: Buffer,
  p: TemplatePlaceholder,
  sheet: { width: number; height: number },
): Promise<OverlayOptions | null> => {
  const b = placeholderBox(p, sheet);
  const filled = sharp(photo)
    .rotate()
    .resize(b.width, b.height, { fit: 'cover', position: 'centre' })
    .toColourspace('srgb');
  const angle = ((p.rotation % 360) + 360) % 360;
  if (angle === 0) return { input: await filled.png().toBuffer(), left: b.left, top: b.top };
  // Turned around the placeholder's centre; the corners outside the photo stay transparent.
  const turned = await sharp(await filled.png().toBuffer())
    .rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const cx = b.left + b.width / 2;
  const cy = b.top + b.height / 2;
  return clipped(
    turned.data,
    turned.info,
    Math.round(cx - turned.info.width / 2),
    Math.round(cy - turned.info.height / 2),
    sheet,
  );
};

/** A template image stretched to cover the whole sheet (centre crop when its shape differs). */
const fullSheet = async (image: Buffer, sheet: { width: number; height: number }) => ({
  input: await sharp(image)
    .rotate()
    .resize(sheet.width, sheet.height, { fit: 'cover', position: 'centre' })
    .ensureAlpha()
    .png()
    .toBuffer(),
  left: 0,
  top: 0,
});

/**
 * Text fields as one SVG layer: left edge at x, baseline at y, size a fraction of the height; a
 * text of several lines (an event's print header or footer message) goes down line by line.
 */
const textLayer = (texts: TemplateText[], sheet: { width: number; height: number }) => {
  const items = texts
    .filter((t) => t.text.trim() !== '')
    .map((t) => {
      const x = Math.round(t.x * sheet.width);
      const size = Math.max(1, Math.round(t.size * sheet.height));
      const lines = t.text
        .split(/\r?\n/)
        .map(
          (line, i) =>
            `<tspan x="${x}" dy="${i === 0 ? 0 : Math.round(size * 1.2)}">${escapeHtml(line)}</tspan>`,
        )
        .join('');
      return `<text x="${x}" y="${Math.round(t.y * sheet.height)}" font-size="${size}" fill="${t.color}" font-family="DejaVu Sans, Liberation Sans, sans-serif">${lines}</text>`;
    });
  if (!items.length) return null;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${sheet.width}" height="${sheet.height}">${items.join('')}</svg>`;
  return { input: Buffer.from(svg), left: 0, top: 0 };
};

/**
 * Composes one sheet with sharp, bottom to top: white, the background image, each photo cropped
 * to fill its placeholder (turned by its rotation), the overlay image (a frame with transparent
 * windows), the text fields. Written as a JPEG carrying JFIF with the sheet's DPI (CUPS's
 * imagetopdf refuses JPEGs without an APP marker, and reads the page size from the density) and
 * the sRGB profile. Photos beyond the placeholders are ignored; empty placeholders stay blank.
 */
export const renderSheet = async (
  photos: Buffer[],
  layout: SheetLayout,
  images: SheetImages = {},
): Promise<Buffer> => {
  const sheet = sheetPixels(layout);
  const layers: OverlayOptions[] = [];
  if (images.background) layers.push(await fullSheet(images.background, sheet));
  const placed = await Promise.all(
    layout.placeholders.slice(0, photos.length).map((p, i) => placePhoto(photos[i]!, p, sheet)),
  );
  for (const layer of placed) if (layer) layers.push(layer);
  if (images.overlay) layers.push(await fullSheet(images.overlay, sheet));
  const text = textLayer(layout.texts, sheet);
  if (text) layers.push(text);
  return sharp({
    create: { width: sheet.width, height: sheet.height, channels: 3, background: '#ffffff' },
  })
    .composite(layers)
    .withMetadata({ density: layout.dpi, icc: 'srgb' })
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
    .toBuffer();
};

/** The sharp renderer: `renderSheet` behind the printing services' interface. */
export const sharpSheetRenderer: SheetRenderer = { render: renderSheet };

/**
 * The same layout at a resolution whose longer side is `longSide` pixels: how a watermark
 * template is applied to a preview of that size.
 */
export const layoutAtLongSide = (layout: SheetLayout, longSide: number): SheetLayout => {
  const { width, height } = layoutInches(layout);
  const inchesLong = Math.max(width, height);
  return { ...layout, dpi: longSide / inchesLong };
};
