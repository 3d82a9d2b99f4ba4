/** Where the portal registers its push service worker (scope `/`, so it serves every page). */
export const PUSH_WORKER_PATH = '/push-sw.js';

/**
 * The portal's service worker for Web Push: shows each message the server sends (a price alert:
 * `{ title, body, tag, url }`) as a system notification, and a click on it focuses an open terminal
 * tab or opens the address. Plain JavaScript served as is: it runs outside the page's bundle.
 */
export const PUSH_WORKER_SOURCE = `'use strict';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: event.data ? event.data.text() : '' };
  }
  const title = typeof message.title === 'string' && message.title ? message.title : self.location.host;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      renotify: true,
      icon: '/static/favicon.svg',
      data: { url: typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/' },
    }),
  );
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url ? event.notification.data.url : '/', self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
      for (const tab of tabs) if (new URL(tab.url).pathname === url.pathname && 'focus' in tab) return tab.focus();
      return self.clients.openWindow(url.href);
    }),
  );
});
`;
