/**
 * One complaint (issue 22): what was reported, both members' cards (no e-mail address) and, for a
 * complaint about a member, their conversation with the reporter; the actions: take it in hand,
 * dismiss, warn, remove a photo, suspend, each with a ground from the list. Both members get the
 * statement of the decision in their language (the API sends it).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { COMPLAINT_DECISION_REASONS, reasonFits, type ComplaintAction, type ComplaintDecisionReason } from '../../../src/lib/complaints.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { label } from '../lib/labels.ts';
import { formatDateTime } from '../lib/format.ts';
import { $complaint, actOnComplaint, complaintIdOfAddress, loadComplaint } from '../stores/complaints.ts';
import Alert from '../components/Alert.tsx';
import BrandName from '../components/BrandName.tsx';
import { loadMe } from '../stores/staff.ts';

type Card = NonNullable<NonNullable<ReturnType<typeof $complaint.get>['data']>['reporter']>;

function MemberCard({ title, card, locale }: { title: string; card: Card | null; locale: ConsoleLocale }) {
  const o = { locale };
  return (
    <section className="panel p-3 text-sm" aria-label={title}>
      <h2 className="mb-2 text-sm font-bold">{title}</h2>
      {card ? (
        <>
          <p>
            <a className="font-semibold text-indigo-700" href={card.user_id ? `/console/members/${card.user_id}` : undefined}>{card.name}</a> · {card.age} · {[card.city, card.country].filter(Boolean).join(', ')}
            {card.fictional && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-900">{m.fictional({}, o)}</span>}
          </p>
          <p className="text-slate-600"><BrandName id={card.brand} /> · {label(`status_${card.status}`, locale)}</p>
          {card.about && <p className="mt-1 whitespace-pre-line text-slate-700">{card.about}</p>}
        </>
      ) : (
        <p className="text-slate-600">{m.complaint_service({}, o)}</p>
      )}
    </section>
  );
}

export default function ComplaintIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const { data, error, done } = useStore($complaint);
  const [id, setId] = useState(0);
  const [action, setAction] = useState<Exclude<ComplaintAction, 'review'>>('dismiss');
  const [reason, setReason] = useState<ComplaintDecisionReason | ''>('');
  const [photo, setPhoto] = useState('');
  const [note, setNote] = useState('');
  const [failed, setFailed] = useState('');
  useEffect(() => {
    const complaintId = complaintIdOfAddress();
    setId(complaintId);
    void loadMe().catch(() => undefined);
    void loadComplaint(complaintId);
  }, []);
  if (error && !data) return <Alert>{error}</Alert>;
  if (!data) return <p className="text-sm text-slate-600">{m.loading({}, o)}</p>;
  const { complaint, reporter, reported, conversation } = data;
  const open = complaint.status !== 'handled';
  const photos = reported?.photos.filter((p) => p.status !== 'rejected') ?? [];

  const act = async (body: Parameters<typeof actOnComplaint>[1], text: string) => {
    setFailed('');
    try {
      await actOnComplaint(id, body, text);
    } catch (e) {
      setFailed(e instanceof Error ? e.message : String(e));
    }
  };
  const decide = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) return setFailed(m.complaint_ground_required({}, o));
    void act({ action, reason, note: note || undefined, ...(action === 'remove_photo' ? { photo_id: Number(photo) || undefined } : {}) }, m.complaint_decided({}, o));
  };

  return (
    <div className="flex flex-col gap-4">
      <div>
        <p className="text-xs"><a href="/console/complaints" className="text-indigo-700">← {m.nav_complaints({}, o)}</a></p>
        <h1 className="text-xl font-bold">{m.complaint_title({ id: complaint.id, subject: complaint.subject }, o)}</h1>
        <p className="text-sm text-slate-600">
          <BrandName id={complaint.brand} /> · {label(`status_${complaint.status}`, locale)} · {formatDateTime(complaint.created_at, locale)} · {complaint.reason}
        </p>
      </div>
      <Alert tone="success">{done}</Alert>
      <Alert>{failed}</Alert>
      <section className="panel p-3 text-sm" aria-label={m.complaint_message({}, o)}>
        <h2 className="mb-1 text-sm font-bold">{m.complaint_message({}, o)}</h2>
        <p className="whitespace-pre-line">{complaint.message}</p>
        {complaint.decision && (
          <p className="mt-2 font-semibold">{m.complaint_decision_line({ decision: label(`decision_${complaint.decision}`, locale), ground: label(`ground_${complaint.decision_reason}`, locale) }, o)}</p>
        )}
      </section>
      <div className="grid gap-4 md:grid-cols-2">
        <MemberCard title={m.complaint_reporter({}, o)} card={reporter} locale={locale} />
        <MemberCard title={m.complaint_reported({}, o)} card={reported} locale={locale} />
      </div>
      {conversation && (
        <section className="panel p-3 text-sm" aria-label={m.complaint_conversation({}, o)}>
          <h2 className="mb-2 text-sm font-bold">{m.complaint_conversation({}, o)}</h2>
          <ol className="flex max-h-96 flex-col gap-1 overflow-y-auto">
            {conversation.messages.map((msg) => (
              <li key={msg.id} className={`max-w-[80%] rounded-md px-2 py-1 ${msg.from === 'reporter' ? 'self-end bg-indigo-50' : 'bg-slate-100'}`}>
                <span className="block text-xs text-slate-500">{msg.from === 'reporter' ? reporter?.name : reported?.name} · {formatDateTime(msg.created_at, locale)}</span>
                {msg.body ?? (msg.photo_url ? <img src={msg.photo_url} alt="" width={160} height={160} className="rounded" /> : msg.media)}
              </li>
            ))}
          </ol>
        </section>
      )}
      {open && (
        <form className="panel flex flex-col gap-3 p-3" onSubmit={decide} aria-label={m.complaint_decide({}, o)}>
          <h2 className="text-sm font-bold">{m.complaint_decide({}, o)}</h2>
          {complaint.status === 'open' && (
            <button type="button" className="btn-light self-start" onClick={() => void act({ action: 'review' }, m.complaint_reviewing({}, o))}>{m.complaint_review({}, o)}</button>
          )}
          <div className="flex flex-wrap gap-3">
            <div>
              <label className="label" htmlFor="complaint-action">{m.complaint_action({}, o)}</label>
              <select id="complaint-action" className="field" value={action} onChange={(e) => { setAction(e.target.value as typeof action); setReason(''); }}>
                {(['dismiss', 'warn', 'remove_photo', 'suspend'] as const).filter((a) => a === 'dismiss' || reported).map((a) => (
                  <option key={a} value={a}>{label(`complaint_action_${a}`, locale)}</option>
                ))}
              </select>
            </div>
            <div>
              <label className="label" htmlFor="complaint-ground">{m.complaint_ground({}, o)}</label>
              <select id="complaint-ground" className="field" value={reason} onChange={(e) => setReason(e.target.value as ComplaintDecisionReason)}>
                <option value="">—</option>
                {COMPLAINT_DECISION_REASONS.filter((r) => reasonFits(action, r)).map((r) => (
                  <option key={r} value={r}>{label(`ground_${r}`, locale)}</option>
                ))}
              </select>
            </div>
            {action === 'remove_photo' && (
              <div>
                <label className="label" htmlFor="complaint-photo">{m.complaint_photo({}, o)}</label>
                <select id="complaint-photo" className="field" value={photo} onChange={(e) => setPhoto(e.target.value)}>
                  <option value="">—</option>
                  {photos.map((p) => (
                    <option key={p.id} value={p.id}>#{p.id} ({p.status})</option>
                  ))}
                </select>
              </div>
            )}
          </div>
          <div>
            <label className="label" htmlFor="complaint-note">{m.complaint_note({}, o)}</label>
            <textarea id="complaint-note" className="field min-h-16" maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
          </div>
          <button type="submit" className={action === 'dismiss' ? 'btn-primary self-start' : 'btn-danger self-start'}>{m.complaint_submit({}, o)}</button>
        </form>
      )}
    </div>
  );
}
