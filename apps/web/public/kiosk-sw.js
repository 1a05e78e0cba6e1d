/* Kiosk service worker: a kiosk that loses the network keeps its shell and the
 * thumbnails it has already shown. Only kiosk pages register it; it touches nothing else:
 * GET requests of this origin for the app's assets, images, and kiosk navigations. */
const SHELL = 'flashbulb-kiosk-shell';
const MEDIA = 'flashbulb-kiosk-media';
// The event's photoCashingForKioskEnabled, given by the page in this script's URL (`photos=1`):
// without it the photos are never kept, and what an earlier registration kept is dropped.
const CACHE_PHOTOS = new URL(self.location.href).searchParams.get('photos') === '1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) =>
  event.waitUntil(
    Promise.all([self.clients.claim(), CACHE_PHOTOS ? undefined : caches.delete(MEDIA)]),
  ),
);

const networkFirst = async (request, cacheName, fallbackKey) => {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic')
      await cache.put(fallbackKey || request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(fallbackKey || request);
    if (cached) return cached;
    throw error;
  }
};

const cacheFirst = async (request, cacheName) => {
  const cache = await caches.open(cacheName);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
};

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request, SHELL));
  } else if (CACHE_PHOTOS && request.destination === 'image') {
    event.respondWith(networkFirst(request, MEDIA));
  } else if (
    request.mode === 'navigate' &&
    url.pathname === '/' &&
    url.searchParams.get('kioskMode') === 'true'
  ) {
    // One shell for every kiosk link: the app reads its parameters itself.
    event.respondWith(networkFirst(request, SHELL, '/__kiosk-shell'));
  }
});
