import { atom, onMount } from './browser-only.ts';
import type { EventData, EventName } from '../contract/events.ts';
import { showBanPage } from './api.ts';

/**
 * The event stream of this tab (GET /api/events.php, DESIGN §9): one EventSource, opened while
 * anything listens ($events mounted), closed when the page goes away and opened again when the
 * back-forward cache restores it. Each event names what
 * changed by id; the stores that own the data reload it. EventSource reconnects by itself and
 * sends the id of the last message event it saw (Last-Event-ID): the server first replays the
 * message events missed meanwhile. After a reconnect `reconnected` listeners reload the rest.
 */
export type StreamState = 'connecting' | 'open' | 'closed';
export const $events = atom<StreamState>('closed');

type Listener = (data: never) => void;
const listeners = new Map<string, Set<Listener>>();
/** Event types the open EventSource already forwards. */
const forwarded = new Set<string>();
let source: EventSource | null = null;

function forward(type: string): void {
  if (!source || forwarded.has(type) || type === 'reconnected') return;
  forwarded.add(type);
  source.addEventListener(type, (e) => {
    let data: unknown;
    try {
      data = JSON.parse((e as MessageEvent<string>).data);
    } catch {
      // A malformed event is ignored; the periodic refresh still brings the data.
      return;
    }
    for (const listener of listeners.get(type) ?? []) listener(data as never);
  });
}

/**
 * Calls `listener` with each event of `type` ('message', 'typing', 'read', 'like'…, typed by the
 * contract's union), or with null on 'reconnected'.
 */
export function onEvent<N extends EventName>(type: N, listener: (data: EventData<N>) => void): () => void;
export function onEvent(type: 'reconnected', listener: (data: null) => void): () => void;
export function onEvent(type: string, listener: (data: never) => void): () => void {
  const set = listeners.get(type) ?? new Set();
  set.add(listener as Listener);
  listeners.set(type, set);
  forward(type);
  return () => set.delete(listener as Listener);
}

function emit(type: string): void {
  for (const listener of listeners.get(type) ?? []) listener(null as never);
}

function open(): void {
  source = new EventSource('/api/events.php');
  forwarded.clear();
  for (const type of listeners.keys()) forward(type);
  let dropped = false;
  $events.set('connecting');
  // Suspended by staff: the server ends the stream; the tab shows the ban page.
  source.addEventListener('suspended', () => {
    close();
    showBanPage();
  });
  source.addEventListener('open', () => {
    $events.set('open');
    if (dropped) emit('reconnected');
    dropped = false;
  });
  source.addEventListener('error', () => {
    dropped = true;
    $events.set(source?.readyState === EventSource.CLOSED ? 'closed' : 'connecting');
  });
}

function close(): void {
  source?.close();
  source = null;
  forwarded.clear();
  $events.set('closed');
}

onMount($events, () => {
  if (typeof EventSource === 'undefined') return;
  open();
  // Leaving closes the stream; a page restored from the back-forward cache opens it again and
  // reloads what may have changed meanwhile (as after a reconnect).
  const hide = () => close();
  const show = (e: PageTransitionEvent) => {
    if (!e.persisted || source) return;
    open();
    emit('reconnected');
  };
  addEventListener('pagehide', hide);
  addEventListener('pageshow', show);
  return () => {
    removeEventListener('pagehide', hide);
    removeEventListener('pageshow', show);
    close();
  };
});
