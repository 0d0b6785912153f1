/**
 * The complaints queue (issue 22): what members reported on /complaints, open and in review,
 * oldest first, with the counts per brand; a row opens the complaint's page.
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { COMPLAINT_STATUSES } from '../../../src/lib/complaints.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { label } from '../lib/labels.ts';
import { formatDateTime } from '../lib/format.ts';
import { $complaints, loadComplaints } from '../stores/complaints.ts';
import Alert from '../components/Alert.tsx';
import BrandName from '../components/BrandName.tsx';
import { $brandNames, brandName, loadMe } from '../stores/staff.ts';

export default function ComplaintsIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const { filters, result, error } = useStore($complaints);
  const brands = useStore($brandNames);
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    void loadMe().catch(() => undefined);
    void loadComplaints({ brand: params.get('brand') ?? undefined, status: params.get('status') ?? undefined });
  }, []);
  const set = (change: Partial<typeof filters>) => void loadComplaints({ ...filters, ...change });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-2">
        <h1 className="mr-auto text-xl font-bold">{m.nav_complaints({}, o)}</h1>
        <div>
          <label className="label" htmlFor="complaints-brand">{m.brand({}, o)}</label>
          <select id="complaints-brand" className="field" value={filters.brand ?? ''} onChange={(e) => set({ brand: e.target.value || undefined })}>
            <option value="">{m.all_brands({}, o)}</option>
            {result?.counts.map((c) => (
              <option key={c.brand} value={c.brand}>{m.complaints_brand_count({ brand: brandName(brands, c.brand), open: c.open, in_review: c.in_review }, o)}</option>
            ))}
          </select>
        </div>
        <div>
          <label className="label" htmlFor="complaints-status">{m.status({}, o)}</label>
          <select id="complaints-status" className="field" value={filters.status ?? ''} onChange={(e) => set({ status: e.target.value || undefined })}>
            <option value="">{m.complaints_waiting({}, o)}</option>
            {COMPLAINT_STATUSES.map((s) => (
              <option key={s} value={s}>{label(`status_${s}`, locale)}</option>
            ))}
          </select>
        </div>
      </div>
      <Alert>{error}</Alert>
      {result && !result.complaints.length && <p className="panel p-4 text-sm text-slate-600">{m.complaints_empty({}, o)}</p>}
      {result && result.complaints.length > 0 && (
        <div className="panel overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-xs text-slate-500">
              <tr>
                <th className="px-3 py-2">#</th>
                <th className="px-3 py-2">{m.complaint_subject({}, o)}</th>
                <th className="px-3 py-2">{m.complaint_about({}, o)}</th>
                <th className="px-3 py-2">{m.brand({}, o)}</th>
                <th className="px-3 py-2">{m.status({}, o)}</th>
                <th className="px-3 py-2">{m.complaint_filed({}, o)}</th>
              </tr>
            </thead>
            <tbody>
              {result.complaints.map((c) => (
                <tr key={c.id} className="border-b border-slate-100">
                  <td className="px-3 py-2">{c.id}</td>
                  <td className="px-3 py-2"><a className="font-semibold text-indigo-700" href={`/console/complaints/${c.id}`}>{c.subject}</a></td>
                  <td className="px-3 py-2">{c.reported ? c.reported.name : m.complaint_service({}, o)}</td>
                  <td className="px-3 py-2"><BrandName id={c.brand} /></td>
                  <td className="px-3 py-2">{label(`status_${c.status}`, locale)}</td>
                  <td className="px-3 py-2">{formatDateTime(c.created_at, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
