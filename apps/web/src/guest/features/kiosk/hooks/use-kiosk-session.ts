import { useCallback, useEffect, useRef, useState } from 'react';
import {
  ATTENDEE_COOKIE,
  HEALTH_PATH,
  KIOSK_LOCAL_STORAGE_KEYS,
  KIOSK_THROTTLE_MS,
  kioskEntryConfigFrom,
  kioskEntryUrl,
  kioskIdleTimeoutMs,
  pageActiveTimeoutFrom,
} from '@flashbulb/shared';
import type { KioskOutbox } from '../../../shared/kiosk/kiosk-outbox.ts';
import { dropAllPictures } from '../../../shared/kiosk/kiosk-pictures.ts';

/** Cache of the thumbnails the kiosk service worker keeps (cleared between guests). */
export const KIOSK_MEDIA_CACHE = 'flashbulb-kiosk-media';

/** Where an idle kiosk screen goes back to: its entry page, from the kiosk parameters of the link. */
export const kioskReturnUrl = (location: { origin: string; search: string }): string => {
  const query = new URLSearchParams(location.search);
  const config = kioskEntryConfigFrom(query);
  if (config) return kioskEntryUrl(location.origin, config);
  // A kiosk without an entry page (shop kiosk, kiosk album): the same link without the guest.
  query.delete('attId');
  query.delete('attendeeId');
  // The next guest starts in the event's language again.
  query.delete('lang');
  return `${location.origin}/?${query.toString()}`;
};

/**
 * How long the kiosk session may sit idle: the link's `pageActiveTimeout` when it sets one, else
 * the event's session expiry (`sessionExpiryMinutes`), else two minutes.
 */
export const kioskTimeoutFrom = (search: string, sessionExpiryMinutes?: number | null): number =>
  kioskIdleTimeoutMs(
    pageActiveTimeoutFrom(new URLSearchParams(search).get('pageActiveTimeout')),
    sessionExpiryMinutes,
  );

/**
 * Everything of the last guest on this device: the §3 local storage keys (and every other key),
 * session storage, the attendee cookie, camera pictures kept in IndexedDB and the thumbnails the
 * service worker kept.
 */
export const clearGuestData = async (): Promise<void> => {
  try {
    for (const key of KIOSK_LOCAL_STORAGE_KEYS) window.localStorage.removeItem(key);
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // storage disabled: nothing was kept there
  }
  document.cookie = `${ATTENDEE_COOKIE}=; Max-Age=0; path=/`;
  // Camera pictures still kept (a refused or abandoned upload).
  await dropAllPictures();
  try {
    if ('caches' in window) await window.caches.delete(KIOSK_MEDIA_CACHE);
  } catch {
    // no cache storage (insecure origin): nothing kept
  }
};

/** Whether the server answers its health check (the kiosk's offline banner). */
const serverAnswers = async (): Promise<boolean> => {
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), 4000);
  try {
    const response = await fetch(HEALTH_PATH, { cache: 'no-store', signal: controller.signal });
    return response.ok;
  } catch {
    return false;
  } finally {
    window.clearTimeout(timer);
  }
};

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel'] as const;

/**
 * A kiosk guest's session (albums §4, owner-console §9): the user activity flag (mouse, key,
 * touch), a countdown each second to the idle timeout (the screen asks "Still there?" near its
 * end, `stayActive` starts it again), then "Time's up!", the guest's data
 * cleared and the entry page. While the server does not answer the kiosk says so, keeps what is on
 * screen and waits: an idle session still ends (the album leaves the screen at once) and goes to
 * the entry page once the server is back.
 */
