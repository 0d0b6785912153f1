/**
 * The welcome time bonus (SPEC §4, §9): for a logged-in member who has not paid, within
 * TIME_BONUS.seconds of signup, a banner counts down every second in hh:mm:ss and links to the
 * credits page with TIMEBONUS25 as the active code. It is gone at zero, on logout and once the
 * member has paid (it follows the user store). In the members area, a member with 0 credits is
 * offered it in a modal TIME_BONUS_MODAL_DELAY_MS after entering the area, once: the dismissal is
 * stored in this browser.
 */
import { useEffect, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import type { SiteUser } from '../../contract/user.ts';
import { TIME_BONUS, TIME_BONUS_MODAL_DELAY_MS, formatCountdown, timeBonusLeft } from '../../lib/discounts.ts';
import { useSeedUser } from '../profile/useSeedUser.ts';
import { useModal } from '../profile/ConfirmDialog.tsx';

interface Props {
  locale: Locale;
  /** The member the page was rendered for; null on a member shell (the user store fills in). */
  user: SiteUser | null;
  /** The default layout shows the banner; the bare chat layout only the modal. */
  banner: boolean;
  membersArea: boolean;
}

const dismissedKey = (userId: number) => `timebonus_modal_dismissed_${userId}`;
/** When this tab entered the members area (the modal's 40 s run from there, across its pages). */
const ENTERED_KEY = 'members_area_entered_at';
export const TIME_BONUS_HREF = `/credits?code=${TIME_BONUS.code}`;

export default function TimeBonus({ locale, user: initial, banner, membersArea }: Props) {
  const o = { locale };
  // A shell was rendered without a member: nothing until hydrated, though the store may have one
  // already (the page's first render in the browser must match the server's).
  const [hydrated, setHydrated] = useState(initial !== null);
  // The countdown is the browser's clock: the server's HTML and the hydrating render leave it
  // empty (they are seconds apart), it starts once mounted.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setHydrated(true);
    setMounted(true);
  }, []);
  const seeded = useSeedUser(initial);
  const user = hydrated ? seeded : null;
  const [now, setNow] = useState(() => Date.now());
  const [modal, setModal] = useState(false);
  const left = timeBonusLeft(user, now);
  const dialog = useModal(modal && left > 0);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [left > 0]);

  useEffect(() => {
    if (!membersArea || !user || left <= 0) return;
    if (localStorage.getItem(dismissedKey(user.id)) !== null) return;
    const entered = Number(sessionStorage.getItem(ENTERED_KEY)) || Date.now();
    sessionStorage.setItem(ENTERED_KEY, String(entered));
    const timer = setTimeout(() => setModal(true), Math.max(0, entered + TIME_BONUS_MODAL_DELAY_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [membersArea, user?.id, left > 0]);

  if (!user || left <= 0) return null;
  const percent = TIME_BONUS.percentage;
  const dismiss = () => {
    localStorage.setItem(dismissedKey(user.id), String(Date.now()));
    setModal(false);
  };
  const countdown = mounted ? formatCountdown(left) : '';

  return (
    <>
      {banner && (
        <div className="container mt-3" data-time-bonus data-banner="time-bonus">
          <a href={TIME_BONUS_HREF} className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 rounded-2xl bg-primary px-4 py-2.5 text-center text-white no-underline shadow-sm hover:brightness-110">
            <span aria-hidden="true" className="i-tabler-gift text-xl" />
            <span className="text-sm font-semibold sm:text-base">{m.timebonus_banner({ percent }, o)}</span>
            <time className="min-w-[8ch] rounded-lg bg-white/20 px-2 py-0.5 font-mono font-bold sm:text-lg tabular-nums" role="timer" aria-live="off" data-countdown>{countdown}</time>
            <span className="rounded-full bg-white px-3 py-0.5 text-sm font-bold text-primary">{m.timebonus_use({}, o)}</span>
          </a>
        </div>
      )}
      {membersArea && user.credits === 0 && (
        <dialog ref={dialog} aria-labelledby="time-bonus-title" onCancel={(e) => { e.preventDefault(); dismiss(); }} onClick={(e) => e.target === e.currentTarget && dismiss()} data-time-bonus-modal>
          <div className="p-6 text-center">
            <span aria-hidden="true" className="i-tabler-gift mx-auto mb-2 block text-5xl text-primary" />
            <h2 id="time-bonus-title" className="mb-2 text-2xl font-extrabold">{m.timebonus_title({ percent }, o)}</h2>
            <p className="mb-4 text-gray-700">{m.timebonus_text({ percent }, o)}</p>
            <p className="mb-5 font-mono text-3xl font-bold tabular-nums text-primary" data-countdown>{countdown}</p>
            <div className="flex flex-col gap-3">
              <a href={TIME_BONUS_HREF} className="btn-primary py-3" onClick={dismiss}>{m.timebonus_cta({ percent }, o)}</a>
              <button type="button" className="btn-light" onClick={dismiss}>{m.timebonus_dismiss({}, o)}</button>
            </div>
          </div>
        </dialog>
      )}
    </>
  );
}
