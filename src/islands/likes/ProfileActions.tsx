/**
 * The buttons of another member's profile (SPEC §2 profile view): like and unlike, message and
 * gift (to the chat), block and unblock, and report (to /complaints with the member filled in). A like back is a match and opens
 * the match dialog; blocking asks first. A blocked profile shows only the notice and unblock.
 */
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import type { ProfileCardData, Relation } from '../../contract/likes.ts';
import { changeLikes, markLiked } from '../../stores/likes.ts';
import { api, ApiError } from '../../stores/api.ts';
import { ConfirmDialog } from '../profile/ConfirmDialog.tsx';
import { Notice } from '../profile/Notice.tsx';
import { useLike } from './useLike.ts';

/**
 * Like, message and gift: equal cells of one row, the icon above the label at every width. Beside
 * the icon a label had a third of the profile's column less the icon: at 1280 px "Send a message",
 * "Nachricht senden" and "Envoyer un message" broke onto two lines there; above it they fit whole.
 */
const MAIN_ACTION = 'min-w-0 flex-col gap-1 rounded-2xl px-2 py-2 text-center text-sm leading-tight';

interface Props {
  locale: Locale;
  profile: ProfileCardData;
  relation: Relation;
}

export default function ProfileActions({ locale, profile, relation }: Props) {
  const like = useLike(profile, relation.liked);
  const isLiked = like.liked;
  const hydrated = like.hydrated;
  const [blocked, setBlocked] = useState(relation.blocked);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const name = profile.name;

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setNotice(null);
    try {
      await work();
    } catch (error) {
      setNotice({ tone: 'error', text: error instanceof ApiError ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  }

  const toggleLike = () => {
    setNotice(null);
    void like.toggle();
  };
  const block = () =>
    run(async () => {
      await changeLikes(() => api('POST', '/block.php', { profile_id: profile.id }));
      setConfirm(false);
      setBlocked(true);
      // The block deleted the likes between the two.
      markLiked(profile.id, false);
      // The blocked notice below says it already: no second "is blocked" message.
    });
  const unblock = () =>
    run(async () => {
      await api('DELETE', '/block.php', { profile_id: profile.id });
      setBlocked(false);
      setNotice({ tone: 'success', text: m.unblock_done({ name }, { locale }) });
    });

  if (blocked) {
    return (
      <div className="space-y-3" data-profile-actions>
        <p role="note" className="rounded-xl bg-gray-100 px-4 py-3 text-sm text-gray-800">{m.profile_blocked_notice({ name }, { locale })}</p>
        <button type="button" className="btn-light" onClick={unblock} disabled={busy || !hydrated}>
          <span aria-hidden="true" className="i-tabler-lock-open" />
          {m.profile_unblock({}, { locale })}
        </button>
        <Notice tone={notice?.tone ?? 'success'}>{notice?.text}</Notice>
      </div>
    );
  }

  const match = isLiked && relation.liked_me;
  return (
    <div className="space-y-3" data-profile-actions>
      {(match || relation.liked_me) && (
        <p className="flex items-center gap-2 font-semibold text-primary">
          <span aria-hidden="true" className={match ? 'i-tabler-hearts text-xl' : 'i-tabler-heart text-xl'} />
          {match ? m.profile_match({}, { locale }) : m.profile_likes_you({ name }, { locale })}
        </p>
      )}
      {/* The three actions are one row of equal cells at every width; reporting and blocking follow on a row of their own. */}
      <div className="grid grid-cols-3 gap-2" data-profile-main-actions>
        <button
          type="button"
          className={`${isLiked ? 'btn-light' : 'btn-primary'} ${MAIN_ACTION}`}
          aria-pressed={isLiked}
          onClick={toggleLike}
          disabled={busy || like.busy || !hydrated}
          data-like
        >
          <span aria-hidden="true" className={isLiked ? 'i-tabler-heart-filled' : 'i-tabler-heart'} />
          {isLiked ? m.profile_unlike({}, { locale }) : relation.liked_me ? m.profile_like_back({}, { locale }) : m.profile_like({}, { locale })}
        </button>
        <a href={`/members/${profile.id}/chat`} className={`btn-primary ${MAIN_ACTION} no-underline`} data-message-button>
          <span aria-hidden="true" className="i-tabler-message-circle" />
          {m.profile_message({}, { locale })}
        </a>
        <a href={`/members/${profile.id}/chat?gift=1`} className={`btn-light ${MAIN_ACTION} no-underline`} data-gift-button>
          <span aria-hidden="true" className="i-tabler-gift" />
          {m.profile_gift({}, { locale })}
        </a>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <a href={`/complaints?profile=${profile.id}`} className="btn px-3 text-sm text-gray-700 no-underline hover:text-gray-900">
          <span aria-hidden="true" className="i-tabler-flag" />
          {m.profile_report({}, { locale })}
        </a>
        <button type="button" className="btn px-3 text-sm text-gray-700 hover:text-danger" onClick={() => setConfirm(true)} disabled={busy || !hydrated}>
          <span aria-hidden="true" className="i-tabler-ban" />
          {m.profile_block({}, { locale })}
        </button>
      </div>
      <Notice tone={like.error ? 'error' : (notice?.tone ?? 'success')}>{like.error || notice?.text}</Notice>
      <ConfirmDialog
        open={confirm}
        title={m.block_confirm_title({ name }, { locale })}
        text={m.block_confirm_text({ name }, { locale })}
        confirm={m.profile_block({}, { locale })}
        cancel={m.action_cancel({}, { locale })}
        busy={busy}
        onConfirm={block}
        onCancel={() => setConfirm(false)}
      />
    </div>
  );
}
