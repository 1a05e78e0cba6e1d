/**
 * The album cover's English texts, in i18next form (`{{name}}` placeholders, `_one`/`_other`
 * plurals). The React album page reads them through its `albums` namespace and the server's first
 * paint of an album link writes them into the page, so both show the same words from one source.
 */
export const enAlbumCover = {
  defaultTitle: 'Photos',
  count_one: '{{count}} photo',
  count_other: '{{count}} photos',
  /** A large album's count before the exact one arrives (the page counts up to a limit). */
  countAtLeast: '{{number}}+ photos',
  live: 'Live',
  logoAlt: '{{title}} logo',
  support: 'Need help?',
  shareAlbum: 'Share album',
  downloadAll: 'Download all',
  sendPhotos: 'Send photos',
  /** The language switcher's name. */
  language: 'Language',
};
