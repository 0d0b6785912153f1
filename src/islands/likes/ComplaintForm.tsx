/**
 * The complaint form (SPEC §2 complaints): about a member (from a profile's report action, the
 * member filled in) or about the service; a reason, a subject and a message. Sent, it confirms on
 * screen with the complaint's number and, about a member, offers to block them too.
 */
import { useState, type FormEvent } from 'react';
import type { BodyOf } from '../../contract/endpoints.ts';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { COMPLAINT_MESSAGE_MAX, COMPLAINT_MESSAGE_MIN, COMPLAINT_REASONS, COMPLAINT_SUBJECT_MAX, type ComplaintReason } from '../../contract/likes.ts';
import { api, ApiError } from '../../stores/api.ts';
import { Field } from '../profile/Field.tsx';
import { Notice } from '../profile/Notice.tsx';
import { useHydrated } from '../useHydrated.ts';

interface Props {
  locale: Locale;
  /** The member reported, when the form was opened from their profile. */
  about: { id: number; name: string; blocked: boolean } | null;
}

const REASON_LABELS: Record<ComplaintReason, (locale: Locale) => string> = {
  fake_profile: (locale) => m.complaint_reason_fake_profile({}, { locale }),
  harassment: (locale) => m.complaint_reason_harassment({}, { locale }),
  offensive: (locale) => m.complaint_reason_offensive({}, { locale }),
  scam: (locale) => m.complaint_reason_scam({}, { locale }),
  underage: (locale) => m.complaint_reason_underage({}, { locale }),
  other: (locale) => m.complaint_reason_other({}, { locale }),
  service: (locale) => m.complaint_reason_service({}, { locale }),
};

export default function ComplaintForm({ locale, about }: Props) {
  const reasons = about ? COMPLAINT_REASONS.filter((r) => r !== 'service') : (['service', ...COMPLAINT_REASONS.filter((r) => r !== 'service')] as const);
  // The fields are the browser's own (uncontrolled): what is typed before the island hydrates
  // stays; sending waits for it (`ready`), so a click never posts the form to the page itself.
  const ready = useHydrated();
  const [length, setLength] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<number | null>(null);
  const [blocked, setBlocked] = useState(about?.blocked ?? false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '');
    const reason = field('reason');
    setBusy(true);
    setErrors({});
    setFailure('');
    try {
      const { id } = await api('POST', '/complaint.php', { ...(about ? { profile_id: about.id } : {}), reason: (reason || undefined) as BodyOf<'POST complaint.php'>['reason'], subject: field('subject'), message: field('message') });
      setSent(id);
    } catch (e) {
      if (e instanceof ApiError && e.field) setErrors({ [e.field]: e.message });
      else setFailure(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  async function block() {
    if (!about) return;
    setBusy(true);
    try {
      await api('POST', '/block.php', { profile_id: about.id });
      setBlocked(true);
    } catch (e) {
      setFailure(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  if (sent !== null) {
    return (
      <div className="space-y-4" data-complaint-sent={sent}>
        <div role="status" className="rounded-xl border-l-4 border-success bg-success/10 px-4 py-3">
          <h2 className="font-bold">{m.complaint_sent_title({}, { locale })}</h2>
          <p className="mt-1 text-sm">{m.complaint_sent_text({ number: sent }, { locale })}</p>
        </div>
        {about && !blocked && (
          <div className="rounded-xl bg-gray-100 p-4">
            <p className="text-sm text-gray-800">{m.complaint_offer_block({ name: about.name }, { locale })}</p>
            <button type="button" className="btn mt-3 bg-danger text-white hover:brightness-110" onClick={block} disabled={busy}>
              <span aria-hidden="true" className="i-tabler-ban" />
              {m.profile_block({}, { locale })}
            </button>
          </div>
        )}
        {about && blocked && <p role="status" className="text-sm text-gray-700">{m.block_done({ name: about.name }, { locale })}</p>}
        <Notice tone="error">{failure}</Notice>
        <a href="/complaints" className="text-sm">{m.complaint_another({}, { locale })}</a>
      </div>
    );
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      {about && (
        <p className="flex items-center gap-2 font-semibold">
          <span aria-hidden="true" className="i-tabler-flag text-danger" />
          {m.complaint_about_member({ name: about.name }, { locale })}
        </p>
      )}
      <Field id="complaint-reason" label={m.complaint_reason_label({}, { locale })} error={errors.reason}>
        {(control) => (
          <select {...control} name="reason" defaultValue={about ? '' : 'service'} required>
            {about && <option value="" disabled>{m.complaint_reason({}, { locale })}</option>}
            {reasons.map((r) => <option key={r} value={r}>{REASON_LABELS[r](locale)}</option>)}
          </select>
        )}
      </Field>
      <Field id="complaint-subject" label={m.complaint_subject_label({}, { locale })} error={errors.subject}>
        {(control) => <input {...control} name="subject" maxLength={COMPLAINT_SUBJECT_MAX} required />}
      </Field>
      <Field id="complaint-message" label={m.complaint_message_label({}, { locale })} error={errors.message} aside={<span className="text-xs text-gray-600">{length}/{COMPLAINT_MESSAGE_MAX}</span>}>
        {(control) => <textarea {...control} name="message" rows={6} minLength={COMPLAINT_MESSAGE_MIN} maxLength={COMPLAINT_MESSAGE_MAX} onInput={(e) => setLength(e.currentTarget.value.length)} required />}
      </Field>
      <Notice tone="error">{failure}</Notice>
      <button type="submit" className="btn-primary" disabled={busy || !ready}>{m.complaint_send({}, { locale })}</button>
    </form>
  );
}
