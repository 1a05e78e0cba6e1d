import { PREVIEW_QUALITY } from '@flashbulb/shared';
import {
  cssFilter,
  outputSize,
  rotationTransform,
  type AspectPreset,
  type Rect,
  type Rotation,
  type Size,
} from './edit-geometry.ts';

/** One state of an edit; the crop is in the turned picture's full-resolution pixels. */
export interface EditState {
  readonly rotation: Rotation;
  readonly crop: Rect;
  readonly aspect: AspectPreset;
  readonly brightness: number;
  readonly contrast: number;
}

/** Draw `image` (natural size `size`) turned, cropped and adjusted into `canvas`, at full size. */
export const renderEdit = (
  canvas: HTMLCanvasElement,
  image: CanvasImageSource,
  size: Size,
  state: EditState,
): void => {
  const out = outputSize(state.crop);
  canvas.width = out.width;
  canvas.height = out.height;
  const context = canvas.getContext('2d');
  if (!context) return;
  const { dx, dy, radians } = rotationTransform(size, state.rotation);
  context.save();
  context.filter = cssFilter(state.brightness, state.contrast);
  context.translate(-state.crop.x, -state.crop.y);
  context.translate(dx, dy);
  context.rotate(radians);
  context.drawImage(image, 0, 0, size.width, size.height);
  context.restore();
};

/** The canvas as a JPEG at quality 0.9. */
export const toJpeg = (canvas: HTMLCanvasElement): Promise<Blob> =>
  new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('JPEG encoding failed'))),
      'image/jpeg',
      PREVIEW_QUALITY / 100,
    ),
  );
