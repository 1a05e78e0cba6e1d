import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

/**
 * A Y4M video of one picture, for Chromium's fake camera (`--use-file-for-fake-video-capture`):
 * the picture letterboxed into `width`×`height`, as raw I420 frames (BT.601, full range — the
 * `C420jpeg` colour space). Chromium loops the file; a few identical frames are enough.
 */
export const writeY4m = async (
  picture: Buffer,
  file: string,
  { width = 640, height = 480, frames = 3 } = {},
): Promise<string> => {
  const { data } = await sharp(picture)
    .rotate()
    .resize(width, height, { fit: 'contain', background: { r: 40, g: 40, b: 40 } })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  const clamp = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 3;
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      y[row * width + col] = clamp(0.299 * r + 0.587 * g + 0.114 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const c = (row / 2) * (width / 2) + col / 2;
        u[c] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
        v[c] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
      }
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  await writeFile(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
  return file;
};

/** Chromium switches for a fake camera showing `y4m`, its permission prompt accepted. */
export const fakeCameraArgs = (y4m: string): string[] => [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  `--use-file-for-fake-video-capture=${path.resolve(y4m)}`,
];
