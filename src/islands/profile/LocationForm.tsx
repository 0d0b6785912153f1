import { useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { ApiError } from '../../stores/api.ts';
import { $geolocation, locate, profileChanges, saveProfile, type Geocode, type Profile, type RegionCountry } from '../../stores/profile.ts';
import { Field } from './Field.tsx';
import { Notice } from './Notice.tsx';

interface Props {
  locale: Locale;
  profile: Profile;
  /** The brand's countries with their regions (GET /api/regions.php). */
  countries: RegionCountry[];
  showRegion: boolean;
  showCity: boolean;
}

type Values = { country: string; region: string; city: string };
const valuesOf = (p: Profile): Values => ({ country: p.country ?? '', region: p.region ?? '', city: p.city ?? '' });

/**
 * Location settings (SPEC §2): country, region under the country's own label, city, and the
 * geolocation button with its locating and error states. A found place fills the fields; the
 * member saves it like any other change.
 */
export function LocationForm({ locale, profile, countries, showRegion, showCity }: Props) {
  const o = { locale };
  const geo = useStore($geolocation);
  const [values, setValues] = useState<Values>(() => valuesOf(profile));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ tone: 'error' | 'success' | 'info'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  /** The place the last geolocation filled in, announced until the member saves. */
  const [found, setFound] = useState('');
  const country = countries.find((c) => c.code === values.country);
  // A region saved under another spelling still shows as chosen.
  const regionValue = country?.regions.find((r) => r.name === values.region || r.code === values.region)?.name ?? values.region;

  function set(field: keyof Values, value: string) {
    setValues((v) => ({ ...v, [field]: value, ...(field === 'country' && value !== v.country ? { region: '' } : {}) }));
    setErrors({});
  }

  function fill(geocode: Geocode): boolean {
    const found = countries.find((c) => c.code === geocode.country);
    if (!found) return false;
    const region = found.regions.find((r) => r.code === geocode.region || r.name === geocode.region_name);
    setValues((v) => ({
      country: showRegion ? found.code : v.country,
      region: showRegion ? (region?.name ?? '') : v.region,
      city: showCity ? geocode.city : v.city,
    }));
    setFound([geocode.city, region?.name ?? geocode.region_name].filter(Boolean).join(', '));
    return true;
  }

  async function onLocate() {
    setStatus(null);
    setFound('');
    const result = await locate();
    if (result.state === 'found' && !fill(result.geocode)) {
      setStatus({ tone: 'info', text: m.location_other_country({}, o) });
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    // The server ties the country to the region field (it names what the region belongs to).
    const edited = { ...(showRegion ? { country: values.country, region: regionValue } : {}), ...(showCity ? { city: values.city } : {}) };
    const changes = profileChanges(profile, edited);
    if (Object.keys(changes).length === 0) {
      setStatus({ tone: 'info', text: m.profile_unchanged({}, o) });
      return;
    }
    setSaving(true);
    setStatus(null);
    setErrors({});
    try {
      const saved = await saveProfile(changes);
      setValues(valuesOf(saved));
      setFound('');
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

  const locating = geo.state === 'locating';
  const geoMessage =
    geo.state === 'error'
      ? {
          denied: m.location_denied({}, o),
          unavailable: m.location_unavailable({}, o),
          unsupported: m.location_unsupported({}, o),
          not_found: m.location_not_found({}, o),
        }[geo.reason]
      : null;

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-gray-700">{m.location_intro({}, o)}</p>
      <div className="space-y-2">
        <button type="button" className="btn-light w-full sm:w-auto" onClick={() => void onLocate()} disabled={locating} aria-describedby="location-geo-status">
          {locating ? (
            <span className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-primary border-t-transparent" aria-hidden="true" />
          ) : (
            <span aria-hidden="true">📍</span>
          )}
          {locating ? m.location_locating({}, o) : m.location_locate({}, o)}
        </button>
        <div id="location-geo-status">
          {geoMessage ? (
            <Notice tone="error">{geoMessage}</Notice>
          ) : (
            <Notice tone="info">{found ? m.location_found({ place: found }, o) : ''}</Notice>
          )}
        </div>
      </div>

      <div className="grid gap-4 md:grid-cols-3">
        {showRegion && (
          <Field id="profile-country" label={m.field_country({}, o)} error={errors.country}>
            {(p) => (
              <select {...p} value={values.country} onChange={(e) => set('country', e.currentTarget.value)}>
                {!country && <option value="">{m.profile_choose({}, o)}</option>}
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>{c.name}</option>
                ))}
              </select>
            )}
          </Field>
        )}
        {showRegion && (
          <Field id="profile-region" label={country?.label ?? m.field_region({}, o)} error={errors.region}>
            {(p) => (
              <select {...p} value={regionValue} onChange={(e) => set('region', e.currentTarget.value)} disabled={!country}>
                <option value="">{m.profile_choose({}, o)}</option>
                {country?.regions.map((r) => (
                  <option key={r.code} value={r.name}>{r.name}</option>
                ))}
              </select>
            )}
          </Field>
        )}
        {showCity && (
          <Field id="profile-city" label={m.field_city({}, o)} error={errors.city}>
            {(p) => <input {...p} type="text" autoComplete="address-level2" maxLength={100} value={values.city} onChange={(e) => set('city', e.currentTarget.value)} />}
          </Field>
        )}
      </div>

      <Notice tone={status?.tone ?? 'success'}>{status?.text}</Notice>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={saving}>
          {saving ? m.profile_saving({}, o) : m.profile_save({}, o)}
        </button>
      </div>
    </form>
  );
}
