import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultTemplateLayout, type PptDetail, type TemplateLayout } from '@flashbulb/shared';
import { installConsoleApi, OWNER } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

/**
 * The template editor: `templates/?tid={id}[&watermark=1]`, placeholders dragged
 * and resized on the sheet, a 2-placeholder 4×6 made and saved; `&mode=preview` shows the sheet.
 */

const CREATE = `${OWNER}/ppt/create`;
const UPDATE = `${OWNER}/ppt/update`;
const RETRIEVE = `${OWNER}/ppt/retrieve`;

const detail = (layout: TemplateLayout, overrides: Partial<PptDetail> = {}): PptDetail => ({
  id: 41,
  name: 'Two up',
  organisation_id: 3,
  organisation_name: 'Acme Events',
  placeholder_counts: layout.placeholders.length,
  is_public: false,
  created_date: '2026-11-23T10:00:00.000Z',
  updated_date: '2026-11-23T10:00:00.000Z',
  is_watermark: false,
  layout,
  image_urls: { background_image: null, overlay_image: null },
  ...overrides,
});

const bodyOf = (call: { body: unknown } | undefined) =>
  call?.body as { name: string; layout: TemplateLayout; is_watermark?: boolean; id?: number };

/** A console whose create answers the template it was sent, and whose retrieve answers that one. */
const installCreatingApi = () => {
  const api = installConsoleApi({
    routes: {
      [CREATE]: (body: unknown): FakeReply => ({
        ok: detail((body as { layout: TemplateLayout }).layout),
      }),
      [RETRIEVE]: (body: unknown): FakeReply => ({
        ok: detail(bodyOf(api.callsTo(CREATE)[0])?.layout ?? defaultTemplateLayout(), {
          id: (body as { id: number }).id,
        }),
      }),
    },
  });
  return api;
};

/** The sheet is 600 × 400 px on screen (jsdom lays nothing out). */
const sizeSheet = () => {
  const sheet = screen.getByTestId('template-sheet');
  sheet.getBoundingClientRect = () =>
    ({ width: 600, height: 400, left: 0, top: 0, right: 600, bottom: 400 }) as DOMRect;
};
const drag = (element: HTMLElement, dx: number, dy: number) => {
  fireEvent.pointerDown(element, { clientX: 100, clientY: 100, pointerId: 1 });
  fireEvent.pointerMove(element, { clientX: 100 + dx, clientY: 100 + dy, pointerId: 1 });
  fireEvent.pointerUp(element, { clientX: 100 + dx, clientY: 100 + dy, pointerId: 1 });
};

