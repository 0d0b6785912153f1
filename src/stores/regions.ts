import { atom } from './browser-only.ts';
import { api } from './api.ts';

/**
 * The brand's countries with their regions (GET /api/regions.php), for the profile form, signup's
 * place and the search's region filter. A store of its own: the search loads it without the profile.
 */
export type RegionCountry = { code: string; name: string; label_key: string; label: string; regions: { code: string; name: string }[] };

/** SPEC §7: interests and regions are loaded once and cached. */
export const $regions = atom<RegionCountry[] | null>(null);

export async function loadRegions(): Promise<RegionCountry[]> {
  const cached = $regions.get();
  if (cached) return cached;
  const { countries } = await api('GET', '/regions.php');
  $regions.set(countries);
  return countries;
}
