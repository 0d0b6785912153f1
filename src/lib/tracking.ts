/**
 * The traffic source of a visit (SPEC §3 "Tracking parameters stored", §6): the tracking
 * parameters of the address, remembered for the session as landing pages do. Signup sends them
 * along; the members search passes them so a visitor may search where the brand allows it.
 */
import { TRACKING_KEYS, type Tracking } from '../contract/enums.ts';

export type { Tracking };
export const TRACKING_PARAMS = TRACKING_KEYS;
const TRACKING_KEY = 'tracking';

/**
 * The tracking parameters of this visit: those in the URL (then remembered in sessionStorage, as
 * landing pages do) or else those a landing page stored earlier in this session.
 */
export function captureTracking(search: string, storage: Pick<Storage, 'getItem' | 'setItem'> | null): Tracking {
  const query = new URLSearchParams(search);
  const fromUrl: Tracking = {};
  for (const key of TRACKING_PARAMS) {
    const value = query.get(key);
    if (value) fromUrl[key] = value.slice(0, 200);
  }
  try {
    if (Object.keys(fromUrl).length > 0) {
      storage?.setItem(TRACKING_KEY, JSON.stringify(fromUrl));
      return fromUrl;
    }
    const stored = JSON.parse(storage?.getItem(TRACKING_KEY) ?? 'null') as Record<string, unknown> | null;
    const tracking: Tracking = {};
    for (const key of TRACKING_PARAMS) if (typeof stored?.[key] === 'string' && stored[key]) tracking[key] = stored[key];
    return tracking;
  } catch {
    return fromUrl;
  }
}
