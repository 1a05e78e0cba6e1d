import {
  GUEST_EVENT_FIELDS,
  GUEST_EVENT_OPTS,
  KIOSK_EVENT_OPTS,
  PRIVATE_EVENT_FIELDS,
  ROBOT_EVENT_FIELDS,
  ROBOT_EVENT_OPTS,
  type FlashbulbEvent,
  type KeyEvent,
  type PublicKeyType,
} from '@flashbulb/shared';

const pick = <T extends object>(source: T, keys: readonly string[]): Partial<T> => {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (key in source) out[key] = (source as Record<string, unknown>)[key];
  return out as Partial<T>;
};

/**
 * The event as a key sees it: an explicit allow-list per key type (the lists live in the contract,
 * packages/shared/src/api/events/events.ts, so the web and the tests read the same ones). Anything not
 * listed — other keys, e-mail templates, notification data, the shop's shipping address, the VIP
 * token, unlock codes — never leaves the server for that audience.
 */
export const presentEventForKey = (keyType: PublicKeyType, event: FlashbulbEvent): KeyEvent => {
  switch (keyType) {
    case 'event_owner': {
      // The event-owner key is handed to roaming photographers: no other key, and none of the
      // kiosk's powers (the desk's unlock codes, the display token that makes the kiosk).
      const {
        private_api_key: _private,
        public_api_key: _public,
        secret_code_list: _codes,
        display_token: _display,
        ...rest
      } = event;
      return rest;
    }
    case 'robot':
      return {
        ...pick(event, ROBOT_EVENT_FIELDS),
        opts: pick(event.opts, ROBOT_EVENT_OPTS),
      } as KeyEvent;
    case 'private':
      return {
        ...pick(event, PRIVATE_EVENT_FIELDS),
        opts: pick(event.opts, KIOSK_EVENT_OPTS),
      } as KeyEvent;
    case 'public':
    case 'attendee':
      return {
        ...pick(event, GUEST_EVENT_FIELDS),
        opts: pick(event.opts, GUEST_EVENT_OPTS),
      } as KeyEvent;
  }
};
