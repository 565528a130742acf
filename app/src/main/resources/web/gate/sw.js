// The gate page's service worker (scope /gate/, registered by js/pages/gate.js): a door phone that
// reloads the page with no network still gets the page, so it keeps checking codes with the key and
// revocation list the page keeps in localStorage and uploads its waiting scans when the network is
// back. Only pages under /gate/ are its clients: the fan's pages at / never go through it.
//
// Network first: with a connection every file comes from the service as it would without this worker
// (so a deploy reaches the gate at its next load), and each answer is kept; without one, or when no
// answer comes within NETWORK_WAIT_MS, the kept copy answers. The API (/v1/...) is never kept or
// answered here: the page decides what to do when it fails.

const CACHE = 'boxoffice-gate-1';
const SHELL = '/gate/';
/** The files the page loads besides those index.html names: the camera's QR reader, started on demand. */
const ON_DEMAND = ['/js/qr-worker.js', '/js/vendor/jsQR.js'];
/** How long a file waits for the network before the kept copy answers (a phone on a dead Wi-Fi). */
const NETWORK_WAIT_MS = 3000;

/** Every file the page needs: index.html and what it names (stylesheet, icon, every module), kept at install. */
async function keepShell() {
  const cache = await caches.open(CACHE);
  const shell = await fetch(SHELL, {cache: 'no-cache'});
  if (!shell.ok) throw new Error(`${SHELL} answered ${shell.status}`);
  const html = await shell.clone().text();
  const named = [...html.matchAll(/\s(?:href|src)="(\/[^"?#]+)"/g)].map(m => m[1]);
  await cache.put(SHELL, shell);
  await cache.addAll([...new Set([...named, ...ON_DEMAND])].map(url => new Request(url, {cache: 'no-cache'})));
}

self.addEventListener('install', event => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', event => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE && name.startsWith('boxoffice-gate-')) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', event => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/v1/')) return;
  // the page is index.html whatever its fragment or query
  const key = event.request.mode === 'navigate' ? SHELL : url.pathname;
  event.respondWith(networkFirst(event.request, key));
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(key);
  const network = fetch(request).then(response => {
    if (response.ok) cache.put(key, response.clone()).catch(() => {});
    // a proxy's 502 when the service is down is no reason to lose the page
    return response.status >= 500 && kept ? kept : response;
  });
  if (!kept) return network;
  network.catch(() => {});  // once the kept copy answered, a network failure later is nobody's business
  let timer;
  const late = new Promise(resolve => { timer = setTimeout(() => resolve(kept), NETWORK_WAIT_MS); });
  try {
    return await Promise.race([network, late]);
  } catch {
    return kept;
  } finally {
    clearTimeout(timer);
  }
}
