/**
 * The event's print header and footer in a template's text slots, on plain values (no app, no
 * database). The printed sheet itself: templates.test.ts ("printing with a template").
 */
import { defaultTemplateLayout, type TemplateLayout } from '@flashbulb/shared';
import { describe, expect, it } from 'vitest';
import { fillTextSlots } from '../../src/services/printing/sheet-texts.ts';

const at = { x: 0.05, size: 0.05, color: '#000000' };
const layout = (): TemplateLayout => ({
  ...defaultTemplateLayout(),
  texts: [
    { ...at, y: 0.08, text: 'Sample header', slot: 'header' },
    { ...at, y: 0.5, text: 'Always printed' },
    { ...at, y: 0.95, text: '', slot: 'footer' },
  ],
});

describe('text slots of a print template', () => {
  it('the event’s header and footer messages fill their slots; other texts stay as written', () => {
    const filled = fillTextSlots(layout(), {
      printHeaderMessage: '  Gala <2026> & Co  ',
      printFooterMessage: 'Thank you!',
    });
    expect(filled.texts.map((t) => t.text)).toEqual([
      'Gala <2026> & Co',
      'Always printed',
      'Thank you!',
    ]);
  });

  it('an event without a message prints the template’s own text of the slot', () => {
    const filled = fillTextSlots(layout(), { printHeaderMessage: ' ', printFooterMessage: '' });
    expect(filled.texts.map((t) => t.text)).toEqual(['Sample header', 'Always printed', '']);
    expect(fillTextSlots(layout(), {}).texts.map((t) => t.text)).toEqual([
      'Sample header',
      'Always printed',
      '',
    ]);
  });

  it('leaves the layout it was given unchanged', () => {
    const given = layout();
    fillTextSlots(given, { printHeaderMessage: 'New', printFooterMessage: 'New' });
    expect(given).toEqual(layout());
  });
});