describe('template editor', { timeout: 40_000 }, () => {
  beforeEach(() => {
    HTMLElement.prototype.setPointerCapture = vi.fn();
    HTMLElement.prototype.releasePointerCapture = vi.fn();
  });
  afterEach(() => vi.restoreAllMocks());

  it('makes a 2-placeholder 4×6 print template: split, drag, resize, save', async () => {
    const api = installCreatingApi();
    renderApp('/templates/');
    expect(await screen.findByRole('heading', { name: /print template/i })).toBeTruthy();
    // a 4×6 at 300 dpi
    expect(screen.getByTestId('sheet-pixels').textContent).toBe('Printed at 1800 × 1200 pixels');
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Two up');
    await userEvent.click(screen.getByRole('button', { name: '2 side by side' }));
    expect(screen.getByText('Placeholders (2)')).toBeTruthy();
    expect(screen.getByTestId('placeholder-2')).toBeTruthy();
    sizeSheet();
    // placeholder 1 moved 60 px right (a tenth of the sheet) and 20 px down (5 %)
    drag(screen.getByTestId('placeholder-1'), 60, 20);
    // placeholder 2 made 30 px narrower (5 %)
    drag(screen.getByTestId('resize-2'), -30, 0);
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    // The page opens the new template (its tid in the address) and still says it was saved.
    expect(await screen.findByRole('heading', { name: 'Edit template' })).toBeTruthy();
    expect(screen.getByText('Template saved.')).toBeTruthy();
    const sent = bodyOf(api.callsTo(CREATE)[0]);
    expect(sent).toMatchObject({ name: 'Two up', is_watermark: false });
    expect(sent.layout).toMatchObject({ width: 6, height: 4, unit: 'in', dpi: 300 });
    expect(sent.layout.placeholders).toHaveLength(2);
    const [one, two] = sent.layout.placeholders;
    expect(one!.x).toBeCloseTo(0.11, 3);
    // 0.04 + 0.05 would push its bottom off the sheet: kept inside (1 − 0.92)
    expect(one!.y).toBeCloseTo(0.08, 3);
    expect(one!.width).toBeCloseTo(0.48, 3);
    expect(two!.x).toBeCloseTo(0.51, 3);
    expect(two!.width).toBeCloseTo(0.43, 3);
    expect(two!.height).toBeCloseTo(0.92, 3);
  });

  it('a text can be the event’s print header slot: left empty, the sheet shows what fills it', async () => {
    const api = installConsoleApi({
      routes: {
        [CREATE]: (body: unknown): FakeReply => ({
          ok: detail((body as { layout: TemplateLayout }).layout),
        }),
        [RETRIEVE]: { ok: detail(defaultTemplateLayout()) },
      },
    });
    renderApp('/templates/');
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Header');
    await userEvent.click(screen.getByRole('button', { name: 'Add text' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Printed text' }), 'header');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Text 1' }));
    expect(screen.getByTestId('template-sheet').textContent).toContain('[Print header]');
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(api.callsTo(CREATE)).toHaveLength(1));
    expect(bodyOf(api.callsTo(CREATE)[0]).layout.texts).toEqual([
      expect.objectContaining({ slot: 'header', text: '' }),
    ]);
  });

  it('opens a stored template by tid, saves changes with update; watermark=1 makes a watermark', async () => {
    const stored = detail({
      ...defaultTemplateLayout(),
      placeholders: [
        { x: 0, y: 0, width: 0.5, height: 1, rotation: 0 },
        { x: 0.5, y: 0, width: 0.5, height: 1, rotation: 0 },
      ],
    });
    const api = installConsoleApi({
      routes: {
        [RETRIEVE]: { ok: stored },
        [UPDATE]: (body: unknown): FakeReply => ({
          ok: { ...stored, ...(body as { name: string; layout: TemplateLayout }) },
        }),
        [CREATE]: (body: unknown): FakeReply => ({
          ok: detail((body as { layout: TemplateLayout }).layout, { id: 42, is_watermark: true }),
        }),
      },
    });
    const first = renderApp('/templates/?tid=41');
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect((name as HTMLInputElement).value).toBe('Two up');
    expect(screen.getByText('Placeholders (2)')).toBeTruthy();
    expect(api.callsTo(RETRIEVE)[0]?.body).toEqual({ id: 41 });
    // one placeholder removed (the selected first one)
    await userEvent.click(screen.getByRole('button', { name: 'Remove #1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    const sent = bodyOf(api.callsTo(UPDATE)[0]);
    expect(sent.id).toBe(41);
    expect(sent.layout.placeholders).toEqual([
      { x: 0.5, y: 0, width: 0.5, height: 1, rotation: 0 },
    ]);
    expect(api.callsTo(CREATE)).toHaveLength(0);
    first.unmount();

    renderApp('/templates/?watermark=1');
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Logo');
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(api.callsTo(CREATE)).toHaveLength(1));
    expect(bodyOf(api.callsTo(CREATE)[0])).toMatchObject({ name: 'Logo', is_watermark: true });
  });

  it('typed sizes change the sheet and the placeholder; an emptied field leaves them as they were', async () => {
    const api = installCreatingApi();
    renderApp('/templates/');
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Typed');
    const pixels = screen.getByTestId('sheet-pixels');
    expect(pixels.textContent).toBe('Printed at 1800 × 1200 pixels');
    const width = screen.getByRole('textbox', { name: 'Width' });
    // Emptied while typing: no number, so the sheet keeps its width.
    await userEvent.clear(width);
    expect(pixels.textContent).toBe('Printed at 1800 × 1200 pixels');
    await userEvent.type(width, '5');
    expect(pixels.textContent).toBe('Printed at 1500 × 1200 pixels');
    const dpi = screen.getByRole('textbox', { name: 'DPI' });
    await userEvent.clear(dpi);
    await userEvent.type(dpi, '150');
    expect(pixels.textContent).toBe('Printed at 750 × 600 pixels');
    // The selected placeholder's X in percent, and its rotation in degrees.
    await userEvent.click(screen.getByRole('button', { name: '2 side by side' }));
    await userEvent.click(screen.getByTestId('placeholder-2'));
    const x = screen.getByRole('textbox', { name: 'X' });
    await userEvent.clear(x);
    await userEvent.type(x, '55');
    const rotation = screen.getByRole('textbox', { name: 'Turn' });
    await userEvent.clear(rotation);
    await userEvent.type(rotation, '90');
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(api.callsTo(CREATE)).toHaveLength(1));
    const sent = bodyOf(api.callsTo(CREATE)[0]).layout;
    expect(sent).toMatchObject({ width: 5, height: 4, dpi: 150 });
    expect(sent.placeholders[1]!.x).toBeCloseTo(0.55, 3);
    expect(sent.placeholders[1]!.rotation).toBe(90);
  });

  it('preview mode shows the sheet and its size, without editing controls', async () => {
    installConsoleApi({
      routes: {
        [RETRIEVE]: {
          ok: detail({
            ...defaultTemplateLayout(),
            width: 2,
            height: 6,
            placeholders: [
              { x: 0, y: 0, width: 1, height: 0.33, rotation: 0 },
              { x: 0, y: 0.33, width: 1, height: 0.33, rotation: 0 },
              { x: 0, y: 0.66, width: 1, height: 0.34, rotation: 0 },
            ],
          }),
        },
      },
    });
    renderApp('/templates/?tid=41&mode=preview');
    expect(await screen.findByRole('heading', { name: 'Template preview: Two up' })).toBeTruthy();
    expect(
      screen.getByText(/2 × 6 in at 300 dpi \(600 × 1800 pixels\), 3 placeholder/),
    ).toBeTruthy();
    expect(screen.getAllByTestId(/^placeholder-/)).toHaveLength(3);
    expect(screen.queryByTestId('resize-1')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save template' })).toBeNull();
  });
});
