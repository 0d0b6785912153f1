/**
 * Country, region and city of a member (SPEC §3): the brand's countries, the region under the name
 * the country gives it (province, state, canton …), an optional city, and a "use my location"
 * button with its active and error states (SPEC §2, §4). Used by signup and the profile.
 */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../paraglide/messages.js';
import { placeName } from '../lib/place-names.ts';
import type { Locale } from '../lib/locales.ts';
import { $regions, loadRegions, locate, type Geocode, type RegionCountry } from '../stores/profile.ts';
import { inputClass, labelClass, FieldError, describedBy } from './signup/form.tsx';

export interface Place {
  country: string;
  region: string;
  city: string;
}

interface Props {
  locale: Locale;
  value: Place;
  onChange: (value: Place) => void;
  /** Errors per field: country, region, city. */
  errors?: Partial<Record<keyof Place, string>>;
  /** Prefix of the control ids. */
  id?: string;
  /** Whether the city may be left empty (it is optional at signup). */
  cityOptional?: boolean;
  /** The line shown after the location was found; by default the catalogue's "found" line. */
  foundText?: (place: string) => string;
}

type LocateNote =
  | { kind: 'idle' }
  | { kind: 'locating' }
  | { kind: 'found'; place: string }
  | { kind: 'error'; reason: 'unsupported' | 'denied' | 'unavailable' | 'not_found' | 'other_country' };

/** The region of a geocode in the country's list: by code, else by name. */
function matchRegion(country: RegionCountry, geocode: Geocode): string {
  const byCode = country.regions.find((r) => r.code === geocode.region);
  if (byCode) return byCode.code;
  const name = geocode.region_name?.toLocaleLowerCase();
  return country.regions.find((r) => r.name.toLocaleLowerCase() === name)?.code ?? '';
}

export default function RegionPicker({ locale, value, onChange, errors = {}, id = 'location', cityOptional = true, foundText }: Props) {
  const countries = useStore($regions);
  const [loadFailed, setLoadFailed] = useState(false);
  const [note, setNote] = useState<LocateNote>({ kind: 'idle' });

  useEffect(() => {
    loadRegions().catch(() => setLoadFailed(true));
  }, []);

  const countryNames = useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return (code: string) => names.of(code) ?? code;
  }, [locale]);

  const country = countries?.find((c) => c.code === value.country);

  async function useMyLocation() {
    setNote({ kind: 'locating' });
    const state = await locate();
    if (state.state !== 'found') {
      setNote({ kind: 'error', reason: state.state === 'error' ? state.reason : 'unavailable' });
      return;
    }
    const { geocode } = state;
    const list = countries ?? (await loadRegions().catch(() => []));
    const found = list.find((c) => c.code === geocode.country);
    if (!found) {
      setNote({ kind: 'error', reason: 'other_country' });
      return;
    }
    const region = matchRegion(found, geocode);
    onChange({ country: found.code, region, city: geocode.city ?? '' });
    const regionName = found.regions.find((r) => r.code === region)?.name;
    const place = [geocode.city, regionName, countryNames(found.code)].filter(Boolean).join(', ');
    setNote({ kind: 'found', place });
  }

  const errorText = {
    unsupported: m.location_unsupported({}, { locale }),
    denied: m.location_denied({}, { locale }),
    unavailable: m.location_unavailable({}, { locale }),
    not_found: m.location_not_found({}, { locale }),
    other_country: m.location_other_country({}, { locale }),
  };
  const locating = note.kind === 'locating';

  return (
    <div className="space-y-4">
      <div>
        <button
          type="button"
          className={`btn w-full border-2 border-dashed py-3 ${locating ? 'border-primary bg-primary/10 text-primary' : 'border-primary/50 bg-white text-primary hover:bg-primary/5'}`}
          onClick={useMyLocation}
          disabled={locating}
          aria-busy={locating || undefined}
          aria-describedby={`${id}-locate-status`}
        >
          {locating ? (
            <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-primary/30 border-t-primary" />
          ) : (
            <PinIcon />
          )}
          {locating ? m.location_locating({}, { locale }) : m.location_locate({}, { locale })}
        </button>
        <div id={`${id}-locate-status`} aria-live="polite">
          {note.kind === 'found' && (
            <p className="mt-2 rounded-xl bg-success/10 px-3 py-2 text-sm text-[#0f4d2a]">
              <span aria-hidden="true">✓ </span>
              {foundText ? foundText(note.place) : m.location_found({ place: note.place }, { locale })}
            </p>
          )}
          {note.kind === 'error' && (
            <p className="mt-2 rounded-xl bg-warning/20 px-3 py-2 text-sm text-[#5c4700]">
              <span aria-hidden="true">⚠ </span>
              {errorText[note.reason]}
            </p>
          )}
        </div>
      </div>

      {loadFailed && !countries && <p className="text-sm text-danger">{m.error_generic({}, { locale })}</p>}

      <div>
        <label htmlFor={`${id}-country`} className={labelClass}>
          {m.profile_country({}, { locale })}
        </label>
        <select
          id={`${id}-country`}
          className={`${inputClass} appearance-auto`}
          value={value.country}
          onChange={(e) => onChange({ country: e.currentTarget.value, region: '', city: value.city })}
          autoComplete="country"
          {...describedBy(`${id}-country`, errors.country)}
        >
          <option value="" disabled>
            {m.profile_choose({}, { locale })}
          </option>
          {(countries ?? []).map((c) => (
            <option key={c.code} value={c.code}>
              {countryNames(c.code)}
            </option>
          ))}
          {/* Until the list is there, the chosen country still shows. */}
          {!countries && value.country && <option value={value.country}>{countryNames(value.country)}</option>}
        </select>
        <FieldError id={`${id}-country`} message={errors.country} />
      </div>

      {country && country.regions.length > 0 && (
        <div>
          <label htmlFor={`${id}-region`} className={labelClass}>
            {country.label}
          </label>
          <select
            id={`${id}-region`}
            className={`${inputClass} appearance-auto`}
            value={value.region}
            onChange={(e) => onChange({ ...value, region: e.currentTarget.value })}
            autoComplete="address-level1"
            {...describedBy(`${id}-region`, errors.region)}
          >
            <option value="" disabled>
              {m.profile_choose({}, { locale })}
            </option>
            {country.regions.map((r) => (
              <option key={r.code} value={r.code}>
                {placeName(country.code, r.name, locale)}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-region`} message={errors.region} />
        </div>
      )}

      <div>
        <label htmlFor={`${id}-city`} className={labelClass}>
          {m.profile_city({}, { locale })}
          {cityOptional && <span className="ml-1 font-normal text-gray-500">({m.form_optional({}, { locale })})</span>}
        </label>
        <input
          id={`${id}-city`}
          className={inputClass}
          value={value.city}
          maxLength={100}
          onChange={(e) => onChange({ ...value, city: e.currentTarget.value })}
          autoComplete="address-level2"
          {...describedBy(`${id}-city`, errors.city)}
        />
        <FieldError id={`${id}-city`} message={errors.city} />
      </div>
    </div>
  );
}

function PinIcon() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M12 22s7-6.2 7-12a7 7 0 0 0-14 0c0 5.8 7 12 7 12z" />
      <circle cx="12" cy="10" r="2.5" />
    </svg>
  );
}
