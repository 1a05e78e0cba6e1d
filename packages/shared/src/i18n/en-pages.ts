import { INVALID_CARD_CODE } from '../rules/kiosk.ts';

/**
 * English texts of the pages the server renders itself (no React): the kiosk entry page, the share
 * pages and the unsubscribe page. The album's first paint uses the album page's own texts
 * (`en-album-cover.ts`). i18next form: `{{name}}` placeholders (filled with `fillText`).
 */
export const enPages = {
  kioskEntry: {
    language: 'Language',
    title: '{{event}} · Kiosk',
    prompt: 'Scan your card to see your photos',
    tap: 'Tap to find your photos',
    orScan: 'or scan your card',
    typeCode: 'Type the code on your card',
    back: 'Back',
    logoAlt: '{{event}} logo',
    cardLabel: 'Card code',
    submit: 'Open my album',
    camera: 'Scan with camera',
    checking: 'Checking…',
    welcome: 'Welcome!',
    invalid: INVALID_CARD_CODE,
    offline: 'The kiosk is offline. Please try again.',
    noCamera: 'No camera is available.',
    notFoundDocumentTitle: 'Kiosk',
    notFoundTitle: 'This kiosk link is not valid',
    notFoundText: 'Open the kiosk link again from the console.',
  },
  share: {
    open360: 'Open the 360° view',
    openVideo: 'Open the video',
    openPhoto: 'Open the photo',
    photoAlt: 'A photo from {{title}}',
    logoAlt: '{{title}} logo',
    sharedFrom: 'Shared from {{title}}',
    viewerTitle: '360° photo',
    viewerLabel: '360° photo: drag to look around',
    viewerHint: 'Drag to look around',
    viewerMotion: 'Move your phone',
    close: 'Close',
    notFoundDocumentTitle: 'Not found',
    notAvailable: 'This photo is not available',
    incompleteTitle: 'This photo link is incomplete',
    incompleteText:
      'Part of the link seems to be missing. Ask the person who shared it to send it again, or open the album link you were given.',
    unavailableTitle: 'This photo is not available',
    unavailableText:
      'It may have been removed, or the album is no longer shared. Ask the person who shared it for a new link.',
  },
  /** What mails and SMS say of a clip among the photos they send or announce. */
  mail: {
    videoAlt: 'Video, {{duration}}',
    videoCaption: '▶ Video · {{duration}}',
    videoLine: 'Video ({{duration}}): {{url}}',
    watchVideo: 'Watch the video',
    videoHeading: 'A video from {{title}}',
    videoShared: 'A video was shared with you. Open it to watch it.',
  },
  unsubscribe: {
    askTitle: 'Unsubscribe',
    ask: 'Stop messages from {{event}} to {{recipient}}?',
    button: 'Unsubscribe',
    doneTitle: 'You are unsubscribed',
    done: '{{recipient}} will get no further messages from {{event}} (receipts of purchases excepted).',
    invalidTitle: 'Link not valid',
    invalidText: 'This unsubscribe link is not valid. Use the link from the most recent message.',
  },
};
