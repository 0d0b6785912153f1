import { atom, computed } from './browser-only.ts';
import type { BodyOf } from '../contract/endpoints.ts';
import { api } from './api.ts';

/**
 * Web push in the browser (SPEC §2 push opt-in alert, §4 push states, §7 POST /api/user.php?push=1,
 * §9): the service worker (registered with version 2), the browser's subscription sent to the
 * server, and the messages the worker and the page exchange (NEW_PUSH_MESSAGE: a push arrived,
 * reload; NEW_PUSH_CLICK: the member clicked the notification, open its page).
 */

/** SPEC §7: the push service worker is registered with version 2. */
export const SW_VERSION = 2;
export const SW_URL = `/sw.js?v=${SW_VERSION}`;

/** SPEC §4: unknown or capable, subscribed, denied; `unsupported` where the browser has no push. */
export type PushState = 'unknown' | 'unsupported' | 'capable' | 'subscribed' | 'denied';
export const $push = atom<PushState>('unknown');
/** Subscribed changes the refresh period (SPEC §4, §9). */
export const $pushSubscribed = computed($push, (state) => state === 'subscribed');
/** The last push message the worker passed on (SPEC §3 "last push message"). */
export const $lastPush = atom<{ url?: string; type?: string } | null>(null);

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Registers the worker and reads where push stands, without asking anything. `onPush` runs for
 * each NEW_PUSH_MESSAGE (chats and likes reload), a NEW_PUSH_CLICK opens the page it names.
 */
export async function startPush(onPush: () => void): Promise<void> {
  if (!pushSupported()) {
    $push.set('unsupported');
    return;
  }
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: string }>) => {
    const data = event.data ?? {};
    if (data.type === 'NEW_PUSH_MESSAGE') {
      $lastPush.set(data);
      onPush();
    } else if (data.type === 'NEW_PUSH_CLICK' && data.url && data.url.startsWith('/')) {
      location.assign(data.url);
    }
  });
  try {
    const registration = await navigator.serviceWorker.register(SW_URL, { scope: '/' });
    if (Notification.permission === 'denied') return $push.set('denied');
    const subscription = await registration.pushManager.getSubscription();
    $push.set(subscription && Notification.permission === 'granted' ? 'subscribed' : 'capable');
  } catch {
    $push.set('unsupported');
  }
}

/** Asks the browser's permission, subscribes with the brand's VAPID key and sends it to the server. */
export async function subscribePush(publicKey: string): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    $push.set(permission === 'denied' ? 'denied' : 'capable');
    return $push.get();
  }
  const registration = await navigator.serviceWorker.register(SW_URL, { scope: '/' });
  await navigator.serviceWorker.ready;
  const subscription = (await registration.pushManager.getSubscription()) ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  await api('POST', '/user.php?push=1', { subscription: subscription.toJSON() as BodyOf<'POST user.php?push=1'>['subscription'] });
  $push.set('subscribed');
  return 'subscribed';
}
