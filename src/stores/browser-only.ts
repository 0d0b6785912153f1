import { atom as nanoAtom, map as nanoMap, type WritableAtom } from 'nanostores';

/**
 * Stores that only the browser writes. On the server a store module is loaded once for the whole
 * process, so a store written while one member's page is rendered (Astro's server render of an
 * island) would be drawn into the next member's page: the first member's chats on everyone's
 * /chats. Every store of src/stores is made here: on the server its `set` and `setKey` throw, so
 * such a write fails the render instead of leaking, and the server's render of an island reads
 * only its own props. An island seeds a store from its props with `hydrateStore`, in the browser.
 */

/** Stores derived from others and mount hooks write nothing of their own: nanostores' own. */
export { computed, onMount } from 'nanostores';

/** The code runs on the server: Astro's server render, or a test in Node. */
export const ON_SERVER: boolean = import.meta.env.SSR || typeof window === 'undefined';

export class ServerStoreWrite extends Error {
  constructor() {
    super('A store was written on the server: stores are shared by every request there. Write it in the browser (an effect, an event handler, hydrateStore) and render the server\'s HTML from the island\'s props.');
    this.name = 'ServerStoreWrite';
  }
}

/** A store made by another library (the router): written in the browser only, like the rest. */
export function browserOnly<S extends object>(store: S): S {
  if (!ON_SERVER) return store;
  const refuse = () => {
    throw new ServerStoreWrite();
  };
  return Object.assign(store, 'setKey' in store ? { set: refuse, setKey: refuse } : { set: refuse });
}

/** nanostores' `atom`, written in the browser only. */
export const atom = ((...args: [unknown?]) => browserOnly(nanoAtom(...(args as [unknown])))) as typeof nanoAtom;

/** nanostores' `map`, written in the browser only. */
export const map = ((value?: object) => browserOnly(nanoMap(value))) as typeof nanoMap;

/**
 * Seeds a store with what the page rendered an island with, so the store starts where the
 * server's HTML is: in the browser, when the store holds its initial value still (nothing in
 * this tab has written it yet). On the server it does nothing: there the island renders its props.
 */
export function hydrateStore<T>(store: WritableAtom<T>, value: T): void {
  if (ON_SERVER) return;
  if (store.get() === store.init) store.set(value);
}
