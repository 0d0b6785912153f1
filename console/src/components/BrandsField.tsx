import type { ConsoleBrand } from '../../../src/contract/console.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';

/** A staff member's brand scope: every brand, or some of them (null means every brand, as the API takes it). */
export default function BrandsField({ locale, brands, value, onChange }: { locale: ConsoleLocale; brands: ConsoleBrand[]; value: string[] | null; onChange: (value: string[] | null) => void }) {
  const o = { locale };
  return (
    <fieldset className="flex flex-col gap-1 text-sm">
      <legend className="label">{m.staff_brands({}, o)}</legend>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={value === null} onChange={(e) => onChange(e.target.checked ? null : [])} />
        {m.scope_every({}, o)}
      </label>
      {value !== null && (
        <div className="flex flex-wrap gap-x-4 gap-y-1 pl-6">
          {brands.map((b) => (
            <label key={b.id} className="flex items-center gap-2">
              <input type="checkbox" checked={value.includes(b.id)} onChange={(e) => onChange(e.target.checked ? [...value, b.id] : value.filter((id) => id !== b.id))} />
              {b.name}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
