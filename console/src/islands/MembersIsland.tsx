/**
 * The members search (issue 22): by e-mail, name or profile id; brand, status, signup date range and
 * traffic source; pages of 50, newest first. A row leads to the member's page.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { MEMBER_STATUSES } from '../../../src/contract/console.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $members, MEMBER_FILTERS, searchMembers, type MemberFilters } from '../stores/members.ts';
import { filtersFromAddress } from '../lib/filters.ts';
import { label } from '../lib/labels.ts';
import { formatDate, sourceText } from '../lib/format.ts';
import Alert from '../components/Alert.tsx';
import StatusBadge from '../components/StatusBadge.tsx';
import Pager from '../components/Pager.tsx';

export default function MembersIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const { result, loading, error, filters } = useStore($members);
  const [form, setForm] = useState<MemberFilters>({});
  useEffect(() => {
    const initial = filtersFromAddress(MEMBER_FILTERS);
    setForm(initial);
    void loadMe().catch(() => undefined);
    void searchMembers(initial);
  }, []);
  const set = (name: keyof MemberFilters) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void searchMembers({ ...form, page: undefined });
  };
  const brands = me?.brands ?? [];
  const brandName = (id: string) => brands.find((b) => b.id === id)?.name ?? id;
  const page = Number(filters.page ?? 1);

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-bold">{m.nav_members({}, o)}</h1>
      <form role="search" className="panel grid grid-cols-2 gap-3 p-3 md:grid-cols-4 xl:grid-cols-[minmax(12rem,2fr)_repeat(2,minmax(0,1fr))_repeat(2,9.5rem)_minmax(0,1fr)_auto]" onSubmit={submit}>
        <div className="col-span-2 md:col-span-2 xl:col-span-1">
          <label className="label" htmlFor="f-q">{m.members_find({}, o)}</label>
          <input id="f-q" className="field" type="search" placeholder={m.members_find_placeholder({}, o)} value={form.q ?? ''} onChange={set('q')} />
        </div>
        <div>
          <label className="label" htmlFor="f-brand">{m.brand({}, o)}</label>
          <select id="f-brand" className="field" value={form.brand ?? ''} onChange={set('brand')}>
            <option value="">{m.any({}, o)}</option>
            {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
          </select>
        </div>
        <div>
          <label className="label" htmlFor="f-status">{m.status({}, o)}</label>
          <select id="f-status" className="field" value={form.status ?? ''} onChange={set('status')}>
            <option value="">{m.any({}, o)}</option>
            {MEMBER_STATUSES.map((s) => <option key={s} value={s}>{label(`status_${s}`, locale)}</option>)}
          </select>
        </div>
        <div>
          <label className="label" htmlFor="f-from">{m.signup_from({}, o)}</label>
          <input id="f-from" className="field" type="date" value={form.from ?? ''} onChange={set('from')} />
        </div>
        <div>
          <label className="label" htmlFor="f-to">{m.signup_to({}, o)}</label>
          <input id="f-to" className="field" type="date" value={form.to ?? ''} onChange={set('to')} />
        </div>
        <div>
          <label className="label" htmlFor="f-source">{m.source({}, o)}</label>
          <input id="f-source" className="field" value={form.source ?? ''} onChange={set('source')} />
        </div>
        <div className="col-span-2 flex items-end gap-2 md:col-span-2 xl:col-span-1">
          <button className="btn-primary" disabled={loading}>
            <span className="i-tabler-search" aria-hidden="true" />
            {m.search({}, o)}
          </button>
          <button type="button" className="btn-light" onClick={() => { setForm({}); void searchMembers({}); }}>{m.clear({}, o)}</button>
        </div>
      </form>
      <Alert>{error}</Alert>
      <div className="panel overflow-x-auto" aria-busy={loading}>
        <table className="data-table">
          <caption className="sr-only">{m.nav_members({}, o)}</caption>
          <thead>
            <tr>
              <th scope="col" className="num">{m.col_id({}, o)}</th>
              <th scope="col">{m.col_name({}, o)}</th>
              <th scope="col">{m.email({}, o)}</th>
              <th scope="col">{m.brand({}, o)}</th>
              <th scope="col">{m.status({}, o)}</th>
              <th scope="col" className="num">{m.col_credits({}, o)}</th>
              <th scope="col" className="hidden lg:table-cell">{m.col_signup({}, o)}</th>
              <th scope="col" className="hidden xl:table-cell">{m.source({}, o)}</th>
            </tr>
          </thead>
          <tbody>
            {result?.members.map((member) => (
              <tr key={member.id}>
                <td className="num">
                  <a href={`/console/members/${member.id}`} className="text-indigo-700">{member.id}</a>
                </td>
                <td>
                  <a href={`/console/members/${member.id}`} className="font-medium text-slate-900">{member.name ?? '—'}</a>
                  {member.profile_id !== null && <span className="ml-1 text-xs text-slate-500">#{member.profile_id}</span>}
                </td>
                <td className="max-w-44 truncate lg:max-w-64" title={member.email}>{member.email}</td>
                <td className="whitespace-nowrap">{brandName(member.brand)}</td>
                <td><StatusBadge status={member.status} locale={locale} /></td>
                <td className="num">{member.credits}</td>
                <td className="hidden whitespace-nowrap lg:table-cell">{formatDate(member.signup_date, locale)}</td>
                <td className="hidden max-w-48 truncate text-slate-600 xl:table-cell">{sourceText(member.source)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {result && result.members.length === 0 && <p className="p-4 text-sm text-slate-600">{m.members_none({}, o)}</p>}
        {!result && loading && <p className="p-4 text-sm text-slate-600">{m.loading({}, o)}</p>}
      </div>
      {result && (page > 1 || result.more) && (
        <Pager locale={locale} page={page} more={result.more} onPage={(p) => void searchMembers({ ...filters, page: String(p) })} />
      )}
    </div>
  );
}
