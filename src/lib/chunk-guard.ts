/**
 * The chunk-load guard (SPEC §8, §9): when a script chunk of the page fails to load (a deploy
 * replaced it, the network dropped), the page reloads once to get the new build, at most once per
 * 60 s so a chunk that stays missing never loops.
 */
export const CHUNK_RELOAD_GUARD_MS = 60_000; // SPEC §9: chunk-reload guard 60 s
const KEY = 'chunk_reload_at';

/** Whether to reload now, given when the page last reloaded for a chunk (ms, or null). */
export function shouldReloadForChunk(lastReloadAt: number | null, now: number): boolean {
  return lastReloadAt === null || !(now - lastReloadAt < CHUNK_RELOAD_GUARD_MS && now >= lastReloadAt);
}

/** The errors browsers give for a module or chunk that could not be fetched. */
export function isChunkLoadError(reason: unknown): boolean {
  const text = reason instanceof Error ? `${reason.name} ${reason.message}` : String(reason ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(text);
}

export function guardChunkLoads(): void {
  // A page being left cancels its pending loads: those failures are no reason to reload (the
  // reload would take the place of the page the member is going to).
  let leaving = false;
  addEventListener('beforeunload', () => (leaving = true));
  addEventListener('pagehide', () => (leaving = true));
  addEventListener('pageshow', () => (leaving = false));
  const reload = () => {
    if (leaving) return;
    const stored = Number(sessionStorage.getItem(KEY));
    if (!shouldReloadForChunk(Number.isFinite(stored) && stored > 0 ? stored : null, Date.now())) return;
    sessionStorage.setItem(KEY, String(Date.now()));
    location.reload();
  };
  // Vite's event for a failed preload of a dynamic import.
  addEventListener('vite:preloadError', (event) => {
    event.preventDefault();
    reload();
  });
  addEventListener('unhandledrejection', (event) => {
    if (isChunkLoadError(event.reason)) reload();
  });
}
