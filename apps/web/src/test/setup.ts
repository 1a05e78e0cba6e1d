// Browser APIs jsdom lacks but Mantine uses, the i18n texts, and a clean DOM after each test.
import * as React from 'react';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { i18next } from '../i18n/i18n.ts';
import { resetRestoreForTests } from '../lib/session/session-api.ts';
import { resetSessionStoreForTests } from '../lib/session-store.ts';
import { pollTiming } from '../guest/shared/utils/poll-timing.ts';

// The editor is a large form and lazy pages load on first use: on a busy two-core runner the first
// render can outlast the default 1 s by far. A longer wait only slows a test that fails anyway.
configure({ asyncUtilTimeout: 10_000 });
// Whole sign-in and editor flows run in one test; on a shared two-core runner 5 s is too tight,
// and with the machine busy (a CPU hog beside the suite) a long editor flow outlasted 20 s. A test
// that times out leaves its typing running into the next test of the file, so the budget is the
// same as the server tests'.
vi.setConfig({ testTimeout: 60_000 });

// Guest pages ask the server again every 2 s while a payment or a print is pending; a test that
// waits for the second answer would wait seconds of real time (the checkout files spent most of
// their 30 s there). The same calls in the same order, 50 ms apart.
Object.assign(pollTiming, {
  paymentMs: 50,
  squareMs: 50,
  printsMs: 50,
  terminalMs: 50,
  zipReadyMs: 50,
  zipReadyMaxMs: 100,
});

// No media query matches, on either DOM: jsdom has no matchMedia, and happy-dom's answers for its
// 1024 px window (`min-width` queries match there) would lay pages out unlike the layout the tests
// were written for. A plain object, so a test can spread it and change `matches` (the phone tests).
Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  writable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

// React's development build gives every JSX element an "owner stack": an `Error` captured (ten
// frames) and a `console.createTask`, for DevTools and the component stacks of its warnings. It
// does so for the first 10,000 elements after each render that starts a second after the last
// reset, which on a slow test machine is nearly every element: ≈ 5 µs against ≈ 1 µs without, a
// fifth of an editor test's CPU. Rendering, effects, `act` and the warnings themselves are the same
// without them; only a warning's component stack is shorter. The counter React checks is pinned
// at its limit; FLASHBULB_TEST_OWNER_STACKS=1 keeps them for a run that debugs a warning.
const reactInternals = (React as unknown as Record<string, unknown>)
  .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (
  process.env.FLASHBULB_TEST_OWNER_STACKS !== '1' &&
  typeof reactInternals === 'object' &&
  reactInternals !== null &&
  'recentlyCreatedOwnerStacks' in reactInternals
) {
  Object.defineProperty(reactInternals, 'recentlyCreatedOwnerStacks', {
    configurable: true,
    get: () => 10_000,
    set: () => undefined,
  });
}

class ResizeObserverStub implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;

// Tests start as a browser that signed in before: the server's session hint cookie is there, so the
// app restores the session through the (faked) refresh call. renderApp(…, {sessionCookie: false})
// starts without it.
beforeEach(() => {
  document.cookie = 'flashbulb_session=1; path=/';
});

afterEach(() => {
  cleanup();
  // Toasts live in a module-level store: one test's notices must not show in the next.
  notifications.clean();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

// The web project runs its files one after another in one process (vitest.config.ts): what a file
// leaves in the shared window or in module state must not reach the next file.
afterAll(() => {
  vi.useRealTimers();
  resetSessionStoreForTests();
  resetRestoreForTests();
  window.history.replaceState(null, '', '/');
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
  document.title = '';
  for (const attribute of ['lang', 'dir', 'style', 'class', 'data-mantine-color-scheme'])
    document.documentElement.removeAttribute(attribute);
  document.body.removeAttribute('style');
  document.body.removeAttribute('data-scroll-locked');
  document.head.querySelectorAll('script, link[rel="preload"]').forEach((node) => node.remove());
  if (i18next.language !== 'en') void i18next.changeLanguage('en');
});
