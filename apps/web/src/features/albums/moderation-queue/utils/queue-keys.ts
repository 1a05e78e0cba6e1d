/** What a key does on the moderation queue's grid. */
export type QueueKeyAction =
  | { kind: 'approve' }
  | { kind: 'reject' }
  | { kind: 'toggle' }
  | { kind: 'selectAll' }
  | { kind: 'move'; to: number };

/**
 * The queue's keyboard: A approves and R rejects the selection (or the photo in focus when
 * nothing is selected), Space selects the photo in focus, Ctrl/⌘+A selects every photo, the
 * arrows move the focus (up and down by a row of `columns`). Keys typed with Ctrl, ⌘ or Alt other
 * than Ctrl/⌘+A, and any key while no photo is shown, do nothing.
 */
export const queueKeyAction = (
  event: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean },
  focus: number,
  count: number,
  columns: number,
): QueueKeyAction | null => {
  if (count === 0) return null;
  const key = event.key;
  const modified = event.ctrlKey === true || event.metaKey === true;
  if (modified && key.toLowerCase() === 'a' && !event.altKey) return { kind: 'selectAll' };
  if (modified || event.altKey) return null;
  const clamp = (n: number) => Math.max(0, Math.min(count - 1, n));
  switch (key) {
    case 'a':
    case 'A':
      return { kind: 'approve' };
    case 'r':
    case 'R':
      return { kind: 'reject' };
    case ' ':
      return { kind: 'toggle' };
    case 'ArrowRight':
      return { kind: 'move', to: clamp(focus + 1) };
    case 'ArrowLeft':
      return { kind: 'move', to: clamp(focus - 1) };
    case 'ArrowDown':
      return { kind: 'move', to: clamp(focus + Math.max(1, columns)) };
    case 'ArrowUp':
      return { kind: 'move', to: clamp(focus - Math.max(1, columns)) };
    case 'Home':
      return { kind: 'move', to: 0 };
    case 'End':
      return { kind: 'move', to: count - 1 };
    default:
      return null;
  }
};
