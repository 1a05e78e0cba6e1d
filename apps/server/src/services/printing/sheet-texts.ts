import type { TemplateLayout, TemplateTextSlot } from '@flashbulb/shared';

/** The event's printing texts a sheet reads (its `opts`). */
export interface SheetTexts {
  printHeaderMessage?: string;
  printFooterMessage?: string;
}

/**
 * A print template's layout with its text slots filled by the printing event: a `header` slot
 * prints the event's print header message, a `footer` slot its footer message; an event without
 * one (blank) prints the template's own text there. Texts without a slot stay as written. The
 * renderer escapes every text into its SVG layer.
 */
export const fillTextSlots = (layout: TemplateLayout, texts: SheetTexts): TemplateLayout => {
  const message: Record<TemplateTextSlot, string> = {
    header: (texts.printHeaderMessage ?? '').trim(),
    footer: (texts.printFooterMessage ?? '').trim(),
  };
  return {
    ...layout,
    texts: layout.texts.map((text) =>
      text.slot && message[text.slot] ? { ...text, text: message[text.slot] } : text,
    ),
  };
};
