/**
 * The audit log (issue 22, owner and admin): every staff action, newest first, filtered by brand,
 * staff member, action and text (a reason, the details or an object id); pages of 50 going back
 * in time (`before=`). A staff member's or an action's cell filters by it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $audit, AUDIT_FILTERS, newerAudit, olderAudit, searchAudit, type AuditFilters } from '../stores/audit.ts';
import { filtersFromAddress } from '../lib/filters.ts';
import { label } from '../lib/labels.ts';
import { formatDateTime } from '../lib/format.ts';
import Alert from '../components/Alert.tsx';

/** Actions the console writes today, offered as the action filter's suggestions (any other may be typed). */
const KNOWN_ACTIONS = ['login', 'logout', 'enrol', 'password_set', 'forbidden', 'member_suspend', 'member_unsuspend', 'credits_grant', 'credits_take', 'member_resend_activation', 'member_directdebit_block', 'member_delete', 'staff_add', 'staff_role', 'staff_remove'];

export default function AuditIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const { result, loading, error, filters, trail } = useStore($audit);
  const [form, setForm] = useState<AuditFilters>({});
  useEffect(() => {
    const initial = filtersFromAddress(AUDIT_FILTERS);
    setForm(initial);
    void loadMe().catch(() => undefined);
    void searchAudit(initial);
  }, []);
  const set = (name: keyof AuditFilters) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const search = (next: AuditFilters) => {
    setForm(next);
    void searchAudit({ ...next, before: undefined });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    search(form);
  };
  const brands = me?.brands ?? [];

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-bold">{m.nav_audit({}, o)}</h1>
      <form role="search" className="panel grid grid-cols-2 gap-3 p-3 md:grid-cols-4 xl:grid-cols-[repeat(3,minmax(0,1fr))_minmax(12rem,2fr)_auto]" onSubmit={submit}>
        <div>
          <label className="label" htmlFor="a-brand">{m.brand({}, o)}</label>
          <select id="a-brand" className="field" value={form.brand ?? ''} onChange={set('brand')}>
            <option value="">{m.any({}, o)}</option>
            {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
          </select>
        </div>
        <div>
          <label className="label" htmlFor="a-staff">{m.audit_staff_id({}, o)}</label>
          <input id="a-staff" className="field" inputMode="numeric" pattern="[0-9]*" value={form.staff ?? ''} onChange={set('staff')} />
        </div>
        <div>
          <label className="label" htmlFor="a-action">{m.audit_action({}, o)}</label>
          <input id="a-action" className="field font-mono" list="a-actions" value={form.action ?? ''} onChange={set('action')} />
          <datalist id="a-actions">{KNOWN_ACTIONS.map((a) => <option key={a} value={a} />)}</datalist>
        </div>
        <div>
          <label className="label" htmlFor="a-q">{m.audit_text({}, o)}</label>
          <input id="a-q" className="field" type="search" placeholder={m.audit_text_placeholder({}, o)} value={form.q ?? ''} onChange={set('q')} />
        </div>
        <div className="col-span-2 flex items-end gap-2 md:col-span-4 xl:col-span-1">
          <button className="btn-primary" disabled={loading}>
            <span className="i-tabler-search" aria-hidden="true" />
            {m.search({}, o)}
          </button>
          <button type="button" className="btn-light" onClick={() => search({})}>{m.clear({}, o)}</button>
        </div>
      </form>
      <Alert>{error}</Alert>
      <div className="panel overflow-x-auto" aria-busy={loading}>
        <table className="data-table">
          <caption className="sr-only">{m.nav_audit({}, o)}</caption>
          <thead>
            <tr>
              <th scope="col">{m.col_when({}, o)}</th>
              <th scope="col">{m.audit_who({}, o)}</th>
              <th scope="col">{m.brand({}, o)}</th>
              <th scope="col">{m.audit_action({}, o)}</th>
              <th scope="col">{m.audit_object({}, o)}</th>
              <th scope="col">{m.col_reason({}, o)}</th>
              <th scope="col" className="hidden lg:table-cell">{m.address({}, o)}</th>
              <th scope="col" className="hidden xl:table-cell">{m.audit_details({}, o)}</th>
            </tr>
          </thead>
          <tbody>
            {result?.entries.map((entry) => (
              <tr key={entry.id}>
                <td className="whitespace-nowrap">{formatDateTime(entry.at, locale)}</td>
                <td className="max-w-56">
                  {entry.staff_id === null ? (
                    <span className="text-slate-500">{m.audit_system({}, o)}</span>
                  ) : (
                    <button type="button" className="max-w-full truncate text-left text-indigo-700 hover:underline" title={m.audit_filter_staff({}, o)} onClick={() => search({ ...form, staff: String(entry.staff_id) })}>
                      {entry.staff_email ?? `#${entry.staff_id}`}
                    </button>
                  )}
                  {entry.role && <div className="text-xs text-slate-500">{label(`role_${entry.role}`, locale)}</div>}
                </td>
                <td className="whitespace-nowrap">{brands.find((b) => b.id === entry.brand)?.name ?? entry.brand ?? '—'}</td>
                <td>
                  <button type="button" className="font-mono text-xs text-indigo-700 hover:underline" title={m.audit_filter_action({}, o)} onClick={() => search({ ...form, action: entry.action })}>
                    {entry.action}
                  </button>
                </td>
                <td className="whitespace-nowrap">
                  {entry.object_type === 'member' ? (
                    <a href={`/console/members/${entry.object_id}`} className="text-indigo-700">{m.member_id({ id: entry.object_id ?? '' }, o)}</a>
                  ) : entry.object_type ? (
                    `${entry.object_type} ${entry.object_id ?? ''}`
                  ) : (
                    '—'
                  )}
                </td>
                <td className="max-w-72 whitespace-pre-line">{entry.reason ?? '—'}</td>
                <td className="hidden font-mono text-xs lg:table-cell">{entry.ip ?? '—'}</td>
                <td className="hidden max-w-72 truncate font-mono text-xs text-slate-600 xl:table-cell" title={entry.details ? JSON.stringify(entry.details) : undefined}>{entry.details ? JSON.stringify(entry.details) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {result && result.entries.length === 0 && <p className="p-4 text-sm text-slate-600">{m.audit_none({}, o)}</p>}
        {!result && loading && <p className="p-4 text-sm text-slate-600">{m.loading({}, o)}</p>}
      </div>
      {result && (trail.length > 0 || result.before !== null) && (
        <nav className="flex items-center gap-3 text-sm" aria-label={m.pages({}, o)}>
          <button type="button" className="btn-light" disabled={trail.length === 0} onClick={newerAudit}>
            <span className="i-tabler-chevron-left" aria-hidden="true" />
            {m.audit_newer({}, o)}
          </button>
          <button type="button" className="btn-light" disabled={result.before === null} onClick={olderAudit}>
            {m.audit_older({}, o)}
            <span className="i-tabler-chevron-right" aria-hidden="true" />
          </button>
        </nav>
      )}
    </div>
  );
}
