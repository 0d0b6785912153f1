import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';
import { useHydrated } from './useHydrated.ts';

/**
 * A store's value once the island has hydrated; before that (the server's HTML and the render that
 * hydrates it) what the page gave the island. The server never shows a store's value (one store
 * serves every request there, src/stores/browser-only.ts), and the browser's first render matches
 * the server's even when another island or an earlier page of the tab has filled the store.
 */
export function useStoreOnceHydrated<T>(store: ReadableAtom<T>, fromPage: T): T {
  const hydrated = useHydrated();
  const stored = useStore(store);
  return hydrated ? stored : fromPage;
}
