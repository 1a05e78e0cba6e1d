import { useState } from 'react';
import type { TemplateLayout, TemplatePlaceholder } from '@flashbulb/shared';
import { newPlaceholder } from '../utils/template-geometry.ts';

/**
 * The sheet layout being edited and the selected placeholder: change the sheet, move or resize a
 * placeholder, add one (selected at once), remove the selected one (never the last), or split the
 * sheet evenly.
 */
export function useTemplateLayout(initial: TemplateLayout) {
  const [layout, setLayout] = useState<TemplateLayout>(initial);
  const [selected, setSelected] = useState<number>(0);
  const current = layout.placeholders[selected] ?? null;

  const change = (patch: Partial<TemplateLayout>) => setLayout((l) => ({ ...l, ...patch }));
  const setPlaceholder = (index: number, p: TemplatePlaceholder) =>
    setLayout((l) => ({
      ...l,
      placeholders: l.placeholders.map((old, i) => (i === index ? p : old)),
    }));
  const addPlaceholder = () => {
    setLayout((l) => ({
      ...l,
      placeholders: [...l.placeholders, newPlaceholder(l.placeholders.length)],
    }));
    setSelected(layout.placeholders.length);
  };
  const removePlaceholder = () => {
    if (layout.placeholders.length <= 1) return;
    setLayout((l) => ({ ...l, placeholders: l.placeholders.filter((_, i) => i !== selected) }));
    setSelected(0);
  };
  const splitEvenly = (count: number) => {
    const columns = count;
    change({
      placeholders: Array.from({ length: count }, (_, i) => ({
        x: Math.round((i / columns + 0.02 / columns) * 10_000) / 10_000,
        y: 0.04,
        width: Math.round((0.96 / columns) * 10_000) / 10_000,
        height: 0.92,
        rotation: 0,
      })),
    });
    setSelected(0);
  };

  return {
    layout,
    selected,
    setSelected,
    current,
    change,
    setPlaceholder,
    addPlaceholder,
    removePlaceholder,
    splitEvenly,
  };
}

export type TemplateLayoutEditing = ReturnType<typeof useTemplateLayout>;
