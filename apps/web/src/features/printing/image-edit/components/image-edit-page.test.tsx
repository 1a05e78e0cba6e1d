import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FakeReply } from '../../../../test/fake-api.ts';
import {
  installAlbumApi,
  LIST,
  makePhoto,
  renderAlbum,
} from '../../../../test/console-album-kit.tsx';

const GRANT = '/photo/tmp-upload-access/retrieve';
const COMPLETE = '/photo/upload-complete';
const CURATION = '/photo/curation-update';
const STORAGE_URL = 'http://storage.test/upload';
const EDITOR = '/imageEdit/index.html?event=ABCD&photo=5';
const NEW_PATH = 'events/ABCD/uid_new-1_uid/edited.jpg';

/** jsdom has no canvas: a 2D context that records its calls, and toBlob that answers a JPEG. */
const installFakeCanvas = () => {
  const context = {
    filter: 'none',
    save: vi.fn(),
    restore: vi.fn(),
    translate: vi.fn(),
    rotate: vi.fn(),
    drawImage: vi.fn(),
  };
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
    context as unknown as CanvasRenderingContext2D,
  );
  const toBlob = vi
    .spyOn(HTMLCanvasElement.prototype, 'toBlob')
    .mockImplementation((callback) => callback(new Blob(['jpeg'], { type: 'image/jpeg' })));
  return { context, toBlob };
};

const installEditorApi = (extra: Record<string, FakeReply | ((body: unknown) => FakeReply)> = {}) =>
  installAlbumApi([makePhoto(4), makePhoto(5), makePhoto(6)], {
    [GRANT]: (raw): FakeReply => ({
      ok: {
        url: STORAGE_URL,
        fields: { key: `photos/7/incoming/${(raw as { file_name: string }).file_name}` },
        key: 'photos/7/incoming/new',
        max_bytes: 10_000_000,
        expires_date: '2026-12-01T00:00:00.000Z',
      },
    }),
    [STORAGE_URL]: { raw: '', status: 201 },
    [COMPLETE]: {
      ok: {
        ...makePhoto(9, { full_path: NEW_PATH, original_photo_id: null }),
        upload_result: 'uploaded',
      },
    },
    [CURATION]: { ok: makePhoto(5, { is_curated: 1 }) },
    ...extra,
  });

/** The hidden source picture "loads" at 2000×1500 (jsdom fetches no images). */
const loadPicture = async () => {
  const image = await waitFor(() => {
    const found = document.querySelector<HTMLImageElement>(
      'img[src="/storage/photos/5/preview.jpg"]',
    );
    if (!found) throw new Error('no source image yet');
    return found;
  });
  expect(image.crossOrigin).toBe('anonymous');
  Object.defineProperty(image, 'naturalWidth', { value: 2000 });
  Object.defineProperty(image, 'naturalHeight', { value: 1500 });
  fireEvent.load(image);
};

const summary = () => screen.getByTestId('image-edit-summary').textContent;

