/**
 * The staff page (issue 22, owner only): the staff, their role, brands and second factor; add one
 * (the one-time enrolment link is shown once, to pass on), change a role and brands, remove. The
 * API audits each change with the owner who made it; an owner's own row has no actions.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { STAFF_ROLES, type StaffRole } from '../../../src/contract/console.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { ConsoleApiError } from '../lib/api.ts';
import { label } from '../lib/labels.ts';
import { formatDate } from '../lib/format.ts';
import { $me, loadMe } from '../stores/staff.ts';
import { $staffList, addStaff, changeStaff, loadStaffList, removeStaff } from '../stores/staff-list.ts';
import Alert from '../components/Alert.tsx';
import ActionDialog from '../components/ActionDialog.tsx';
import BrandsField from '../components/BrandsField.tsx';

type Row = NonNullable<ReturnType<typeof $staffList.get>['staff']>[number];

export default function StaffIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const { staff, error } = useStore($staffList);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('moderator');
  const [brands, setBrands] = useState<string[] | null>(null);
  const [addError, setAddError] = useState('');
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<{ row: Row; role: StaffRole; brands: string[] | null } | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);
  const [done, setDone] = useState('');
  useEffect(() => {
    void loadMe().catch(() => undefined);
    void loadStaffList();
  }, []);
  const allBrands = me?.brands ?? [];
  const brandNames = (ids: string[] | null) => (ids === null ? m.scope_all({}, o) : ids.map((id) => allBrands.find((b) => b.id === id)?.name ?? id).join(', '));

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setAddError('');
    setDone('');
    try {
      setLink({ email: email.trim().toLowerCase(), url: await addStaff({ email, role, brands }) });
      setEmail('');
    } catch (e) {
      setAddError(e instanceof ConsoleApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-bold">{m.nav_staff({}, o)}</h1>
      <Alert>{error}</Alert>
      <Alert tone="success">{done}</Alert>
      <div className="panel overflow-x-auto">
        <table className="data-table">
          <caption className="sr-only">{m.nav_staff({}, o)}</caption>
          <thead>
            <tr>
              <th scope="col">{m.email({}, o)}</th>
              <th scope="col">{m.staff_role({}, o)}</th>
              <th scope="col">{m.staff_brands({}, o)}</th>
              <th scope="col">{m.staff_second_factor({}, o)}</th>
              <th scope="col" className="hidden lg:table-cell">{m.staff_since({}, o)}</th>
              <th scope="col"><span className="sr-only">{m.actions({}, o)}</span></th>
            </tr>
          </thead>
          <tbody>
            {staff?.map((row) => (
              <tr key={row.id}>
                <td className="max-w-64 truncate" title={row.email}>{row.email}</td>
                <td>{label(`role_${row.role}`, locale)}</td>
                <td>{brandNames(row.brands)}</td>
                <td>
                  <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${row.totp_enabled ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-800'}`}>
                    {row.totp_enabled ? m.staff_totp_on({}, o) : m.staff_enrolling({}, o)}
                  </span>
                </td>
                <td className="hidden whitespace-nowrap lg:table-cell">{formatDate(row.created_at, locale)}</td>
                <td className="whitespace-nowrap text-right">
                  {me && row.id !== me.staff.id ? (
                    <span className="inline-flex gap-2">
                      <button type="button" className="btn-light" aria-label={m.staff_change_of({ email: row.email }, o)} onClick={() => setEditing({ row, role: row.role, brands: row.brands })}>{m.staff_change({}, o)}</button>
                      <button type="button" className="btn-light text-red-700" aria-label={m.staff_remove_of({ email: row.email }, o)} onClick={() => setRemoving(row)}>{m.staff_remove({}, o)}</button>
                    </span>
                  ) : (
                    <span className="text-xs text-slate-500">{m.staff_you({}, o)}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <form className="panel flex flex-col gap-3 p-4" onSubmit={add} aria-labelledby="add-staff" noValidate>
        <h2 id="add-staff" className="text-base font-bold">{m.staff_add({}, o)}</h2>
        <div className="grid gap-3 md:grid-cols-2">
          <div>
            <label className="label" htmlFor="s-email">{m.email({}, o)}</label>
            <input id="s-email" className="field" type="email" autoComplete="off" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <div>
            <label className="label" htmlFor="s-role">{m.staff_role({}, o)}</label>
            <select id="s-role" className="field" value={role} onChange={(e) => setRole(e.target.value as StaffRole)}>
              {STAFF_ROLES.map((r) => <option key={r} value={r}>{label(`role_${r}`, locale)}</option>)}
            </select>
          </div>
        </div>
        <BrandsField locale={locale} brands={allBrands} value={brands} onChange={setBrands} />
        <Alert>{addError}</Alert>
        {link && (
          <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
            <p>{m.staff_link_intro({ email: link.email }, o)}</p>
            <code className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs" data-testid="enrol-link">{link.url}</code>
          </div>
        )}
        <div>
          <button className="btn-primary" disabled={busy}>
            <span className="i-tabler-user-plus" aria-hidden="true" />
            {m.staff_add_submit({}, o)}
          </button>
        </div>
      </form>

      {editing && (
        <ActionDialog
          locale={locale}
          title={m.staff_change_of({ email: editing.row.email }, o)}
          submit={m.staff_save({}, o)}
          noReason
          onClose={() => setEditing(null)}
          onConfirm={async () => {
            await changeStaff(editing.row.id, { role: editing.role, brands: editing.brands });
            setDone(m.staff_changed({ email: editing.row.email }, o));
          }}
        >
          <div>
            <label className="label" htmlFor="e-role">{m.staff_role({}, o)}</label>
            <select id="e-role" className="field" value={editing.role} onChange={(e) => setEditing({ ...editing, role: e.target.value as StaffRole })}>
              {STAFF_ROLES.map((r) => <option key={r} value={r}>{label(`role_${r}`, locale)}</option>)}
            </select>
          </div>
          <BrandsField locale={locale} brands={allBrands} value={editing.brands} onChange={(value) => setEditing({ ...editing, brands: value })} />
          <p className="text-xs text-slate-500">{m.staff_change_note({}, o)}</p>
        </ActionDialog>
      )}
      {removing && (
        <ActionDialog
          locale={locale}
          title={m.staff_remove_of({ email: removing.email }, o)}
          submit={m.staff_remove({}, o)}
          danger
          noReason
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await removeStaff(removing.id);
            setDone(m.staff_removed({ email: removing.email }, o));
          }}
        >
          <p className="text-sm text-slate-600">{m.staff_remove_note({}, o)}</p>
        </ActionDialog>
      )}
    </div>
  );
}
