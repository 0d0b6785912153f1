/**
 * The like or match dialog while open (LikeDialog.tsx, SPEC §2): loaded when it first opens.
 */
import { m } from '../../paraglide/messages.js';
import { Glyph } from '../Glyph.tsx';
import type { Locale } from '../../lib/locales.ts';
import type { Fictional } from '../search/ProfileCard.tsx';
import { $likeDialog, type DialogState } from '../../stores/likes.ts';
import { useModal } from '../profile/ConfirmDialog.tsx';

/** SPEC §9: the dialog's image animates in after 0.75 s. */
export const LIKE_DIALOG_IMAGE_DELAY_MS = 750;

interface Props {
  locale: Locale;
  fictional: Fictional;
  state: NonNullable<DialogState>;
}

export default function OpenLikeDialog({ locale, fictional, state }: Props) {
  const ref = useModal(true);
  const close = () => $likeDialog.set(null);
  const report = (profileId: number) => dispatchEvent(new CustomEvent('sitegen:like-dialog-click', { detail: { profile_id: profileId } }));
  const profile = state?.profile;
  const image = profile?.main_image?.filename ?? profile?.main_image?.thumb_filename ?? null;
  const title = !profile
    ? ''
    : state?.kind === 'match'
      ? m.match_dialog_title({}, { locale })
      : profile.liked_me
        ? m.like_dialog_liked_you({ name: profile.name }, { locale })
        : m.like_dialog_suggestion({ name: profile.name }, { locale });

  return (
    <dialog
      ref={ref}
      aria-labelledby="like-dialog-title"
      className="like-dialog w-[min(92vw,24rem)] overflow-hidden rounded-3xl p-0 text-center"
      onCancel={close}
      onClose={close}
      // SPEC §2: a click anywhere on the dialog closes it.
      onClick={close}
      data-kind={state?.kind}
    >
      {profile && (
        <div className="relative bg-gradient-to-br from-primary to-secondary px-6 pb-6 pt-8 text-white">
          <h2 id="like-dialog-title" className="text-2xl font-extrabold">{title}</h2>
          {state?.kind === 'match' && <p className="mt-1 text-white/90">{m.match_dialog_text({ name: profile.name }, { locale })}</p>}
          <a
            href={`/members/${profile.id}`}
            onClick={() => report(profile.id)}
            className="like-dialog-image relative mx-auto mt-5 block h-44 w-44 overflow-hidden rounded-full border-4 border-white bg-white/20 shadow-xl"
            style={{ animationDelay: `${LIKE_DIALOG_IMAGE_DELAY_MS}ms` }}
            aria-label={m.like_dialog_view({}, { locale })}
            data-like-dialog-image
          >
            {image ? (
              <img src={image} alt="" className="h-full w-full object-cover" />
            ) : (
              <span className="grid h-full w-full place-items-center text-6xl font-black" aria-hidden="true">{profile.name.charAt(0).toUpperCase()}</span>
            )}
          </a>
          <p className="mt-3 text-lg font-bold">
            {profile.name}, {profile.age}
          </p>
          {profile.fictional && (
            <p role="note" className="mx-auto mt-3 flex max-w-72 items-start gap-2 rounded-xl bg-white/90 px-3 py-2 text-left text-xs text-gray-800">
              <Glyph icon={fictional.icon} className="text-base leading-none" />
              <span>{fictional.warning}</span>
            </p>
          )}
          <a href={`/members/${profile.id}`} onClick={() => report(profile.id)} className="btn mt-5 inline-flex bg-white px-6 text-primary no-underline hover:brightness-95">
            {m.like_dialog_view({}, { locale })}
          </a>
          <p className="mt-3 text-xs text-white/80">{m.like_dialog_close_hint({}, { locale })}</p>
        </div>
      )}
    </dialog>
  );
}
