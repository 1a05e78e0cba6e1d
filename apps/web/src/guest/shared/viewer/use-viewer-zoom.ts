import { useState } from 'react';

/** Pinch zoom bounds; a double tap toggles between 1 and DOUBLE_TAP_SCALE. */
export const ZOOM = { min: 1, max: 4, doubleTap: 2.5 };

export interface Zoom {
  readonly scale: number;
  readonly x: number;
  readonly y: number;
}
export const NO_ZOOM: Zoom = { scale: 1, x: 0, y: 0 };

/**
 * The zoom of the photo at `index`: keyed by its index, it resets when the viewer moves on.
 * `toggle` is the double tap (or double click): fit ↔ DOUBLE_TAP_SCALE.
 */
export function useViewerZoom(index: number) {
  const [zoomAt, setZoomAt] = useState<{ index: number; zoom: Zoom } | null>(null);
  const zoom = zoomAt?.index === index ? zoomAt.zoom : NO_ZOOM;
  const setZoom = (next: Zoom) => setZoomAt({ index, zoom: next });
  const zoomed = zoom.scale > 1;
  const toggle = () => setZoom(zoomed ? NO_ZOOM : { scale: ZOOM.doubleTap, x: 0, y: 0 });
  return { zoom, zoomed, setZoom, toggle };
}

export type ViewerZoom = ReturnType<typeof useViewerZoom>;
