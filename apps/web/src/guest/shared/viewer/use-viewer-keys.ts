import { isRightToLeft } from '../utils/direction.ts';
import { useEffect, type KeyboardEvent, type RefObject } from 'react';

const FOCUSABLE =
  'button:not([disabled]), a[href], video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * The viewer as a modal dialog: focus moves to its close button and the page stops scrolling
 * while it is open; both come back when it closes.
 */
export function useModalFocus(closeRef: RefObject<HTMLButtonElement | null>) {
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      previous?.focus();
    };
  }, [closeRef]);
}

/**
 * The viewer's keys: Esc closes the open panel (else the viewer), the arrows move, and Tab keeps
 * focus inside the dialog.
 */
export function useViewerKeys({
  dialogRef,
  index,
  go,
  panelOpen,
  closePanel,
  onClose,
}: {
  dialogRef: RefObject<HTMLDivElement | null>;
  index: number;
  go: (to: number) => void;
  panelOpen: boolean;
  closePanel: () => void;
  onClose: () => void;
}) {
  return (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      if (panelOpen) closePanel();
      else onClose();
    } else if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      // The arrow towards the reading direction's end goes on (left, right to left).
      event.preventDefault();
      const forward = (event.key === 'ArrowRight') !== isRightToLeft();
      go(index + (forward ? 1 : -1));
    } else if (event.key === 'Tab') {
      // Keep focus inside the dialog.
      const focusable = Array.from(
        dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [],
      );
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  };
}
