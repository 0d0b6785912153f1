import { useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { ApiError } from '../../stores/api.ts';
import { profileChanges, saveProfile, type Profile, type ProfileChanges, type RegionCountry } from '../../stores/profile.ts';
import RegionPicker, { type Place } from '../RegionPicker.tsx';
import { Notice } from './Notice.tsx';

interface Props {
  locale: Locale;
  profile: Profile;
  /** The brand's countries with their regions (GET /api/regions.php). */
  countries: RegionCountry[];
  /** The brand shows the city (visible_profile_fields). */
  showCity: boolean;
}

/** The region code of what the profile holds: the server stores a region's name, signup may store its code. */
function regionCode(countries: RegionCountry[], country: string, region: string | null): string {
  if (!region) return '';
  return countries.find((c) => c.code === country)?.regions.find((r) => r.code === region || r.name === region)?.code ?? '';
}

function placeOf(profile: Profile, countries: RegionCountry[]): Place {
  return { country: profile.country ?? '', region: regionCode(countries, profile.country ?? '', profile.region), city: profile.city ?? '' };
}

/**
 * Location settings (SPEC §2): country, region under the country's own label, city, and the
 * geolocation button with its locating and error states (the shared RegionPicker). A found
 * place fills the fields; the member saves it like any other change.
 */
export function LocationForm({ locale, profile, countries, showCity }: Props) {
  const o = { locale };
  const [place, setPlace] = useState<Place>(() => placeOf(profile, countries));
  const [errors, setErrors] = useState<Partial<Record<keyof Place, string>>>({});
  const [status, setStatus] = useState<{ tone: 'error' | 'success' | 'info'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  function change(next: Place) {
    setPlace(next);
    setErrors({});
    setStatus(null);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const before = placeOf(profile, countries);
    const changes: ProfileChanges = {};
    if (place.country !== before.country) changes.country = place.country;
    if (place.region !== before.region || changes.country) changes.region = place.region || null;
    if (showCity) Object.assign(changes, profileChanges(profile, { city: place.city }));
    if (Object.keys(changes).length === 0) {
      setStatus({ tone: 'info', text: m.profile_unchanged({}, o) });
      return;
    }
    setSaving(true);
    setStatus(null);
    setErrors({});
    try {
      const saved = await saveProfile(changes);
      setPlace(placeOf(saved, countries));
      setStatus({ tone: 'success', text: m.location_saved({}, o) });
    } catch (error) {
      const message = error instanceof ApiError && error.code !== 'network' ? error.message : m.error_generic({}, o);
      const field = error instanceof ApiError ? error.field : undefined;
      if (field === 'country' || field === 'region' || field === 'city') setErrors({ [field]: message });
      else setStatus({ tone: 'error', text: message });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-gray-700">{m.location_intro({}, o)}</p>
      <RegionPicker locale={locale} value={place} onChange={change} errors={errors} id="profile-location" />
      <Notice tone={status?.tone ?? 'success'}>{status?.text}</Notice>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={saving}>
          {saving ? m.profile_saving({}, o) : m.profile_save({}, o)}
        </button>
      </div>
    </form>
  );
}