export function useKioskSession(options: {
  timeoutMs: number;
  returnUrl: string;
  /** Actions the guest took that have not reached the server yet: the session ends after them. */
  outbox?: KioskOutbox;
}) {
  const { timeoutMs, returnUrl, outbox } = options;
  // Set when the session starts (an effect), then by every activity event.
  const lastActivity = useRef(0);
  const [active, setActive] = useState(true);
  const [remainingMs, setRemainingMs] = useState(timeoutMs);
  const [ended, setEnded] = useState(false);
  const [offline, setOffline] = useState(false);
  const offlineRef = useRef(false);

  // A tap on "I'm still here": the count starts again at once (not at the next tick).
  const stayActive = useCallback(() => {
    lastActivity.current = Date.now();
    setActive(true);
    setRemainingMs(timeoutMs);
  }, [timeoutMs]);

  useEffect(() => {
    lastActivity.current = Date.now();
    const touch = () => {
      lastActivity.current = Date.now();
      setActive(true);
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, touch, { passive: true });
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, touch);
    };
  }, []);

  const endSession = useCallback(async () => {
    setEnded(true);
    // The guest's last actions (a print, a deletion, a camera photo) are not lost: they go first.
    await outbox?.drained();
    await clearGuestData();
    // Offline: the album is gone from the screen; go once the entry page can load.
    while (!(await serverAnswers())) {
      offlineRef.current = true;
      setOffline(true);
      await new Promise((resolve) => window.setTimeout(resolve, 2000));
    }
    window.location.replace(returnUrl);
  }, [returnUrl, outbox]);

  // Countdown each second (§9); the activity flag clears after a quiet second.
  useEffect(() => {
    if (ended) return;
    const tick = window.setInterval(() => {
      const idle = Date.now() - lastActivity.current;
      setActive(idle < 1000);
      const left = timeoutMs - idle;
      setRemainingMs(Math.max(0, left));
      if (left <= 0) void endSession();
    }, 1000);
    return () => window.clearInterval(tick);
  }, [timeoutMs, ended, endSession]);

  // The offline banner: the health check every 5 s and on the browser's own signals.
  useEffect(() => {
    let cancelled = false;
    const check = async () => {
      const up = navigator.onLine && (await serverAnswers());
      if (cancelled) return;
      offlineRef.current = !up;
      setOffline(!up);
      if (up) outbox?.retryNow();
    };
    const timer = window.setInterval(() => void check(), 5000);
    const onChange = () => void check();
    window.addEventListener('online', onChange);
    window.addEventListener('offline', onChange);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      window.removeEventListener('online', onChange);
      window.removeEventListener('offline', onChange);
    };
  }, [outbox]);

  return { active, remainingMs, ended, offline, endSession, stayActive };
}

/** One action per interval (§9 throttle, 1000 ms): a second tap inside it does nothing. */
export function useThrottled<A extends unknown[]>(
  action: (...args: A) => void,
  intervalMs = KIOSK_THROTTLE_MS,
): (...args: A) => void {
  const last = useRef(0);
  const latest = useRef(action);
  useEffect(() => {
    latest.current = action;
  });
  return useCallback(
    (...args: A) => {
      const now = Date.now();
      if (now - last.current < intervalMs) return;
      last.current = now;
      latest.current(...args);
    },
    [intervalMs],
  );
}

/**
 * The kiosk's service worker script: it keeps the app's shell for a kiosk that loses the network,
 * and the photos it has shown only when the event allows it (`photoCashingForKioskEnabled`):
 * `photos=1` in its URL. A changed URL is a new registration, so switching the setting takes
 * effect at the kiosk's next load, and switching it off empties the photo cache.
 */
export const kioskServiceWorkerUrl = (cachePhotos: boolean): string =>
  `/kiosk-sw.js?photos=${cachePhotos ? 1 : 0}`;

/**
 * Registers the kiosk's service worker once the event's photo-cache setting is known (null:
 * not yet; a kiosk without the event's key registers it without the photo cache).
 */
export function useKioskServiceWorker(cachePhotos: boolean | null): void {
  useEffect(() => {
    if (cachePhotos === null || !('serviceWorker' in navigator)) return;
    navigator.serviceWorker
      .register(kioskServiceWorkerUrl(cachePhotos), { scope: '/' })
      .catch(() => undefined);
  }, [cachePhotos]);
}

/**
 * A kiosk behaves like an appliance: the screen stays awake (Wake Lock, renewed when the page is
 * shown again), no context menu, no pinch zoom, and the app is installable full screen.
 */
export function useKioskDevice(): void {
  useEffect(() => {
    let lock: { release: () => Promise<void> } | null = null;
    const wake = async () => {
      try {
        const nav = navigator as Navigator & {
          wakeLock?: { request: (type: 'screen') => Promise<{ release: () => Promise<void> }> };
        };
        if (document.visibilityState === 'visible' && nav.wakeLock)
          lock = await nav.wakeLock.request('screen');
      } catch {
        // refused (battery saver, no permission): the kiosk's own settings keep it awake
      }
    };
    void wake();
    const onVisible = () => void wake();
    document.addEventListener('visibilitychange', onVisible);
    const noMenu = (event: Event) => event.preventDefault();
    document.addEventListener('contextmenu', noMenu);
    // Safari's pinch gestures; others honour touch-action in the CSS and the viewport below.
    document.addEventListener('gesturestart', noMenu);
    const viewport = document.querySelector<HTMLMetaElement>('meta[name="viewport"]');
    const before = viewport?.content ?? null;
    if (viewport)
      viewport.content = 'width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no';
    let manifest = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    const added = !manifest;
    if (!manifest) {
      manifest = document.createElement('link');
      manifest.rel = 'manifest';
      manifest.href = '/kiosk.webmanifest';
      document.head.append(manifest);
    }
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      document.removeEventListener('contextmenu', noMenu);
      document.removeEventListener('gesturestart', noMenu);
      if (viewport && before !== null) viewport.content = before;
      if (added) manifest?.remove();
      void lock?.release().catch(() => undefined);
    };
  }, []);
}
