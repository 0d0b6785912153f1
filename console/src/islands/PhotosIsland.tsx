/**
 * The photo screening queues (issue 22), profile photos and photos sent in chats in two tabs: the
 * photos waiting to be shown, oldest first, a page at a time, per brand with the counts of each;
 * driven by the keyboard: arrows move, A approves, R rejects with a reason
 * picked from the list, and the visible page can be approved at once. Each decision is audited by
 * the API; a rejected photo's owner is told why in their language.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useStore } from '@nanostores/react';
import { PHOTO_REJECT_REASONS, type PhotoRejectReason } from '../../../src/lib/photo-screening.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { label } from '../lib/labels.ts';
import { formatDateTime } from '../lib/format.ts';
import { filtersFromAddress } from '../lib/filters.ts';
import { $photos, approveShown, decide, loadPhotos, select, type PhotoQueueKind } from '../stores/photos.ts';
import Alert from '../components/Alert.tsx';

export default function PhotosIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const { brand, queue, photos, counts, next, selected, loading, error, done } = useStore($photos);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState<PhotoRejectReason>('other');
  const [failed, setFailed] = useState('');
  useEffect(() => {
    const asked = filtersFromAddress(['brand', 'queue']);
    void loadPhotos(asked.brand ?? '', asked.queue === 'chat-photos' ? 'chat-photos' : 'photos');
  }, []);
  const field = queue === 'photos' ? 'photos' : 'chat_photos';
  const waiting = (kind: PhotoQueueKind) => counts.reduce((sum, c) => sum + (kind === 'photos' ? c.photos : c.chat_photos), 0);
  const tabs: { kind: PhotoQueueKind; label: string }[] = [
    { kind: 'photos', label: m.photos_tab_profile({ count: waiting('photos') }, o) },
    { kind: 'chat-photos', label: m.photos_tab_chat({ count: waiting('chat-photos') }, o) },
  ];
  useEffect(() => document.getElementById(`photo-${photos[selected]?.id}`)?.focus(), [selected, photos]);

  const current = photos[selected];
  const run = async (status: 'active' | 'rejected') => {
    if (!current) return;
    setFailed('');
    try {
      await decide(current.id, status, status === 'rejected' ? reason : undefined, status === 'active' ? m.photo_approved({ name: current.member.name }, o) : m.photo_rejected({ name: current.member.name }, o));
      setRejecting(false);
    } catch (e) {
      setFailed(e instanceof Error ? e.message : String(e));
    }
  };
  const onKey = (event: KeyboardEvent) => {
    if (rejecting || event.target instanceof HTMLSelectElement) return;
    const key = event.key.toLowerCase();
    if (key === 'arrowright' || key === 'arrowdown') select(selected + 1);
    else if (key === 'arrowleft' || key === 'arrowup') select(selected - 1);
    else if (key === 'a') void run('active');
    else if (key === 'r' && current) setRejecting(true);
    else return;
    event.preventDefault();
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-xl font-bold">{m.nav_photos({}, o)}</h1>
        <label className="sr-only" htmlFor="photos-brand">{m.brand({}, o)}</label>
        <select id="photos-brand" className="field w-auto" value={brand} onChange={(e) => void loadPhotos(e.target.value)}>
          <option value="">{m.all_brands({}, o)}</option>
          {counts.map((c) => (
            <option key={c.brand} value={c.brand}>{m.photos_brand_count({ brand: c.brand, count: c[field] }, o)}</option>
          ))}
        </select>
        {queue === 'photos' && (
          <button type="button" className="btn-primary" disabled={!photos.length} onClick={() => void approveShown((n) => m.photos_bulk_done({ count: n }, o))}>
            <span className="i-tabler-checks" aria-hidden="true" />
            {m.photos_bulk({ count: photos.length }, o)}
          </button>
        )}
      </div>
      <div role="tablist" aria-label={m.photos_queues({}, o)} className="flex gap-2 border-b border-slate-200">
        {tabs.map((tab) => (
          <button
            key={tab.kind}
            type="button"
            role="tab"
            aria-selected={queue === tab.kind}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-semibold ${queue === tab.kind ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600'}`}
            onClick={() => queue !== tab.kind && void loadPhotos(brand, tab.kind)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <p className="text-sm text-slate-600" id="photos-keys">{m.photos_keys({}, o)}</p>
      <Alert tone="success">{done}</Alert>
      <Alert>{error || failed}</Alert>
      {loading && !photos.length && <p className="text-sm text-slate-600">{m.loading({}, o)}</p>}
      {!loading && !photos.length && <p className="panel p-4 text-sm text-slate-600">{m.photos_empty({}, o)}</p>}
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-5" aria-describedby="photos-keys" onKeyDown={onKey}>
        {photos.map((photo, index) => (
          <li key={photo.id}>
            <button
              id={`photo-${photo.id}`}
              type="button"
              tabIndex={index === selected ? 0 : -1}
              aria-pressed={index === selected}
              aria-label={m.photo_of({ name: photo.member.name, brand: photo.member.brand }, o)}
              onClick={() => select(index)}
              className={`panel block w-full overflow-hidden p-0 text-left ${index === selected ? 'outline outline-3 outline-indigo-600' : ''}`}
            >
              <img src={photo.thumb_url} alt="" width={400} height={400} className="aspect-square w-full object-cover" loading="lazy" />
              <span className="block px-2 py-1 text-xs">
                <span className="font-semibold">{photo.member.name}</span> · {photo.member.brand}
                {photo.member.fictional && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-900">{m.fictional({}, o)}</span>}
                <span className="block text-slate-500">{formatDateTime(photo.created_at, locale)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {next !== null && (
        <button type="button" className="btn-light self-start" disabled={loading} onClick={() => void loadPhotos(brand, queue, true)}>{m.photos_more({}, o)}</button>
      )}
      {current && (
        <div className="panel flex flex-wrap items-end gap-2 p-3" role="group" aria-label={m.photo_of({ name: current.member.name, brand: current.member.brand }, o)}>
          <a className="mr-auto text-sm text-indigo-700" href={current.url} target="_blank" rel="noreferrer">{m.photo_open({}, o)}</a>
          <button type="button" className="btn-primary" onClick={() => void run('active')}>
            <span className="i-tabler-check" aria-hidden="true" />
            {m.photo_approve({}, o)}
          </button>
          {rejecting ? (
            <>
              <div>
                <label className="label" htmlFor="reject-reason">{m.reason({}, o)}</label>
                <select id="reject-reason" className="field" value={reason} autoFocus onChange={(e) => setReason(e.target.value as PhotoRejectReason)} onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), void run('rejected'))}>
                  {PHOTO_REJECT_REASONS.map((r) => (
                    <option key={r} value={r}>{label(`photo_reason_${r}`, locale)}</option>
                  ))}
                </select>
              </div>
              <button type="button" className="btn-danger" onClick={() => void run('rejected')}>{m.photo_reject_confirm({}, o)}</button>
              <button type="button" className="btn-light" onClick={() => setRejecting(false)}>{m.cancel({}, o)}</button>
            </>
          ) : (
            <button type="button" className="btn-danger" onClick={() => setRejecting(true)}>
              <span className="i-tabler-x" aria-hidden="true" />
              {m.photo_reject({}, o)}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
