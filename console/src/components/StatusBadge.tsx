import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { label } from '../lib/labels.ts';

/** The colour of each status a console list shows (members, photos, complaints…): red stops, amber waits, green is fine. */
const TONES: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20',
  not_confirmed: 'bg-amber-100 text-amber-800 ring-amber-600/20',
  pending: 'bg-amber-100 text-amber-800 ring-amber-600/20',
  deletion_requested: 'bg-slate-200 text-slate-700 ring-slate-500/20',
  suspended: 'bg-red-100 text-red-800 ring-red-600/20',
  rejected: 'bg-red-100 text-red-800 ring-red-600/20',
  open: 'bg-amber-100 text-amber-800 ring-amber-600/20',
  in_review: 'bg-sky-100 text-sky-800 ring-sky-600/20',
  handled: 'bg-slate-200 text-slate-700 ring-slate-500/20',
  paid: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20',
  failed: 'bg-red-100 text-red-800 ring-red-600/20',
  canceled: 'bg-slate-200 text-slate-700 ring-slate-500/20',
  expired: 'bg-slate-200 text-slate-700 ring-slate-500/20',
};

/** A status as a badge: its `status_<status>` text in a colour that says how it stands. */
export default function StatusBadge({ status, locale }: { status: string; locale: ConsoleLocale }) {
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONES[status] ?? 'bg-slate-100 text-slate-700 ring-slate-500/20'}`}>
      {label(`status_${status}`, locale)}
    </span>
  );
}
