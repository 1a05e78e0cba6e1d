import sharp from 'sharp';

/** A rectangle on the sheet in fractions of its width and height (0..1). */
export interface Placeholder {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A sheet: its size in inches, the printer's resolution and where photos go. */
export interface SheetLayout {
  widthInches: number;
  heightInches: number;
  dpi: number;
  placeholders: Placeholder[];
}

/**
 * The embedded default sheet: 6×4 inches (a 4×6 print, landscape) at 300 dpi = 1800×1200 pixels,
 * with `count` placeholders in a grid (1: the whole sheet; 2: side by side; 4: two by two …).
 */
export const defaultLayout = (count: number, dpi = 300): SheetLayout => {
  const n = Math.max(1, Math.floor(count));
  const cols = n <= 3 ? n : Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const placeholders: Placeholder[] = [];
  for (let i = 0; i < n; i++)
    placeholders.push({
      x: (i % cols) / cols,
      y: Math.floor(i / cols) / rows,
      width: 1 / cols,
      height: 1 / rows,
    });
  return { widthInches: 6, heightInches: 4, dpi, placeholders };
};

export const sheetPixels = (layout: SheetLayout) => ({
  width: Math.round(layout.widthInches * layout.dpi),
  height: Math.round(layout.heightInches * layout.dpi),
});

/** A placeholder's pixel box; neighbours share edges exactly (no gaps from rounding). */
const box = (p: Placeholder, sheet: { width: number; height: number }) => {
  const left = Math.round(p.x * sheet.width);
  const top = Math.round(p.y * sheet.height);
  const right = Math.min(sheet.width, Math.round((p.x + p.width) * sheet.width));
  const bottom = Math.min(sheet.height, Math.round((p.y + p.height) * sheet.height));
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
};

/**
 * Composes one sheet with sharp: each photo cropped to fill its placeholder (centre crop, EXIF
 * orientation applied), on white, as a JPEG carrying JFIF with the sheet's DPI (CUPS's
 * imagetopdf refuses JPEGs without an APP marker, and reads the page size from the density) and
 * the sRGB profile. Photos beyond the placeholders are ignored; empty placeholders stay white.
 */
export const renderSheet = async (photos: Buffer[], layout: SheetLayout): Promise<Buffer> => {
  const sheet = sheetPixels(layout);
  const layers = await Promise.all(
    layout.placeholders.slice(0, photos.length).map(async (p, i) => {
      const b = box(p, sheet);
      const input = await sharp(photos[i])
        .rotate()
        .resize(b.width, b.height, { fit: 'cover', position: 'centre' })
        .toColourspace('srgb')
        .png()
        .toBuffer();
      return { input, left: b.left, top: b.top };
    }),
  );
  return sharp({
    create: { width: sheet.width, height: sheet.height, channels: 3, background: '#ffffff' },
  })
    .composite(layers)
    .withMetadata({ density: layout.dpi, icc: 'srgb' })
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
    .toBuffer();
};
