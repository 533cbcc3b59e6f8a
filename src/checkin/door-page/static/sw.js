// The door page's service worker: keeps the page's own files so that it opens and works with no
// connection. Stale-while-revalidate: answer from the cache at once (a door with bad reception
// does not wait), refresh the copy in the background. API calls are not touched: the page
// decides offline itself and queues the scans.

const CACHE = 'cal-door-v2';
const SHELL = [
  './',
  'index.html',
  'app.js',
  'api.js',
  'db.js',
  'feedback.js',
  'outcomes.js',
  'offline.js',
  'scanner.js',
  'decoder-worker.js',
  'style.css',
  'icon.svg',
  'manifest.webmanifest',
  'config.json',
  'vendor/jsqr.js',
];

const scope = new URL(self.registration.scope);
const shellUrls = new Set(SHELL.map((path) => new URL(path, scope).href));

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.search = '';
  url.hash = '';
  const key = request.mode === 'navigate' && url.href.startsWith(scope.href) ? scope.href : url.href;
  if (!shellUrls.has(key)) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const cached = await cache.match(key);
      const refresh = fetch(key, { cache: 'no-cache' })
        .then((response) => {
          if (response.ok) return cache.put(key, response.clone()).then(() => response);
          return response;
        })
        .catch(() => null);
      if (cached) {
        event.waitUntil(refresh);
        return cached;
      }
      return (await refresh) ?? Response.error();
    }),
  );
});
