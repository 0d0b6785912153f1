import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import type { SiteUser } from '../contract/user.ts';
import { ApiError } from '../stores/api.ts';
import { onEvent } from '../stores/events.ts';
import { countsTowardLimit, type PhotoRejectReason } from '../lib/photo-screening.ts';
import { $photos, $upload, deletePhoto, loadPhotos, PHOTO_MAX_BYTES, photoLimit, PREMIUM_PHOTOS, setMainPhoto, uploadPhoto, type Photo } from '../stores/photos.ts';
import { ConfirmDialog } from './profile/ConfirmDialog.tsx';
import { Notice } from './profile/Notice.tsx';
import { useSeedUser } from './profile/useSeedUser.ts';

interface Props {
  locale: Locale;
  user: SiteUser | null;
}

type Problem = { message: string; premium: boolean };

/** The member's own photos on /profile#photos: upload, choose the main image, delete (SPEC §2, §6). */
export default function PhotosIsland({ locale, user: initialUser }: Props) {
  const o = { locale };
  const user = useSeedUser(initialUser);
  const photos = useStore($photos);
  const upload = useStore($upload);
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState('');
  const [busyId, setBusyId] = useState<number | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<Photo | null>(null);

  useEffect(() => {
    loadPhotos().catch((e: unknown) => setProblem(describe(e)));
    // A staff decision on a photo (issue 22) shows at once: approved, it loses its mark; rejected, the notice appears.
    return onEvent('photos', () => void loadPhotos().catch(() => undefined));
  }, []);

  const paid = user?.paid_user ?? false;
  const max = photoLimit(paid);
  // Pending photos count toward the limit, rejected ones do not (issue 22).
  const count = photos?.filter((p) => countsTowardLimit(p.status)).length ?? 0;
  const waiting = photos?.some((p) => p.status === 'pending') ?? false;
  const rejected = photos?.filter((p) => p.status === 'rejected') ?? [];

  function describe(error: unknown): Problem {
    if (!(error instanceof ApiError) || error.code === 'network' || !error.message) return { message: m.error_generic({}, o), premium: false };
    return { message: error.message, premium: error.code === 'premium_only' };
  }

  async function run(action: () => Promise<unknown>, success = '') {
    setProblem(null);
    setDone('');
    try {
      await action();
      setDone(success);
    } catch (error) {
      setProblem(describe(error));
    }
  }

  async function onFile(file: File | undefined) {
    if (!file) return;
    if (file.size > PHOTO_MAX_BYTES) {
      setDone('');
      setProblem({ message: m.photo_too_large({}, o), premium: false });
    } else {
      await run(() => uploadPhoto(file), m.photos_uploaded({}, o));
    }
    if (input.current) input.current.value = '';
  }

  async function onMain(photo: Photo) {
    setBusyId(photo.id);
    await run(() => setMainPhoto(photo.id));
    setBusyId(null);
  }

  async function onDelete() {
    const photo = confirmDelete;
    if (!photo) return;
    setBusyId(photo.id);
    await run(() => deletePhoto(photo.id));
    setBusyId(null);
    setConfirmDelete(null);
  }

  const uploading = upload !== null;
  const percent = upload ? Math.round(upload.progress * 100) : 0;

  return (
    <div className="space-y-4" aria-busy={uploading || photos === null}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-semibold text-gray-700" data-testid="photo-count">{m.photos_count({ count, max }, o)}</p>
        <div>
          <input
            ref={input}
            id="photo-upload"
            type="file"
            accept="image/*"
            className="peer sr-only"
            disabled={uploading}
            aria-describedby="photo-upload-hint"
            onChange={(e) => void onFile(e.currentTarget.files?.[0])}
          />
          <label
            htmlFor="photo-upload"
            className={`btn-primary peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary ${uploading ? 'pointer-events-none opacity-60' : ''}`}
          >
            <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
              <path d="M12 5v14M5 12h14" />
            </svg>
            {m.photos_upload({}, o)}
          </label>
        </div>
      </div>
      <p id="photo-upload-hint" className="text-xs text-gray-600">{m.photos_hint({}, o)}</p>

      {uploading && (
        <div>
          <p className="mb-1 text-sm text-gray-700" role="status">
            {percent < 100 ? m.photos_uploading({ percent }, o) : m.photos_processing({}, o)}
          </p>
          <div className="h-2 overflow-hidden rounded-full bg-gray-200" aria-hidden="true">
            <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${Math.max(percent, 5)}%` }} />
          </div>
        </div>
      )}

      {problem ? (
        <Notice tone="error">
          <p>{problem.message}</p>
          {problem.premium && (
            <p className="mt-1">
              {m.photos_premium_more({ max: PREMIUM_PHOTOS }, o)}{' '}
              <a href="/premium" className="font-semibold">{m.nav_get_premium({}, o)}</a>
            </p>
          )}
        </Notice>
      ) : (
        <Notice tone="success">{done}</Notice>
      )}

      {waiting && (
        <Notice tone="info">{m.photos_pending_notice({}, o)}</Notice>
      )}
      {rejected.map((photo) => (
        <Notice key={photo.id} tone="error">
          <p>{m.photos_rejected_notice({ reason: reasonText(photo.reason, o) }, o)}</p>
        </Notice>
      ))}

      {photos === null ? (
        <p className="text-gray-600">{m.profile_loading({}, o)}</p>
      ) : photos.length === 0 ? (
        <p className="rounded-xl border-2 border-dashed border-gray-300 px-4 py-8 text-center text-gray-600">{m.photos_empty({}, o)}</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label={m.profile_section_photos({}, o)}>
          {photos.map((photo, index) => (
            <li key={photo.id} className={`group relative aspect-square overflow-hidden rounded-xl bg-gray-100 ${photo.main ? 'outline-3 outline-solid outline-offset-2 outline-primary' : ''}`}>
              <img src={photo.thumb_url} alt={m.photos_photo({ number: index + 1 }, o)} className="h-full w-full object-cover" loading="lazy" />
              {photo.main && (
                <span className="absolute left-2 top-2 rounded-full bg-primary px-2.5 py-0.5 text-xs font-bold text-white shadow">{m.photos_main({}, o)}</span>
              )}
              {photo.status !== 'active' && (
                <span className="absolute right-2 top-2 rounded-full bg-white/90 px-2 py-0.5 text-xs font-semibold text-gray-800">
                  {photo.status === 'rejected' ? m.photos_status_rejected({}, o) : m.photos_status_pending({}, o)}
                </span>
              )}
              <div className="absolute inset-x-0 bottom-0 flex justify-end gap-2 bg-gradient-to-t from-black/60 to-transparent p-2 pt-8">
                {!photo.main && photo.status !== 'rejected' && (
                  <IconButton
                    label={`${m.photos_set_main({}, o)}: ${m.photos_photo({ number: index + 1 }, o)}`}
                    title={m.photos_set_main({}, o)}
                    disabled={busyId !== null}
                    onClick={() => void onMain(photo)}
                  >
                    <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
                  </IconButton>
                )}
                <IconButton
                  label={`${m.photos_delete({}, o)}: ${m.photos_photo({ number: index + 1 }, o)}`}
                  title={m.photos_delete({}, o)}
                  danger
                  disabled={busyId !== null}
                  onClick={() => setConfirmDelete(photo)}
                >
                  <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
                </IconButton>
              </div>
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={confirmDelete !== null}
        title={m.photos_delete_title({}, o)}
        text={m.photos_delete_text({}, o)}
        confirm={m.photos_delete({}, o)}
        cancel={m.action_cancel({}, o)}
        busy={busyId !== null}
        onConfirm={() => void onDelete()}
        onCancel={() => setConfirmDelete(null)}
      />
    </div>
  );
}

/** The reason of a rejection in the member's language (PHOTO_REJECT_REASONS, each in every catalogue). */
function reasonText(reason: string | undefined, o: { locale: Locale }): string {
  const texts: Record<PhotoRejectReason, () => string> = {
    not_a_person: () => m.photo_reason_not_a_person({}, o),
    nudity_in_profile: () => m.photo_reason_nudity_in_profile({}, o),
    minor_suspected: () => m.photo_reason_minor_suspected({}, o),
    not_the_member: () => m.photo_reason_not_the_member({}, o),
    contact_details: () => m.photo_reason_contact_details({}, o),
    copyright: () => m.photo_reason_copyright({}, o),
    other: () => m.photo_reason_other({}, o),
  };
  return (texts[reason as PhotoRejectReason] ?? texts.other)();
}

interface IconButtonProps {
  label: string;
  title: string;
  danger?: boolean;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}

/** A round button on a photo, named for screen readers by its label. */
function IconButton({ label, title, danger = false, disabled, onClick, children }: IconButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={title}
      disabled={disabled}
      onClick={onClick}
      className={`grid h-10 w-10 cursor-pointer place-items-center rounded-full border-0 bg-white shadow transition-colors disabled:opacity-50 ${danger ? 'text-danger hover:bg-danger hover:text-white' : 'text-primary hover:bg-primary hover:text-white'}`}
    >
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        {children}
      </svg>
    </button>
  );
}
