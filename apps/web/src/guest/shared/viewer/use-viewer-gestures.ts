import { isRightToLeft } from '../utils/direction.ts';
import { useRef, type TouchEvent } from 'react';
import { classifyTouch, isDoubleTap } from '../utils/gestures.ts';
import { ZOOM, type ViewerZoom } from './use-viewer-zoom.ts';

const distance = (touches: TouchEvent['touches']) => {
  const a = touches[0];
  const b = touches[1];
  return a && b ? Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) : 0;
};

/**
 * Touch on the viewer's stage: a horizontal swipe moves, a vertical one closes (§9 bounds), two
 * fingers pinch, one finger pans a zoomed photo, and a double tap toggles the zoom. A pinch or a
 * pan is never also a swipe.
 */
export function useViewerGestures({
  index,
  go,
  onClose,
  zoom: { zoom, zoomed, setZoom, toggle },
}: {
  index: number;
  go: (to: number) => void;
  onClose: () => void;
  zoom: ViewerZoom;
}) {
  const touchStart = useRef<{ x: number; y: number; time: number } | null>(null);
  const pinch = useRef<{ distance: number; scale: number } | null>(null);
  const pan = useRef<{ x: number; y: number; zoom: typeof zoom } | null>(null);
  const moved = useRef(false);
  const lastTap = useRef<number | null>(null);

  const onTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    moved.current = false;
    if (event.touches.length === 2) {
      pinch.current = { distance: distance(event.touches), scale: zoom.scale };
      touchStart.current = null;
      return;
    }
    touchStart.current =
      touch && event.touches.length === 1
        ? { x: touch.clientX, y: touch.clientY, time: Date.now() }
        : null;
    pan.current = touch && zoomed ? { x: touch.clientX, y: touch.clientY, zoom } : null;
  };
  const onTouchMove = (event: TouchEvent) => {
    if (pinch.current && event.touches.length === 2) {
      moved.current = true;
      const ratio = distance(event.touches) / (pinch.current.distance || 1);
      const scale = Math.min(ZOOM.max, Math.max(ZOOM.min, pinch.current.scale * ratio));
      setZoom({ scale, x: scale === 1 ? 0 : zoom.x, y: scale === 1 ? 0 : zoom.y });
      return;
    }
    const touch = event.touches[0];
    if (pan.current && touch) {
      moved.current = true;
      setZoom({
        scale: pan.current.zoom.scale,
        x: pan.current.zoom.x + touch.clientX - pan.current.x,
        y: pan.current.zoom.y + touch.clientY - pan.current.y,
      });
    }
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    if (event.touches.length === 0) pinch.current = null;
    touchStart.current = null;
    pan.current = null;
    // A pinch or a pan is not a swipe.
    if (!start || !touch || moved.current) return;
    const now = Date.now();
    const gesture = classifyTouch({
      startX: start.x,
      startY: start.y,
      startTime: start.time,
      endX: touch.clientX,
      endY: touch.clientY,
      endTime: now,
    });
    // Right to left, photos run the other way: a swipe towards the start goes on.
    const step = isRightToLeft() ? -1 : 1;
    if (gesture === 'close') onClose();
    else if (gesture === 'next') go(index + step);
    else if (gesture === 'previous') go(index - step);
    else if (gesture === 'tap') {
      if (isDoubleTap(lastTap.current, now)) {
        toggle();
        lastTap.current = null;
      } else lastTap.current = now;
    }
  };

  return { onTouchStart, onTouchMove, onTouchEnd };
}
