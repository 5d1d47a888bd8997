/*
 * The board's service worker (docs/webapp.md, "Installing and push"): shows the callback offers the
 * server sends by Web Push, with Accept and Decline; a click opens the offer's link (the answer
 * page, no sign-in needed), the actions with that answer chosen. It caches nothing.
 */
const FALLBACK = '/app/#/offers';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: 'crewplan', body: event.data ? event.data.text() : '' };
  }
  const offer = typeof data.url === 'string' && data.url !== '';
  event.waitUntil(
    self.registration.showNotification(data.title || 'crewplan', {
      body: data.body || '',
      tag: data.tag,
      icon: '/app/icon-192.png',
      requireInteraction: offer,
      data: { url: offer ? data.url : FALLBACK },
      actions: offer
        ? [
            { action: 'accept', title: 'Accept' },
            { action: 'decline', title: 'Decline' },
          ]
        : [],
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || FALLBACK, self.location.origin);
  if (event.action === 'accept' || event.action === 'decline') url.searchParams.set('answer', event.action);
  event.waitUntil(self.clients.openWindow(url.href));
});
