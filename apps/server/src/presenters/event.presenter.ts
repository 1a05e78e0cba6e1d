import {
  GUEST_EVENT_FIELDS,
  GUEST_EVENT_OPTS,
  KIOSK_EVENT_OPTS,
  PRIVATE_EVENT_FIELDS,
  ROBOT_EVENT_FIELDS,
  ROBOT_EVENT_OPTS,
  SECURE_FIELDS,
  type BasicEvent,
  type FlashbulbEvent,
  type KeyEvent,
  type PublicKeyType,
  type SecureField,
} from '@flashbulb/shared';
import type { SecretBox } from '../lib/secret-box.ts';
import type { EventRecord, EventRow } from '../repositories/events/event.repository.ts';
import { displayTokenOf, settingsOfRecord } from '../services/events/event-settings.ts';

// One call per audience: `presentEvent` (operators: the whole event), `presentBasicEvent` (the
// operators' event list), `presentKeyEvent` (what a key of each type sees).

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

const secureFieldsSet = (row: EventRow): SecureField[] =>
  SECURE_FIELDS.filter((f) => Boolean(row.secureFields[f]));

/** The event as the API answers it: keys in clear, secure fields only named, never shown. */
export const presentEvent = (event: EventRecord, secrets: SecretBox): FlashbulbEvent => {
  const row = event.row;
  return {
    id: row.id,
    name: row.name,
    organisation_id: row.organisationId,
    owner_api_key: secrets.decrypt(row.ownerKeySealed),
    private_api_key: secrets.decrypt(row.privateKeySealed),
    public_api_key: secrets.decrypt(row.publicKeySealed),
    display_token: displayTokenOf(secrets, row.id),
    ...settingsOfRecord(event),
    email_from_address_verified: row.emailFromAddressVerified,
    unlocked: row.unlocked,
    secure_fields_set: secureFieldsSet(row),
    updated_date: row.updatedAt.toISOString(),
    created_date: row.createdAt.toISOString(),
  };
};

/** The kiosk stream is offered: switched on, and leads collected (albums spec §4). */
export const kioskStreamOn = (row: Pick<EventRow, 'opts' | 'collect_leads'>): boolean =>
  row.opts.kioskStreamEnabled === 1 && row.collect_leads === 1;

/** A row of the operators' event list. */
export const presentBasicEvent = (row: EventRow, secrets: SecretBox): BasicEvent => ({
  id: row.id,
  name: row.name,
  full_name: row.full_name,
  organisation_id: row.organisationId,
  is_visible: row.is_visible,
  logo_full_path: row.logo_full_path,
  public_api_key: secrets.decrypt(row.publicKeySealed),
  private_api_key: secrets.decrypt(row.privateKeySealed),
  display_token: displayTokenOf(secrets, row.id),
  collect_leads: row.collect_leads,
  updated_date: row.updatedAt.toISOString(),
  created_date: row.createdAt.toISOString(),
  kiosk_stream_enabled: kioskStreamOn(row),
});

/** The event as a key of `keyType` sees it (the allow-list of `presentEventForKey`). */
export const presentKeyEvent = (
  keyType: PublicKeyType,
  event: EventRecord,
  secrets: SecretBox,
): KeyEvent => presentEventForKey(keyType, presentEvent(event, secrets));
