import { createContext } from 'react';

// The lead token's storage, apart from the gate's form: the album reads the token on every open,
// the form (and the leads contract it sends with) loads only when the gate shows.
export const storageKey = (eventName: string) => `fb-lead:${eventName}`;
export const keyStorageKey = (keyValue: string) => `fb-lead-key:${keyValue}`;

const read = (name: string): string | null => {
  try {
    const value = window.localStorage.getItem(name);
    // '1' was kept before the server checked the gate: no token, so the gate asks again.
    return value && value !== '1' ? value : null;
  } catch {
    return null;
  }
};

/**
 * The lead token this browser holds for the album (the server's gate asks for it with the photo
 * list and download): by the link's key first (known before the event is), else by event code.
 */
export const leadTokenOf = (keyValue: string, eventName: string | null): string | null =>
  read(keyStorageKey(keyValue)) ?? (eventName ? read(storageKey(eventName)) : null);

/**
 * The event's display token a screen link (kiosk, stream, slide show) carries as `display`
 * (`PageContext.displayToken`, given by the albums page): the server lets only that token past
 * the lead gate.
 */
export const DisplayTokenContext = createContext<string | null>(null);
