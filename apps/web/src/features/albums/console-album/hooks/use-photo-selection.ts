import { useCallback, useMemo, useState } from 'react';

interface SelectionState {
  readonly selected: ReadonlySet<number>;
  /** Where a shift-click range starts: the last photo clicked without shift. */
  readonly anchor: number | null;
}

const EMPTY: SelectionState = { selected: new Set(), anchor: null };

/** Ids from the anchor to `id` (inclusive) in list order; just `id` without a usable anchor. */
export const rangeBetween = (
  order: readonly number[],
  anchor: number | null,
  id: number,
): number[] => {
  const to = order.indexOf(id);
  const from = anchor === null ? -1 : order.indexOf(anchor);
  if (to < 0) return [];
  if (from < 0) return [id];
  return order.slice(Math.min(from, to), Math.max(from, to) + 1);
};

/**
 * Multi-select over the loaded photos, file-manager style: toggle one (click on its box, or
 * Ctrl/Cmd-click), shift for a range from the last toggled photo, select all loaded, clear.
 * Ids no longer loaded (deleted, filtered away) drop out of the selection.
 */
export const usePhotoSelection = (order: readonly number[]) => {
  const [state, setState] = useState<SelectionState>(EMPTY);

  const selected = useMemo(() => {
    const present = new Set(order);
    return new Set([...state.selected].filter((id) => present.has(id)));
  }, [order, state.selected]);

  const toggle = useCallback((id: number) => {
    setState((current) => {
      const next = new Set(current.selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return { selected: next, anchor: id };
    });
  }, []);

  const selectRange = useCallback(
    (id: number) => {
      setState((current) => ({
        selected: new Set([...current.selected, ...rangeBetween(order, current.anchor, id)]),
        anchor: current.anchor ?? id,
      }));
    },
    [order],
  );

  const selectAll = useCallback(() => {
    setState({ selected: new Set(order), anchor: null });
  }, [order]);

  const clear = useCallback(() => setState(EMPTY), []);

  return { selected, toggle, selectRange, selectAll, clear };
};
