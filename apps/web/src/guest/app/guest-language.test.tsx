import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultEventOpts } from '@flashbulb/shared';
import { i18next } from '../../i18n/i18n.ts';
import { installFakeApi } from '../../test/fake-api.ts';
import { storedEvent } from '../../test/event-fixtures.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../test/render-albums.tsx';

const LIST = '/photo/list/retrieve';
const EVENT = '/event/full-data/retrieve';

/** A public album of two photos whose event speaks `guestLanguage`. */
const album = (
  opts: Partial<ReturnType<typeof defaultEventOpts>>,
  more: Parameters<typeof installFakeApi>[0] = {},
) => {
  installFakeApi({
    ...more,
    [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)]) },
    [EVENT]: {
      ok: [
        storedEvent({
          full_name: 'Gala',
          opts: { ...defaultEventOpts(), supportLink: 'https://help.example/', ...opts },
        }),
      ],
    },
  });
  renderAlbums('?pId=pub-key');
};

/** The album's cover (a header inside the page's main: no landmark of its own). */
const cover = (): HTMLElement => {
  const element = document.querySelector<HTMLElement>('.albums-cover');
  if (!element) throw new Error('no cover yet');
  return element;
};
const coverText = async (text: string) => {
  await waitFor(() => expect(within(cover()).getByText(text)).toBeTruthy());
};

afterEach(async () => {
  document.cookie = 'fb_lang=; path=/; max-age=0';
  vi.restoreAllMocks();
  await i18next.changeLanguage('en');
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('the album in the guest’s language', () => {
  it('opens in the event’s language (Spanish) when the browser may not decide', async () => {
    album({ guestLanguage: 'es', guestLanguageAuto: 0 });
    await coverText('2 fotos');
    expect(within(cover()).getByRole('button', { name: 'Compartir álbum' })).toBeTruthy();
    expect(within(cover()).getByRole('link', { name: '¿Necesitas ayuda?' })).toBeTruthy();
    // The cover's day, written the Spanish way.
    expect(within(cover()).getByText('21 de noviembre de 2026')).toBeTruthy();
    expect(document.documentElement.lang).toBe('es');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('lays the album out right to left in Arabic, with Arabic plurals and mirrored arrows', async () => {
    album({ guestLanguage: 'ar', guestLanguageAuto: 0 });
    // Two photos: Arabic's dual form, no number.
    await coverText('صورتان');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    expect(within(cover()).getByRole('button', { name: 'مشاركة الألبوم' })).toBeTruthy();
    // The viewer's arrows point the other way on a right-to-left page (theme CSS).
    await userEvent.click(screen.getAllByRole('button', { name: /^photo-2\.jpg/ })[0]!);
    const next = await screen.findByRole('button', { name: 'الصورة التالية' });
    expect(next.querySelector('svg')?.classList.contains('fb-icon--directional')).toBe(true);
  });

  it('prefers the guest’s browser language when the event allows it', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-CA', 'en']);
    album({ guestLanguage: 'es', guestLanguageAuto: 1 });
    await coverText('2 photos');
    await waitFor(() => expect(document.documentElement.lang).toBe('fr'));
    expect(within(cover()).getByRole('button', { name: 'Partager l’album' })).toBeTruthy();
  });

  it('switches with the cover’s language picker and remembers the choice on the device', async () => {
    album({ guestLanguage: 'en' });
    await coverText('2 photos');
    await userEvent.selectOptions(
      within(cover()).getByRole('combobox', { name: 'Language' }),
      'de',
    );
    await coverText('2 Fotos');
    expect(within(cover()).getByRole('button', { name: 'Album teilen' })).toBeTruthy();
    expect(document.cookie).toContain('fb_lang=de');
  });

  it('tells a Spanish guest why the server refused, in Spanish (the error catalogue translated)', async () => {
    album(
      { guestLanguage: 'es', guestLanguageAuto: 0 },
      { '/album/download/create': { nok: 'download_not_allowed', status: 403 } },
    );
    await coverText('2 fotos');
    await userEvent.click(within(cover()).getByRole('button', { name: 'Descargar todo' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Descargar el zip' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Estas fotos no se pueden descargar',
    );
  });
});
