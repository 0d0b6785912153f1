/**
 * The filters of a figures page: a brand (or every brand in scope), a range of days, and the CSV of
 * the table shown with the same filters.
 */
import type { FormEvent } from 'react';
import type { ConsoleBrand } from '../../../src/contract/console.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';

type Range = { brand?: string; from?: string; to?: string };

interface Props {
  locale: ConsoleLocale;
  brands: readonly ConsoleBrand[];
  /** Whether "every brand" may be chosen; else a brand is required. */
  anyBrand: boolean;
  form: Range;
  onChange: (form: Range) => void;
  onSubmit: (event: FormEvent) => void;
  loading: boolean;
  /** The CSV download of the table shown, once there is one. */
  csv: string | undefined;
}

export default function RangeFilters({ locale, brands, anyBrand, form, onChange, onSubmit, loading, csv }: Props) {
  const o = { locale };
  const set = (name: keyof Range) => (e: { target: { value: string } }) => onChange({ ...form, [name]: e.target.value || undefined });
  return (
    <form className="panel grid grid-cols-2 gap-3 p-3 md:grid-cols-[minmax(0,1fr)_repeat(2,10rem)_auto]" onSubmit={onSubmit}>
      <div className="col-span-2 md:col-span-1">
        <label className="label" htmlFor="f-brand">{m.brand({}, o)}</label>
        <select id="f-brand" className="field" value={form.brand ?? ''} onChange={set('brand')} required={!anyBrand}>
          <option value="">{anyBrand ? m.any({}, o) : m.choose_brand({}, o)}</option>
          {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
        </select>
      </div>
      <div>
        <label className="label" htmlFor="f-from">{m.range_from({}, o)}</label>
        <input id="f-from" className="field" type="date" value={form.from ?? ''} onChange={set('from')} />
      </div>
      <div>
        <label className="label" htmlFor="f-to">{m.range_to({}, o)}</label>
        <input id="f-to" className="field" type="date" value={form.to ?? ''} onChange={set('to')} />
      </div>
      <div className="col-span-2 flex flex-wrap items-end gap-2 md:col-span-1">
        <button className="btn-primary" disabled={loading}>{m.show({}, o)}</button>
        {csv && <a className="btn-light" href={csv} download>{m.download_csv({}, o)}</a>}
      </div>
    </form>
  );
}
