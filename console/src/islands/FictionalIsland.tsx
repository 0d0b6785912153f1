/**
 * Fictional profiles (issue 22, DESIGN §10): the brand's list with conversation counts; a form to
 * create one and to edit every field; its photos (uploaded through the same screening as members',
 * made main or deleted); retiring with a reason. Moderators read; owners and admins change
 * (the API refuses the others, the page hides what they may not do).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { GENDERS, SEXUALITIES } from '../../../src/contract/enums.ts';
import { may } from '../../../src/contract/console.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $fictional, createFictional, loadFictional, openFictional, photoAction, retireFictional, updateFictional, uploadPhoto } from '../stores/fictional.ts';
import { formatDate } from '../lib/format.ts';
import Alert from '../components/Alert.tsx';
import StatusBadge from '../components/StatusBadge.tsx';

const FIELDS = ['name', 'gender', 'sexuality', 'birth_date', 'country', 'city', 'about'] as const;
type Form = Partial<Record<(typeof FIELDS)[number], string>>;

export default function FictionalIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const state = useStore($fictional);
  const [form, setForm] = useState<Form>({});
  const [brand, setBrand] = useState('');
  const [reason, setReason] = useState('');
  useEffect(() => {
    void loadMe().catch(() => undefined);
    void loadFictional('', false);
  }, []);
  const open = state.open;
  useEffect(() => {
    setForm(open ? Object.fromEntries(FIELDS.map((f) => [f, String(open.profile[f] ?? '')])) : {});
    setReason('');
  }, [open?.profile.id]);
  const canEdit = me ? may(me.staff.role, 'fictional') : false;
  const brands = me?.brands ?? [];
  const set = (name: keyof Form) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { ...form, city: form.city || null, about: form.about || null } as never;
    if (open) await updateFictional(open.profile.id, body, m.fictional_saved({}, o));
    else if (await createFictional(brand || brands[0]?.id || '', body, m.fictional_created({}, o))) setForm({});
  };
  const invalid = (field: string) => (state.field === field ? { 'aria-invalid': true as const } : {});

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-xl font-bold">{m.nav_fictional({}, o)}</h1>
        <div className="flex items-end gap-3">
          <div>
            <label className="label" htmlFor="fp-brand">{m.brand({}, o)}</label>
            <select id="fp-brand" className="field" value={state.brand} onChange={(e) => void loadFictional(e.target.value)}>
              <option value="">{m.any({}, o)}</option>
              {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
            </select>
          </div>
          <label className="flex items-center gap-1.5 pb-2 text-sm">
            <input type="checkbox" checked={state.retired} onChange={(e) => void loadFictional(undefined, e.target.checked)} />
            {m.fictional_show_retired({}, o)}
          </label>
          {canEdit && (
            <button type="button" className="btn-primary" onClick={() => void openFictional(null)}>
              <span className="i-tabler-plus" aria-hidden="true" />
              {m.fictional_new({}, o)}
            </button>
          )}
        </div>
      </div>
      <Alert>{state.error}</Alert>
      <Alert tone="success">{state.done}</Alert>

      <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="panel overflow-x-auto">
          <table className="data-table">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-3 py-2">{m.fictional_name({}, o)}</th>
                <th className="px-3 py-2">{m.brand({}, o)}</th>
                <th className="px-3 py-2">{m.fictional_place({}, o)}</th>
                <th className="px-3 py-2 text-right">{m.fictional_conversations({}, o)}</th>
                <th className="px-3 py-2 text-right">{m.fictional_waiting({}, o)}</th>
                <th className="px-3 py-2">{m.status({}, o)}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {(state.list?.profiles ?? []).map((p) => (
                <tr key={p.id} className={open?.profile.id === p.id ? 'bg-indigo-50' : ''}>
                  <td className="px-3 py-2">
                    <button type="button" className="font-semibold text-indigo-700 hover:underline" onClick={() => void openFictional(p.id)}>
                      {p.name}
                    </button>
                  </td>
                  <td className="px-3 py-2">{brands.find((b) => b.id === p.brand)?.name ?? p.brand}</td>
                  <td className="px-3 py-2">{[p.city, p.country].filter(Boolean).join(', ')}</td>
                  <td className="px-3 py-2 text-right">{p.conversations}</td>
                  <td className="px-3 py-2 text-right">{p.waiting}</td>
                  <td className="px-3 py-2">{p.retired_at ? <StatusBadge status="retired" locale={locale} /> : <StatusBadge status="active" locale={locale} />}</td>
                </tr>
              ))}
              {state.list?.profiles.length === 0 && (
                <tr>
                  <td colSpan={6} className="px-3 py-6 text-center text-slate-500">{m.fictional_none({}, o)}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>

        {(open || canEdit) && (
          <section className="panel flex flex-col gap-3 p-3" aria-label={open ? open.profile.name : m.fictional_new({}, o)}>
            <h2 className="flex items-center gap-2 font-semibold">
              {open ? open.profile.name : m.fictional_new({}, o)}
              <span className="rounded bg-fuchsia-100 px-1.5 py-0.5 text-xs font-semibold text-fuchsia-800">{m.inbox_fictional({}, o)}</span>
            </h2>
            <form className="grid grid-cols-2 gap-3" onSubmit={(e) => void submit(e)}>
              {!open && (
                <div className="col-span-2">
                  <label className="label" htmlFor="fp-new-brand">{m.brand({}, o)}</label>
                  <select id="fp-new-brand" className="field" value={brand} onChange={(e) => setBrand(e.target.value)}>
                    {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
                  </select>
                </div>
              )}
              <div className="col-span-2">
                <label className="label" htmlFor="fp-name">{m.fictional_name({}, o)}</label>
                <input id="fp-name" className="field" required value={form.name ?? ''} onChange={set('name')} disabled={!canEdit} {...invalid('name')} />
              </div>
              <div>
                <label className="label" htmlFor="fp-gender">{m.fictional_gender({}, o)}</label>
                <select id="fp-gender" className="field" required value={form.gender ?? ''} onChange={set('gender')} disabled={!canEdit}>
                  <option value="" />
                  {GENDERS.map((g) => <option key={g} value={g}>{g}</option>)}
                </select>
              </div>
              <div>
                <label className="label" htmlFor="fp-sexuality">{m.fictional_sexuality({}, o)}</label>
                <select id="fp-sexuality" className="field" required value={form.sexuality ?? ''} onChange={set('sexuality')} disabled={!canEdit}>
                  <option value="" />
                  {SEXUALITIES.map((s) => <option key={s} value={s}>{s}</option>)}
                </select>
              </div>
              <div>
                <label className="label" htmlFor="fp-birth">{m.fictional_birth_date({}, o)}</label>
                <input id="fp-birth" className="field" type="date" required value={form.birth_date ?? ''} onChange={set('birth_date')} disabled={!canEdit} {...invalid('birth_date')} />
              </div>
              <div>
                <label className="label" htmlFor="fp-country">{m.fictional_country({}, o)}</label>
                <input id="fp-country" className="field" required maxLength={2} pattern="[A-Z]{2}" value={form.country ?? ''} onChange={set('country')} disabled={!canEdit} {...invalid('country')} />
              </div>
              <div className="col-span-2">
                <label className="label" htmlFor="fp-city">{m.fictional_city({}, o)}</label>
                <input id="fp-city" className="field" value={form.city ?? ''} onChange={set('city')} disabled={!canEdit} />
              </div>
              <div className="col-span-2">
                <label className="label" htmlFor="fp-about">{m.fictional_about({}, o)}</label>
                <textarea id="fp-about" className="field min-h-20" value={form.about ?? ''} onChange={set('about')} disabled={!canEdit} />
              </div>
              {canEdit && (
                <div className="col-span-2">
                  <button className="btn-primary">{open ? m.fictional_save({}, o) : m.fictional_create({}, o)}</button>
                </div>
              )}
            </form>

            {open && (
              <>
                <h3 className="text-sm font-semibold">{m.fictional_photos({}, o)}</h3>
                <ul className="grid grid-cols-3 gap-2">
                  {open.photos.map((p) => (
                    <li key={p.id} className="flex flex-col gap-1 text-xs">
                      <img src={p.thumb_url} alt="" className="aspect-square w-full rounded object-cover" />
                      <span className="flex flex-wrap items-center gap-1">
                        <StatusBadge status={p.status} locale={locale} />
                        {p.main && <strong>{m.fictional_main({}, o)}</strong>}
                      </span>
                      {canEdit && (
                        <span className="flex gap-1">
                          {!p.main && <button type="button" className="btn-light px-1.5 py-0.5 text-xs" onClick={() => void photoAction(open.profile.id, p.id, 'main', m.fictional_saved({}, o))}>{m.fictional_make_main({}, o)}</button>}
                          <button type="button" className="btn-light px-1.5 py-0.5 text-xs" onClick={() => void photoAction(open.profile.id, p.id, 'delete', m.fictional_saved({}, o))}>{m.fictional_delete_photo({}, o)}</button>
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
                {canEdit && !open.profile.retired_at && (
                  <div>
                    <label className="label" htmlFor="fp-photo">{m.fictional_upload({}, o)}</label>
                    <input id="fp-photo" className="field" type="file" accept="image/jpeg,image/png,image/webp" onChange={(e) => { const file = e.target.files?.[0]; if (file) void uploadPhoto(open.profile.id, file, m.fictional_uploaded({}, o)); e.target.value = ''; }} />
                  </div>
                )}
                <p className="text-xs text-slate-500">{m.fictional_counts({ conversations: open.profile.conversations, waiting: open.profile.waiting, since: formatDate(open.profile.created_at, locale) }, o)}</p>
                {canEdit && !open.profile.retired_at && (
                  <form className="flex flex-col gap-2 border-t border-slate-100 pt-3" onSubmit={(e) => { e.preventDefault(); void retireFictional(open.profile.id, reason, m.fictional_retired({}, o)); }}>
                    <label className="label" htmlFor="fp-reason">{m.fictional_retire_reason({}, o)}</label>
                    <input id="fp-reason" className="field" required value={reason} onChange={(e) => setReason(e.target.value)} />
                    <p className="text-xs text-slate-500">{m.fictional_retire_hint({}, o)}</p>
                    <button className="btn-danger self-start">{m.fictional_retire({}, o)}</button>
                  </form>
                )}
              </>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
