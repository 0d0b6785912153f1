/*
 * The push service worker (SPEC §7: registered with version 2; DESIGN §9). A push of the runtime
 * (services/notify.ts PushPayload) shows a notification unless a page of the site is in view;
 * every open page hears NEW_PUSH_MESSAGE and reloads its chats and likes. A click on the
 * notification focuses an open page and tells it NEW_PUSH_CLICK with the page to open, or opens it.
 */
const VERSION = 2;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) client.postMessage({ type: 'NEW_PUSH_MESSAGE', version: VERSION, url: data.url, kind: data.type });
      if (windows.some((client) => client.visibilityState === 'visible' && client.focused)) return;
      await self.registration.showNotification(data.title || self.location.host, {
        body: data.body || '',
        tag: data.tag,
        renotify: Boolean(data.tag),
        data: { url: data.url || '/' },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // The push names an address on the member's own brand (its main domain); a path is this site's.
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === url.origin);
      if (open) {
        await open.focus();
        open.postMessage({ type: 'NEW_PUSH_CLICK', version: VERSION, url: url.pathname + url.search });
        return;
      }
      await self.clients.openWindow(url.href);
    })(),
  );
});
