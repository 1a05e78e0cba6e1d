import { type GuestBoot } from '@flashbulb/shared';
import { enAlbumCover } from '@flashbulb/shared/i18n/en-album-cover';
import i18next, { type Resource } from 'i18next';
import { describe, expect, it } from 'vitest';
import { enAlbums } from '../../../web/src/i18n/en-albums.ts';
import esBundle from '../../../web/src/i18n/locales/es.ts';
import arBundle from '../../../web/src/i18n/locales/ar.ts';
import { guestFirstPaint } from '../../src/pages/album-first-paint.ts';
import { withPageLanguage } from '../../src/routes/guest-boot.ts';

/**
 * The album link's first paint shows the words the React album page shows, from one source: the
 * cover's texts resolved by i18next from the web's `albums` namespace equal what the server writes.
 */

const react = i18next.createInstance();
void react.init({
  lng: 'en',
  resources: { en: { translation: { albums: enAlbums } } },
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
});

const photo = (i: number) => ({
  uid: `p${i}`,
  width: 1200,
  height: 800,
  created_date: '2026-11-21T12:00:00.000Z',
  urls: { thumbnail: `/storage/t${i}.jpg`, preview: `/storage/p${i}.jpg` },
});

const boot = (input: { count: number; title?: string }): GuestBoot =>
  ({
    key_type: 'public',
    key_value: 'PUB',
    event_name: 'E1',
    event: {
      full_name: input.title ?? '',
      logo_full_path: '/storage/logo.png',
      logo_link: 'https://example.com/',
      hash_tag: '',
      is_free: 1,
      unlocked: 0,
      date_utc_diff_hours: 0,
      opts: { supportLink: 'https://example.com/help', guestDownloadEnabled: 1 },
    },
    first_page: {
      photos: Array.from({ length: Math.min(input.count, 3) }, (_, i) => photo(i)),
      total_count: input.count,
    },
  }) as unknown as GuestBoot;

const paint = (b: GuestBoot): string => {
  const result = guestFirstPaint(b, '?eName=E1&pId=PUB', 3);
  if (!result) throw new Error('no first paint');
  return result.markup.toString();
};

describe('first paint texts', () => {
  it('are the React album page’s texts, resolved the way the page resolves them', () => {
    const markup = paint(boot({ count: 3, title: 'Gala' }));
    const t = react.t.bind(react);
    expect(markup).toContain(`>${t('albums.count', { count: 3 })}</span>`);
    expect(markup).toContain(`alt="${t('albums.cover.logoAlt', { title: 'Gala' })}"`);
    expect(markup).toContain(`>${t('albums.cover.support')}</a>`);
    expect(markup).toContain(`<span>${t('albums.shareAlbum')}</span>`);
    expect(markup).toContain(`<span>${t('albums.download.all')}</span>`);
    expect(markup).toContain(`aria-pressed="false">${t('albums.send.open')}</button>`);
    expect(markup).toContain(`</span>${t('albums.live')}</span>`);

    const one = paint(boot({ count: 1 }));
    expect(one).toContain(`>${t('albums.count', { count: 1 })}</span>`);
    expect(one).toContain(`<h1 class="albums-cover-title">${t('albums.defaultTitle')}</h1>`);
  });

  it('come from the shared texts the web page reads too (no copy to drift)', () => {
    expect(enAlbums.defaultTitle).toBe(enAlbumCover.defaultTitle);
    expect(enAlbums.count_one).toBe(enAlbumCover.count_one);
    expect(enAlbums.count_other).toBe(enAlbumCover.count_other);
    expect(enAlbums.live).toBe(enAlbumCover.live);
    expect(enAlbums.cover.logoAlt).toBe(enAlbumCover.logoAlt);
    expect(enAlbums.cover.support).toBe(enAlbumCover.support);
    expect(enAlbums.shareAlbum).toBe(enAlbumCover.shareAlbum);
    expect(enAlbums.download.all).toBe(enAlbumCover.downloadAll);
    expect(enAlbums.send.open).toBe(enAlbumCover.sendPhotos);
  });
});

describe('first paint in the guest’s language', () => {
  const guestI18n = i18next.createInstance();
  void guestI18n.init({
    lng: 'en',
    fallbackLng: 'en',
    // The web's translation files as they are (nested strings).
    resources: {
      en: { translation: { albums: enAlbums } },
      es: esBundle,
      ar: arBundle,
    } as unknown as Resource,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });

  it.each([
    ['es', 3],
    ['ar', 2],
    ['ar', 7],
  ] as const)('writes the %s page’s own words for %i photos', (language, count) => {
    const result = guestFirstPaint(
      boot({ count, title: 'Gala' }),
      '?eName=E1&pId=PUB',
      3,
      language,
    );
    const markup = result!.markup.toString();
    const t = guestI18n.getFixedT(language);
    expect(markup).toContain(`>${t('albums.count', { count })}</span>`);
    expect(markup).toContain(`<span>${t('albums.shareAlbum')}</span>`);
    expect(markup).toContain(`aria-pressed="false">${t('albums.send.open')}</button>`);
    expect(markup).toContain(`<span class="fb-visually-hidden">${t('albums.language')}</span>`);
    expect(markup).toContain(`<option value="${language}" lang="${language}" selected="">`);
  });

  it('says the day the language’s way and marks the page’s language and direction', () => {
    const markup = guestFirstPaint(boot({ count: 1 }), '?eName=E1&pId=PUB', 3, 'es')!.markup;
    expect(markup.toString()).toContain('21 de noviembre de 2026');
    expect(withPageLanguage('<html lang="en"><head>', 'ar')).toBe(
      '<html lang="ar" dir="rtl" data-fb-lang="ar"><head>',
    );
    expect(withPageLanguage('<html lang="en">', 'de')).toBe(
      '<html lang="de" dir="ltr" data-fb-lang="de">',
    );
  });
});

describe('the cover date in the event’s local time', () => {
  const dated = (event: Record<string, unknown>, created: string): string => {
    const b = boot({ count: 1, title: 'Gala' }) as unknown as {
      event: Record<string, unknown>;
      first_page: { photos: { created_date: string }[] };
    };
    Object.assign(b.event, event);
    b.first_page.photos[0]!.created_date = created;
    return paint(b as unknown as GuestBoot);
  };

  it('follows the event’s IANA zone, daylight saving included, over the fixed offset', () => {
    // 22:30 UTC on 24 October is 00:30 on the 25th in Berlin (summer time, UTC+2).
    expect(dated({ time_zone: 'Europe/Berlin' }, '2026-10-24T22:30:00.000Z')).toContain(
      'October 25, 2026',
    );
    // After the change back (UTC+1) 22:30 UTC stays on the same day: 23:30.
    expect(dated({ time_zone: 'Europe/Berlin' }, '2026-10-25T22:30:00.000Z')).toContain(
      'October 25, 2026',
    );
    expect(dated({ time_zone: 'Europe/Berlin' }, '2026-10-25T23:30:00.000Z')).toContain(
      'October 26, 2026',
    );
    // Without a zone the fixed hours (0 here) decide.
    expect(dated({ time_zone: '' }, '2026-10-24T22:30:00.000Z')).toContain('October 24, 2026');
  });
});
