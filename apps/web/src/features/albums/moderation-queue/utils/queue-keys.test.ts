import { describe, expect, it } from 'vitest';
import { queueKeyAction } from './queue-keys.ts';

describe('the moderation queue’s keys', () => {
  it('A approves, R rejects, Space selects, Ctrl/⌘+A selects all', () => {
    expect(queueKeyAction({ key: 'a' }, 0, 3, 2)).toEqual({ kind: 'approve' });
    expect(queueKeyAction({ key: 'A' }, 0, 3, 2)).toEqual({ kind: 'approve' });
    expect(queueKeyAction({ key: 'r' }, 0, 3, 2)).toEqual({ kind: 'reject' });
    expect(queueKeyAction({ key: ' ' }, 0, 3, 2)).toEqual({ kind: 'toggle' });
    expect(queueKeyAction({ key: 'a', ctrlKey: true }, 0, 3, 2)).toEqual({ kind: 'selectAll' });
    expect(queueKeyAction({ key: 'a', metaKey: true }, 0, 3, 2)).toEqual({ kind: 'selectAll' });
  });

  it('arrows move within the grid, up and down by a row, never past its ends', () => {
    expect(queueKeyAction({ key: 'ArrowRight' }, 0, 5, 2)).toEqual({ kind: 'move', to: 1 });
    expect(queueKeyAction({ key: 'ArrowRight' }, 4, 5, 2)).toEqual({ kind: 'move', to: 4 });
    expect(queueKeyAction({ key: 'ArrowLeft' }, 0, 5, 2)).toEqual({ kind: 'move', to: 0 });
    expect(queueKeyAction({ key: 'ArrowDown' }, 1, 5, 2)).toEqual({ kind: 'move', to: 3 });
    expect(queueKeyAction({ key: 'ArrowDown' }, 3, 5, 2)).toEqual({ kind: 'move', to: 4 });
    expect(queueKeyAction({ key: 'ArrowUp' }, 3, 5, 2)).toEqual({ kind: 'move', to: 1 });
    expect(queueKeyAction({ key: 'End' }, 0, 5, 2)).toEqual({ kind: 'move', to: 4 });
    expect(queueKeyAction({ key: 'Home' }, 4, 5, 2)).toEqual({ kind: 'move', to: 0 });
  });

  it('ignores other keys, modified keys (the browser’s own shortcuts) and an empty queue', () => {
    expect(queueKeyAction({ key: 'x' }, 0, 3, 2)).toBeNull();
    expect(queueKeyAction({ key: 'r', ctrlKey: true }, 0, 3, 2)).toBeNull();
    expect(queueKeyAction({ key: 'a', altKey: true }, 0, 3, 2)).toBeNull();
    expect(queueKeyAction({ key: 'a' }, 0, 0, 2)).toBeNull();
  });
});
