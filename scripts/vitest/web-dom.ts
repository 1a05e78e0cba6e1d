// Which web test files run on happy-dom instead of jsdom (vitest.config.ts reads this; see
// docs/testing.md, "Cheap set-ups").
//
// jsdom's `getComputedStyle` (its default stylesheet matched per element, its resolved
// properties) is a large part of a console file's CPU: Testing Library's role queries ask it for
// every candidate element. happy-dom answers the same queries for less. The files below passed on
// happy-dom, were measured cheaper there (pairs, CPU), and were shown still to fail when the
// feature they name breaks. Every other web file stays on jsdom, because happy-dom differs from it
// where those files look, for example:
//  - its `URL` class refuses addresses Node's accepts (`http-link`);
//  - its cookies, `location.search` after a navigation and the kiosk's display token read
//    differently (the guest language, instant photo, kiosk and checkout files);
//  - it has `createImageBitmap`, so `prepareUpload` takes another branch than on jsdom;
//  - its `srcObject` refuses the tests' fake camera stream;
//  - `templates-page`'s first test, run first in a worker, did not find the page's heading within
//    the 10 s wait three times out of four on a loaded machine (cause not found; jsdom passed).
// A file moves here only when it passes, costs less and still fails on a deliberate break.
// `vi.mock` files stay in `web-isolated` (web-isolation.ts), on jsdom.

/** Paths relative to the web app's root (`apps/web`). */
export const WEB_HAPPY_DOM_FILES: readonly string[] = [
  // The event editor: the largest web files (≈ 30 % less CPU on happy-dom).
  'src/features/events/editor/components/editor-tabs.test.tsx',
  // Its menu item is asked for with `hidden: true`, as on jsdom elsewhere: without layout Mantine
  // keeps an opened dropdown `display: none` on both DOMs (on jsdom the query used to catch the
  // moment before the position was computed; happy-dom computes it first).
  'src/features/events/editor/components/event-editor-modal.test.tsx',
  'src/features/events/editor/components/notifications-paid-stock.test.tsx',
  'src/features/events/editor/components/pricing-buttons.test.tsx',
  // Sign-in, two-factor set-up and the set-up pages; the kiosk's album tools (≈ 30 % less CPU).
  'src/features/identity/auth/components/mfa-setup-modal.test.tsx',
  'src/features/identity/auth/components/sign-in-page.test.tsx',
  'src/features/identity/setup/components/setup-pages.test.tsx',
  'src/guest/features/kiosk/components/kiosk-album-tools.test.tsx',
  // The attendees list (29.2 → 22.3 s CPU alone, paired at load ≈ 3; its search test fails on
  // happy-dom when the search is never sent).
  'src/features/attendees/attendee-list/components/attendees-page.test.tsx',
  // The console album. Its zip test records the saved link instead of letting the anchor's click
  // run: happy-dom follows it (navigates the window to `blob:`), and the next test started signed
  // out and never found its Download button.
  'src/features/albums/console-album/components/console-album-page.test.tsx',
];
