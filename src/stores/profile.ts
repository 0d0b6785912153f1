import { atom } from './browser-only.ts';
import type { BodyOf } from '../contract/endpoints.ts';
import { api } from './api.ts';
import { loadUser } from './user.ts';

/** The descriptive fields of SPEC §3 a member edits on /profile, as the API names them. */
export const PROFILE_TEXT_FIELDS = ['name', 'birth_date', 'country', 'region', 'city', 'about'] as const;
/** Fields chosen from a list that GET /api/profile-options.php gives. */
export const PROFILE_CHOICE_FIELDS = [
  'gender',
  'sexuality',
  'hair_color',
  'eye_color',
  'body_type',
  'relationship_status',
  'tattoos',
  'reason',
] as const;
export type ProfileChoiceField = (typeof PROFILE_CHOICE_FIELDS)[number];
export type ProfileScalarField = (typeof PROFILE_TEXT_FIELDS)[number] | ProfileChoiceField;

/** The member's own profile (GET /api/profile.php). Fields not filled in are null. */
export type Profile = { id: number; interests: string[] } & Record<ProfileScalarField, string | null>;
/** What PUT /api/profile.php takes: only the fields that changed. */
export type ProfileChanges = Partial<Record<ProfileScalarField, string | null>> & { interests?: string[] };

export type Option = { key: string; label: string };
export interface ProfileOptions {
  fields: Partial<Record<ProfileChoiceField, Option[]>>;
  visible_profile_fields: string[];
}
export type Interest = { key: string; icon: string; label: string };
export { $regions, loadRegions, type RegionCountry } from './regions.ts';
import { loadRegions } from './regions.ts';

export const $profile = atom<Profile | null>(null);
export const $profileOptions = atom<ProfileOptions | null>(null);
/** SPEC §7: interests and regions are loaded once and cached. */
export const $interests = atom<Interest[] | null>(null);

export async function loadProfile(): Promise<Profile> {
  const { profile } = await api('GET', '/profile.php');
  $profile.set(profile);
  return profile;
}

/** Loads what the profile form needs: the profile, the option lists, the interests and the regions. */
export async function loadProfileForm(): Promise<void> {
  await Promise.all([
    loadProfile(),
    $profileOptions.get() ?? api('GET', '/profile-options.php').then((o) => $profileOptions.set(o)),
    loadInterests(),
    loadRegions(),
  ]);
}

export async function loadInterests(): Promise<Interest[]> {
  const cached = $interests.get();
  if (cached) return cached;
  const { interests } = await api('GET', '/interests.php');
  $interests.set(interests);
  return interests;
}


/** The fields of `next` that differ from `current`; interests compare as sets. */
export function profileChanges(current: Profile, next: ProfileChanges): ProfileChanges {
  const changes: ProfileChanges = {};
  for (const [key, value] of Object.entries(next) as [keyof ProfileChanges, unknown][]) {
    if (key === 'interests') {
      const before = new Set(current.interests);
      const after = value as string[];
      if (after.length !== before.size || after.some((i) => !before.has(i))) changes.interests = after;
    } else if ((current[key] ?? '') !== (value ?? '')) {
      // Name and birth date are required: an emptied one goes out as '' for the server's own message.
      changes[key] = value === '' && key !== 'name' && key !== 'birth_date' ? null : (value as string | null);
    }
  }
  return changes;
}

/** Saves the changed fields (PUT /api/profile.php); the user is re-fetched so the name in the top bar follows. */
export async function saveProfile(changes: ProfileChanges): Promise<Profile> {
  const { profile } = await api('PUT', '/profile.php', changes as BodyOf<'PUT profile.php'>);
  $profile.set(profile);
  if ('name' in changes || 'country' in changes) void loadUser().catch(() => undefined);
  return profile;
}

// ---- Location settings: the geolocation button (SPEC §2, §4, §9) ----

export type Geocode = { country: string; region: string | null; region_name: string | null; city: string };
/** What pressing the geolocation button came to (SPEC §4 geolocation permission and geocode). */
export type GeolocationState =
  | { state: 'found'; geocode: Geocode }
  | { state: 'error'; reason: 'unsupported' | 'denied' | 'unavailable' | 'not_found' };

export const GEOLOCATION_CACHE_MS = 60 * 60 * 1000; // SPEC §9: geolocation cache 1 hour
const GEOLOCATION_CACHE_KEY = 'geolocation';

type CachedGeocode = { geocode: Geocode | false; at: number };

/** The geocode found within the last hour, `false` when nothing was near, undefined when none is cached. */
export function cachedGeocode(now = Date.now(), storage: Pick<Storage, 'getItem'> = localStorage): Geocode | false | undefined {
  try {
    const cached = JSON.parse(storage.getItem(GEOLOCATION_CACHE_KEY) ?? 'null') as CachedGeocode | null;
    if (!cached || typeof cached.at !== 'number' || now - cached.at >= GEOLOCATION_CACHE_MS || now < cached.at) return undefined;
    return cached.geocode;
  } catch {
    return undefined;
  }
}

function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) =>
    navigator.geolocation.getCurrentPosition(resolve, reject, { enableHighAccuracy: false, timeout: 15_000, maximumAge: GEOLOCATION_CACHE_MS }),
  );
}

/**
 * Asks the browser where the member is and reverse-geocodes it (GET /api/geocode.php). The
 * answer is kept in localStorage with its timestamp for an hour, so pressing again asks nobody.
 */
export async function locate(): Promise<GeolocationState> {
  const cached = cachedGeocode();
  if (cached !== undefined) return cached ? { state: 'found', geocode: cached } : { state: 'error', reason: 'not_found' };
  if (!('geolocation' in navigator)) return { state: 'error', reason: 'unsupported' };
  let position: GeolocationPosition;
  try {
    position = await currentPosition();
  } catch (error) {
    const denied = (error as GeolocationPositionError).code === 1; // PERMISSION_DENIED
    return { state: 'error', reason: denied ? 'denied' : 'unavailable' };
  }
  let geocode: Geocode | false;
  try {
    ({ geocode } = await api('GET', '/geocode.php', undefined, {
      lat: position.coords.latitude.toFixed(4),
      lon: position.coords.longitude.toFixed(4),
    }));
  } catch {
    // SPEC §7: on failure the geocode is set to false.
    return { state: 'error', reason: 'unavailable' };
  }
  try {
    localStorage.setItem(GEOLOCATION_CACHE_KEY, JSON.stringify({ geocode, at: Date.now() } satisfies CachedGeocode));
  } catch {
    // Private mode: no cache, still a result.
  }
  return geocode ? { state: 'found', geocode } : { state: 'error', reason: 'not_found' };
}
