import { useEffect, useState } from 'react';

/**
 * False in the server's HTML and until the island has hydrated, then true. A button that needs
 * the island's code is disabled until then, so a click on a slow phone is never lost: the
 * browser (and a test) waits for it to come alive instead.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
