/** The board as an installable app: its service worker (web/public/sw.js) and Web Push subscriptions. */
import { call, client } from './api';

const WORKER = '/app/sw.js';

export const pushSupported = () =>
  typeof navigator !== 'undefined' &&
  'serviceWorker' in navigator &&
  typeof window !== 'undefined' &&
  'PushManager' in window;

/** Registers the service worker at start, so the board can be installed; failures leave the board as it is. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(WORKER, { scope: '/app/' }).catch(() => undefined);
}

const keyBytes = (base64url: string) => {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
};

export type PushState = 'unsupported' | 'off' | 'denied' | 'subscribed' | 'not-subscribed';

/** Whether this device receives the user's offers by push, and what can be done about it. */
export async function pushState(userId: number): Promise<{ state: PushState; id?: number }> {
  if (!pushSupported()) return { state: 'unsupported' };
  const key = await call(client.GET('/v1/push/key'));
  if (!key.enabled) return { state: 'off' };
  if (Notification.permission === 'denied') return { state: 'denied' };
  const registration = await navigator.serviceWorker.getRegistration(WORKER);
  const current = await registration?.pushManager.getSubscription();
  if (!current) return { state: 'not-subscribed' };
  const stored = await call(
    client.GET('/v1/users/{user_id}/push_subscriptions', { params: { path: { user_id: userId } } }),
  );
  const mine = stored.find((s) => s.endpoint === current.endpoint);
  return mine ? { state: 'subscribed', id: mine.id } : { state: 'not-subscribed' };
}

/** Asks for permission, subscribes with the server's VAPID key and stores the subscription for the user. */
export async function subscribePush(userId: number): Promise<void> {
  const key = await call(client.GET('/v1/push/key'));
  if (!key.enabled || !key.public_key) throw new Error('Push notifications are not set up on this server.');
  if ((await Notification.requestPermission()) !== 'granted')
    throw new Error('Notifications are blocked for this site in the browser settings.');
  const registration = await navigator.serviceWorker.register(WORKER, { scope: '/app/' });
  await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(key.public_key),
    }));
  const { endpoint, keys } = subscription.toJSON();
  await call(
    client.POST('/v1/users/{user_id}/push_subscriptions', {
      params: { path: { user_id: userId } },
      body: { endpoint: endpoint ?? '', keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' } },
    }),
  );
}

/** Stops push on this device: the server forgets the subscription and the browser drops it. */
export async function unsubscribePush(userId: number, id: number): Promise<void> {
  await call(
    client.DELETE('/v1/users/{user_id}/push_subscriptions/{id}', { params: { path: { user_id: userId, id } } }),
  );
  const registration = await navigator.serviceWorker.getRegistration(WORKER);
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
}
