/**
 * The filter form of the members search (SPEC §2, §3 search state): gender, country, the region
 * under the name the country gives it, and an age range. The brand's search_fields choose which
 * filters show. Nothing is searched until the form is sent.
 */
import { useEffect, useId } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../../paraglide/messages.js';
import { placeName } from '../../lib/place-names.ts';
import type { Locale } from '../../lib/locales.ts';
import { $regions, loadRegions } from '../../stores/regions.ts';
import { EMPTY_FILTERS, SEARCH_GENDER_CHOICES, SEARCH_MAX_AGE, SEARCH_MIN_AGE, type SearchFilters as Filters } from '../../stores/search.ts';

// The forms' label look (signup/form.tsx labelClass), written here so the search's first screen
// does not load the form components for one class list.
const labelClass = 'mb-1.5 block text-sm font-semibold text-gray-800';

/** Named one by one (not m[key]) so the bundle holds these messages, not the catalogue. */
const GENDER_LABELS = { all: m.search_gender_all, male: m.option_gender_male, female: m.option_gender_female } as const;

export type SearchField = 'gender' | 'country' | 'region' | 'age';

interface Props {
  locale: Locale;
  value: Filters;
  onChange: (value: Filters) => void;
  /** Runs the search with these filters (the form's, or none after "clear filters"). */
  onSubmit: (filters: Filters) => void;
  /** The brand's countries with their names in the visitor's language. */
  countries: { code: string; name: string }[];
  fields: readonly SearchField[];
  busy: boolean;
  /** The field an API error is about (aria-invalid on its control). */
  invalidField?: string;
}

const selectClass =
  'block w-full appearance-auto rounded-xl border border-gray-300 bg-white px-3 py-2.5 text-base text-[#1d1a22] shadow-sm hover:border-gray-400 focus:border-primary focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-primary aria-[invalid=true]:border-danger';

const AGES = Array.from({ length: SEARCH_MAX_AGE - SEARCH_MIN_AGE + 1 }, (_, i) => SEARCH_MIN_AGE + i);

export default function SearchFilters({ locale, value, onChange, onSubmit, countries, fields, busy, invalidField }: Props) {
  const o = { locale };
  const id = useId();
  const regions = useStore($regions);
  const show = (field: SearchField) => fields.includes(field);
  // With one country there is nothing to choose: its regions are offered straight away.
  const onlyCountry = countries.length === 1 ? countries[0]!.code : '';
  const regionCountry = regions?.find((c) => c.code === (value.country || onlyCountry));

  useEffect(() => {
    if (show('region')) loadRegions().catch(() => undefined); // without regions the filter is simply not offered
  }, []);

  const set = (patch: Partial<Filters>) => onChange({ ...value, ...patch });
  const invalid = (field: string) => (invalidField === field ? ('true' as const) : undefined);
  /** One end of the age range: a labelled select of every searchable age. */
  const ageSelect = (field: 'min_age' | 'max_age', label: string, unset: number) => (
    <>
      <label htmlFor={`${id}-${field.replace('_', '-')}`} className="sr-only">
        {label}
      </label>
      <select
        id={`${id}-${field.replace('_', '-')}`}
        className={selectClass}
        value={value[field] ?? unset}
        onChange={(e) => set({ [field]: Number(e.currentTarget.value) })}
        aria-invalid={invalid(field)}
      >
        {AGES.map((age) => (
          <option key={age} value={age}>
            {age}
          </option>
        ))}
      </select>
    </>
  );

  return (
    <form
      role="search"
      aria-label={m.search_filters({}, o)}
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(value);
      }}
    >
      {show('gender') && (
        <fieldset>
          <legend className={labelClass}>{m.field_gender({}, o)}</legend>
          <div className="grid grid-cols-3 gap-1 rounded-full bg-gray-100 p-1">
            {/* Everyone is both genders; no choice at all ('') is what the member's profile looks for. */}
            {SEARCH_GENDER_CHOICES.map((gender) => (
              <label key={gender} className="relative">
                <input
                  type="radio"
                  name={`${id}-gender`}
                  value={gender}
                  checked={value.gender === gender}
                  onChange={() => set({ gender })}
                  className="peer sr-only"
                  aria-invalid={invalid('gender')}
                />
                <span className="block cursor-pointer rounded-full px-2 py-2 text-center text-sm font-semibold text-gray-700 transition-colors hover:text-primary peer-checked:bg-white peer-checked:text-primary peer-checked:shadow-sm peer-focus-visible:outline-3 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-primary">
                  {GENDER_LABELS[gender]({}, o)}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      {show('country') && countries.length > 1 && (
        <div>
          <label htmlFor={`${id}-country`} className={labelClass}>
            {m.field_country({}, o)}
          </label>
          <select
            id={`${id}-country`}
            className={selectClass}
            value={value.country}
            onChange={(e) => set({ country: e.currentTarget.value, region: '' })}
            aria-invalid={invalid('country')}
          >
            <option value="">{m.search_country_all({}, o)}</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}

      {show('region') && regionCountry && regionCountry.regions.length > 0 && (
        <div>
          <label htmlFor={`${id}-region`} className={labelClass}>
            {regionCountry.label}
          </label>
          <select
            id={`${id}-region`}
            className={selectClass}
            value={value.region}
            onChange={(e) => set({ region: e.currentTarget.value, country: value.country || onlyCountry })}
            aria-invalid={invalid('region')}
          >
            <option value="">{m.search_region_all({}, o)}</option>
            {regionCountry.regions.map((r) => (
              <option key={r.code} value={r.code}>
                {placeName(regionCountry.code, r.name, locale)}
              </option>
            ))}
          </select>
        </div>
      )}

      {show('age') && (
        <fieldset>
          <legend className={labelClass}>{m.search_age({}, o)}</legend>
          <div className="flex items-center gap-2">
            {ageSelect('min_age', m.search_min_age({}, o), SEARCH_MIN_AGE)}
            <span aria-hidden="true" className="text-gray-500">
              –
            </span>
            {ageSelect('max_age', m.search_max_age({}, o), SEARCH_MAX_AGE)}
          </div>
        </fieldset>
      )}

      <div className="flex flex-wrap items-center gap-3 pt-1">
        <button type="submit" className="btn-primary flex-1 py-2.5" aria-busy={busy || undefined}>
          <SearchIcon />
          {m.search_submit({}, o)}
        </button>
        <button
          type="button"
          className="btn bg-transparent px-3 py-2.5 text-sm text-gray-700 underline hover:text-primary"
          onClick={() => {
            onChange({ ...EMPTY_FILTERS });
            onSubmit({ ...EMPTY_FILTERS });
          }}
        >
          {m.search_reset({}, o)}
        </button>
      </div>
    </form>
  );
}

function SearchIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
      <circle cx="11" cy="11" r="7" />
      <path d="M20 20l-4-4" />
    </svg>
  );
}
