import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $user, setUser } from '../../stores/user.ts';
import type { SiteUser } from '../../contract/user.ts';

/**
 * The logged-in member as the page rendered it, then as the store has it. Stores are seeded in
 * the browser only: on the server a module-level atom would be shared by every request.
 */
export function useSeedUser(initial: SiteUser | null): SiteUser | null {
  const user = useStore($user);
  useEffect(() => {
    if ($user.get() === null && initial) setUser(initial);
  }, [initial]);
  return user ?? initial;
}