describe('image editor page', () => {
  it('loads the photo of the link through the event and its photo list', async () => {
    installFakeCanvas();
    const api = installEditorApi();
    renderAlbum(EDITOR);

    expect(await screen.findByRole('heading', { name: 'Edit photo-005.jpg' })).toBeTruthy();
    await loadPicture();
    expect(await screen.findByRole('img', { name: 'Live preview' })).toBeTruthy();
    expect(summary()).toBe('Rotated 0°, result 2000 × 1500 px');
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({ event_id: 7, get_from_tmp: 1 });
    expect(screen.getByRole('link', { name: 'Back to the album' }).getAttribute('href')).toBe(
      '/events/ABCD/album',
    );
  });

  it('opens from the album preview through its Edit link', async () => {
    installFakeCanvas();
    installEditorApi();
    const user = userEvent.setup();
    renderAlbum();
    await user.click(await screen.findByRole('button', { name: 'Preview photo-005.jpg' }));
    const dialog = await screen.findByRole('dialog', { name: 'photo-005.jpg' });
    expect(within(dialog).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(EDITOR);

    await user.click(within(dialog).getByRole('link', { name: 'Edit' }));

    expect(await screen.findByRole('heading', { name: 'Edit photo-005.jpg' })).toBeTruthy();
  });

  it('shows the catalogue text when the photo is not in the event', async () => {
    installEditorApi();
    renderAlbum('/imageEdit/index.html?event=ABCD&photo=55');
    expect(await screen.findByText('The photo could not be loaded.')).toBeTruthy();
  });

  it('rotates, crops by preset, resets the crop with Escape and undoes with Ctrl+Z', async () => {
    installFakeCanvas();
    installEditorApi();
    const user = userEvent.setup();
    renderAlbum(EDITOR);
    await loadPicture();
    await screen.findByRole('img', { name: 'Live preview' });

    await user.click(screen.getByRole('radio', { name: '1:1' }));
    expect(summary()).toBe('Rotated 0°, result 1500 × 1500 px');

    await user.keyboard('r');
    expect(summary()).toBe('Rotated 90°, result 1500 × 1500 px');

    await user.click(screen.getByRole('radio', { name: '3:2' }));
    // The turned picture is 1500 wide and 2000 high.
    expect(summary()).toBe('Rotated 90°, result 1500 × 1000 px');

    await user.keyboard('{Escape}');
    expect(summary()).toBe('Rotated 90°, result 1500 × 2000 px');

    await user.keyboard('{Control>}z{/Control}');
    expect(summary()).toBe('Rotated 90°, result 1500 × 1000 px');

    await user.click(screen.getByRole('button', { name: 'Rotate 90° (R)' }));
    expect(summary()).toBe('Rotated 180°, result 1000 × 1500 px');
  });

  it('saves a new version: grant, storage POST with the file last, complete, then curation of the original with the new path', async () => {
    const canvas = installFakeCanvas();
    const api = installEditorApi();
    const user = userEvent.setup();
    renderAlbum(EDITOR);
    await loadPicture();
    await screen.findByRole('img', { name: 'Live preview' });
    await user.click(screen.getByRole('radio', { name: '1:1' }));

    await user.click(screen.getByRole('button', { name: 'Save as new version' }));

    expect(await screen.findByText('Saved as a new version')).toBeTruthy();
    const paths = api.calls
      .map((call) => call.path)
      .filter((path) => [GRANT, STORAGE_URL, COMPLETE, CURATION].includes(path));
    expect(paths).toEqual([GRANT, STORAGE_URL, COMPLETE, CURATION]);
    const grant = api.callsTo(GRANT)[0]?.body as Record<string, unknown>;
    expect(grant).toMatchObject({ event_name: 'ABCD', content_type: 'image/jpeg' });
    expect(grant.file_name).toMatch(/^[0-9a-z]{24}\.jpg$/);
    expect(api.callsTo(COMPLETE)[0]?.body).toEqual({
      key: 'photos/7/incoming/new',
      original_photo_id: 5,
    });
    expect(api.callsTo(CURATION)[0]?.body).toEqual({
      original_photo_id: 5,
      full_path: NEW_PATH,
    });

    // The storage POST: grant fields first, the JPEG last.
    const storageCall = vi.mocked(fetch).mock.calls.find(([input]) => input === STORAGE_URL);
    const form = storageCall?.[1]?.body as FormData;
    expect([...form.keys()]).toEqual(['key', 'file']);
    expect((form.get('file') as File).type).toBe('image/jpeg');
    // Rendered at full resolution from the 1:1 crop, as JPEG quality 0.9.
    expect(canvas.toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/jpeg', 0.9);
    expect(canvas.context.translate).toHaveBeenCalledWith(-250, -0);
    // The result carries its own link back, next to the header's.
    expect(screen.getAllByRole('link', { name: 'Back to the album' })).toHaveLength(2);
  });

  it('shows the catalogue error when the curation update fails', async () => {
    installFakeCanvas();
    installEditorApi({ [CURATION]: { nok: 'not_found', status: 404 } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderAlbum(EDITOR);
    await loadPicture();
    await screen.findByRole('img', { name: 'Live preview' });

    await user.click(screen.getByRole('button', { name: 'Save as new version' }));

    expect(await screen.findByText('The edit could not be saved.')).toBeTruthy();
    expect(screen.queryByText('Saved as a new version')).toBeNull();
  });
});
