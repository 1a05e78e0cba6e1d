import './i18n/guest-i18n.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import AlbumsRoot from './guest/app/albums-root.tsx';
import { albumPageFor, eventNameFrom } from './app/page-type-route.ts';
import { initialGuestLanguage, switchGuestLanguage } from './i18n/guest-language.ts';

/**
 * The guest build's entry (`guest.html`): the server sends it for album, kiosk,
 * slide-show and web-app links only, so the page starts with the album code already loaded — no
 * console, no Mantine, no console texts, and no extra round trip for a lazy album chunk.
 */
const container = document.getElementById('root');
if (!container) throw new Error('guest.html has no #root element');
const album = albumPageFor(window.location);
// Only album links are sent this page; anything else belongs to the console at the same address.
if (!album) window.location.reload();
else {
  const render = () =>
    createRoot(container).render(
      <StrictMode>
        <AlbumsRoot context={album} eventName={eventNameFrom(window.location.search)} />
      </StrictMode>,
    );
  // The page starts in the language the server wrote it in (or the guest's): another language's
  // texts load first, so the first render matches the first paint; English is already here.
  const language = initialGuestLanguage();
  if (language === 'en') render();
  else void switchGuestLanguage(language).then(render, render);
}
