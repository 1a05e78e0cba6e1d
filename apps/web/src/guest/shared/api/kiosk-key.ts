import { pageTypeFromQuery } from '@flashbulb/shared/rules/page-type';

/**
 * The kiosk's credentials for its calls: the event's private key and, when the page's link
 * carries it (`display`: the organiser's kiosk links do, a guest's private-album link does not),
 * the event's display token. The server lets only the two together unlock at the desk, print,
 * leave an e-mail address and keep profile photos. Read from the link every call, so actions the
 * kiosk outbox replays after a reload carry it too.
 */
export const kioskKeyFields = (
  kioskKey: string,
  search: string = typeof window === 'undefined' ? '' : window.location.search,
): { key_type: 'private'; key_value: string; display?: string } => {
  const display = pageTypeFromQuery(search).displayToken;
  return { key_type: 'private', key_value: kioskKey, ...(display ? { display } : {}) };
};
