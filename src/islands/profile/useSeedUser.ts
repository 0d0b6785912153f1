import { useEffect } from 'react';
import { $user } from '../../stores/user.ts';
import { hydrateStore } from '../../stores/browser-only.ts';
import type { SiteUser } from '../../contract/user.ts';
import { useStoreOnceHydrated } from '../useStoreOnceHydrated.ts';

/**
 * The logged-in member as the page rendered it, then (once hydrated) as the store has it. Stores
 * are seeded in the browser only: on the server a module-level atom would be shared by every request.
 */
export function useSeedUser(initial: SiteUser | null): SiteUser | null {
  useEffect(() => {
    if (initial) hydrateStore($user, initial);
  }, [initial]);
  return useStoreOnceHydrated($user, initial) ?? initial;
}
