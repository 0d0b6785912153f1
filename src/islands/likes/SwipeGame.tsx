/**
 * The swipe game (SPEC §2, §4, §9): a stack of cards, dragged right to like and left to pass
 * (touch and mouse through pointer events), with buttons and the arrow keys too. At most 4 likes
 * per brand day, counted on the server; then a wait screen with the time left, ticking. A mutual
 * like opens the match dialog. The server never hands out a profile answered before.
 */
import { useEffect, useRef, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { placeLine } from '../../lib/place-names.ts';
import { Glyph } from '../Glyph.tsx';
import type { Locale } from '../../lib/locales.ts';
import type { SwipeCard, SwipeState } from '../../contract/likes.ts';
import { SWIPE_LIKES_PER_DAY } from '../../contract/likes.ts';
import type { Fictional } from '../search/ProfileCard.tsx';
import { api, ApiError } from '../../stores/api.ts';
import { $likeDialog, changeLikes, loadSwipeDeck, markLiked } from '../../stores/likes.ts';
import { useHydrated } from '../useHydrated.ts';

/** How far (px) a card must be dragged to count as an answer. */
const SWIPE_THRESHOLD = 110;
/** Ask for more cards when this few are left. */
const REFILL_AT = 3;
/** The card is never narrower than this (px), however little room the viewport leaves. */
const MIN_CARD_WIDTH = 180;
/** Room (px) kept free below the card and its buttons. */
const BOTTOM_GAP = 16;

/**
 * Sizes the card as large as fits the first screen with its buttons (issue 21: at 1280x800 the
 * buttons were below the fold, then the card was small): the card's height is what is left
 * between its top and the viewport's bottom, less what of the buttons stands below it (beside the
 * card from 640 px, overlapping its foot on a phone). It follows the page as banners come and go.
 */
function useFitDeck() {
  const deck = useRef<HTMLDivElement>(null);
  const pass = useRef<HTMLButtonElement>(null);
  const like = useRef<HTMLButtonElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const fit = () => {
      if (!deck.current || !pass.current || !like.current) return;
      const card = deck.current.getBoundingClientRect();
      const below = Math.max(0, pass.current.getBoundingClientRect().bottom - card.bottom, like.current.getBoundingClientRect().bottom - card.bottom);
      const height = innerHeight - (card.top + scrollY) - below - BOTTOM_GAP;
      setWidth(Math.max(MIN_CARD_WIDTH, Math.floor((height * 3) / 4)));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(document.body);
    addEventListener('resize', fit);
    return () => {
      observer.disconnect();
      removeEventListener('resize', fit);
    };
  }, []);
  return { deck, pass, like, style: { width: width === null ? undefined : `min(100%, 28rem, ${width}px)` } };
}

type Deck = SwipeState & { profiles: SwipeCard[] };

interface Props {
  locale: Locale;
  fictional: Fictional;
  initial: Deck;
  /** The page's heading (the island puts the likes left beside it). */
  title: string;
  /** Interest labels by key, in the member's language. */
  interestLabels: Record<string, string>;
}

/** hh:mm:ss until `at`. */
function timeLeft(at: string, now: number): string {
  const s = Math.max(0, Math.round((Date.parse(at) - now) / 1000));
  return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
}

export default function SwipeGame({ locale, fictional, initial, title, interestLabels }: Props) {
  const [cards, setCards] = useState(initial.profiles);
  const [state, setState] = useState<SwipeState>({ likes_left: initial.likes_left, next_at: initial.next_at });
  const [drag, setDrag] = useState<{ x: number; y: number } | null>(null);
  const [leaving, setLeaving] = useState<'like' | 'pass' | null>(null);
  const [error, setError] = useState('');
  const [now, setNow] = useState(() => Date.now());
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const busy = useRef(false);
  const hydrated = useHydrated();
  const fit = useFitDeck();
  const top = cards[0];
  const waiting = state.likes_left === 0 && state.next_at !== null;

  // The wait screen counts down every second and reloads the deck when the new day starts.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.parse(state.next_at!) <= Date.now()) void refill(true);
    }, 1000);
    return () => clearInterval(timer);
  }, [waiting, state.next_at]);

  async function refill(reset = false) {
    try {
      await loadSwipeDeck((deck) => {
        setState({ likes_left: deck.likes_left, next_at: deck.next_at });
        setCards((old) => {
          const known = new Set((reset ? [] : old).map((c) => c.id));
          return [...(reset ? [] : old), ...deck.profiles.filter((c) => !known.has(c.id))];
        });
      });
    } catch {
      // The next answer asks again.
    }
  }

  async function answer(action: 'like' | 'pass') {
    if (!top || busy.current) return;
    if (action === 'like' && waiting) return;
    busy.current = true;
    setError('');
    setLeaving(action);
    try {
      const result = await changeLikes(() => api('POST', '/swipe.php', { profile_id: top.id, action }));
      setState({ likes_left: result.likes_left, next_at: result.next_at });
      if (action === 'like') markLiked(top.id, true);
      if (result.match) $likeDialog.set({ kind: 'match', profile: top });
      await new Promise((r) => setTimeout(r, 180));
      setCards((old) => old.slice(1));
      if (cards.length - 1 <= REFILL_AT) void refill();
    } catch (e) {
      if (e instanceof ApiError && e.status === 429) {
        const body = e.body as { next_at?: string } | undefined;
        setState({ likes_left: 0, next_at: body?.next_at ?? null });
      } else {
        setError(e instanceof ApiError ? e.message : String(e));
      }
    } finally {
      setLeaving(null);
      setDrag(null);
      busy.current = false;
    }
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
      if (document.querySelector('dialog[open]')) return;
      if (e.key === 'ArrowRight') void answer('like');
      if (e.key === 'ArrowLeft') void answer('pass');
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });

  const heading = <h1 className="text-2xl font-bold md:text-3xl">{title}</h1>;

  if (waiting) {
    // The browser's clock: the server's HTML and the hydrating render (seconds apart) show no time yet.
    const left = hydrated ? timeLeft(state.next_at!, now) : '--:--:--';
    return (
      <>
        <div className="mb-4">{heading}</div>
        <section className="card mx-auto max-w-md px-6 py-10 text-center" aria-live="polite" data-swipe-wait>
          <span aria-hidden="true" className="mx-auto mb-4 grid h-16 w-16 place-items-center rounded-full bg-primary/10 text-3xl text-primary">
            <span className="i-tabler-hourglass" />
          </span>
          <h2 className="text-xl font-bold">{m.swipe_wait_title({}, { locale })}</h2>
          <p className="mt-2 text-gray-700">{m.swipe_wait_text({ time: left, count: SWIPE_LIKES_PER_DAY }, { locale })}</p>
          <p className="mt-4 font-mono text-3xl font-bold tabular-nums text-primary" data-swipe-countdown>{left}</p>
          <a href="/likes" className="btn-primary mt-6 inline-flex">{m.swipe_wait_likes({}, { locale })}</a>
        </section>
      </>
    );
  }

  if (!top) {
    return (
      <>
        <div className="mb-4">{heading}</div>
        <section className="card mx-auto max-w-md px-6 py-10 text-center" data-swipe-empty>
          <span aria-hidden="true" className="mx-auto mb-4 grid h-16 w-16 place-items-center rounded-full bg-primary/10 text-3xl text-primary">
            <span className="i-tabler-cards" />
          </span>
          <p className="text-gray-700">{m.swipe_empty({}, { locale })}</p>
          <a href="/members" className="btn-primary mt-6 inline-flex">{m.route_members({}, { locale })}</a>
        </section>
      </>
    );
  }

  const dx = leaving === 'like' ? 600 : leaving === 'pass' ? -600 : (drag?.x ?? 0);
  const dy = leaving ? 0 : (drag?.y ?? 0);
  const image = (card: SwipeCard) => card.main_image?.filename ?? card.main_image?.thumb_filename ?? null;
  const place = placeLine(top, locale);

  return (
    <section className="flex flex-col items-center gap-4" aria-label={m.route_swipe_game({}, { locale })}>
      {/* The count beside the heading: the card takes the height it would have taken. */}
      <div className="flex w-full flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        {heading}
        <p className="text-sm font-semibold text-primary" aria-live="polite" data-likes-left={state.likes_left}>
          {state.likes_left === 1 ? m.swipe_left_one({}, { locale }) : m.swipe_left({ count: state.likes_left }, { locale })}
        </p>
      </div>
      {/*
        Pass left of the card and like right of it from 640 px, as the drag goes; on a phone both
        overlap the card's foot. The like button is 16 px wider than pass: on a phone the pair is
        centred under the card (the middle columns take their widths), from 640 px pass stands
        16 px further out, so either way the buttons' row is centred on the card.
      */}
      <div className="grid w-full grid-cols-[1fr_auto_auto_1fr] justify-items-center gap-x-6 sm:flex sm:items-center sm:justify-center sm:gap-x-8">
        <div ref={fit.deck} className="relative col-span-full aspect-[3/4] w-[min(100%,28rem,calc((100dvh-22rem)*0.75))] min-w-45 select-none" style={fit.style}>
          {cards.slice(1, 3).reverse().map((card, i) => (
            <div key={card.id} aria-hidden="true" className="absolute inset-0 overflow-hidden rounded-3xl bg-gray-200 shadow" style={{ transform: `scale(${0.92 + i * 0.04}) translateY(${(1 - i) * 14}px)` }}>
              {image(card) && <img src={image(card)!} alt="" className="h-full w-full object-cover opacity-80" />}
            </div>
          ))}
          <article
            key={top.id}
            aria-label={m.swipe_card_of({ name: top.name }, { locale })}
            className="absolute inset-0 cursor-grab touch-none overflow-hidden rounded-3xl bg-gradient-to-br from-primary/40 to-secondary/50 shadow-xl active:cursor-grabbing"
            style={{
              transform: `translate(${dx}px, ${dy}px) rotate(${dx / 18}deg)`,
              transition: drag && !leaving ? 'none' : 'transform 0.2s ease-out',
            }}
            data-swipe-card={top.id}
            onPointerDown={(e) => {
              if (e.button !== 0) return;
              start.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
              e.currentTarget.setPointerCapture(e.pointerId);
              setDrag({ x: 0, y: 0 });
            }}
            onPointerMove={(e) => {
              if (!start.current || start.current.id !== e.pointerId) return;
              setDrag({ x: e.clientX - start.current.x, y: (e.clientY - start.current.y) / 3 });
            }}
            onPointerUp={(e) => {
              if (!start.current) return;
              const x = e.clientX - start.current.x;
              start.current = null;
              if (x > SWIPE_THRESHOLD) void answer('like');
              else if (x < -SWIPE_THRESHOLD) void answer('pass');
              else setDrag(null);
            }}
            onPointerCancel={() => {
              start.current = null;
              setDrag(null);
            }}
          >
            {image(top) ? (
              <img src={image(top)!} alt="" draggable={false} className="pointer-events-none h-full w-full object-cover" />
            ) : (
              <span aria-hidden="true" className="grid h-full w-full place-items-center text-8xl font-black text-white/90">{top.name.charAt(0).toUpperCase()}</span>
            )}
            {/* The answer the drag is heading for. */}
            <span aria-hidden="true" className="absolute left-5 top-6 rotate-[-14deg] rounded-lg border-4 border-success px-3 py-1 text-2xl font-black uppercase text-success" style={{ opacity: Math.max(0, Math.min(1, dx / SWIPE_THRESHOLD)) }}>
              {m.swipe_like({}, { locale })}
            </span>
            <span aria-hidden="true" className="absolute right-5 top-6 rotate-[14deg] rounded-lg border-4 border-danger px-3 py-1 text-2xl font-black uppercase text-danger" style={{ opacity: Math.max(0, Math.min(1, -dx / SWIPE_THRESHOLD)) }}>
              {m.swipe_pass({}, { locale })}
            </span>
            <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/85 via-black/50 to-transparent px-4 pb-12 pt-12 text-white sm:px-5 sm:pb-5 sm:pt-16">
              {/* In words, above the name (DESIGN §10): an icon alone is too faint a disclosure. */}
              {top.fictional && (
                <p className="mb-2 inline-flex items-start gap-1.5 rounded-lg bg-warning px-2.5 py-1 text-xs font-bold text-gray-900" data-fictional>
                  <Glyph icon={fictional.icon} className="mt-px shrink-0" />
                  {fictional.warning}
                </p>
              )}
              <h2 className="text-xl font-extrabold sm:text-2xl">
                <a href={`/members/${top.id}`} className="text-white no-underline hover:underline" draggable={false}>{top.name}</a>, {top.age}
              </h2>
              {place && <p className="text-sm text-white/90">{place}</p>}
              {top.about && <p className="mt-2 line-clamp-2 text-sm text-white/90">{top.about}</p>}
              {top.interests.length > 0 && (
                <ul className="mt-2 flex flex-wrap gap-1.5">
                  {top.interests.slice(0, 4).map((key) => interestLabels[key] && <li key={key} className="rounded-full bg-white/20 px-2 py-0.5 text-xs">{interestLabels[key]}</li>)}
                </ul>
              )}
            </div>
          </article>
        </div>
        <button ref={fit.pass} type="button" onClick={() => void answer('pass')} disabled={!hydrated} className="relative z-10 col-start-2 -mt-10 grid h-16 w-16 place-items-center shrink-0 rounded-full bg-white text-3xl text-danger shadow-lg hover:scale-105 sm:order-first sm:mr-4 sm:mt-0" aria-label={m.swipe_pass({}, { locale })} data-swipe="pass">
          <span aria-hidden="true" className="i-tabler-x" />
        </button>
        <button ref={fit.like} type="button" onClick={() => void answer('like')} disabled={!hydrated} className="relative z-10 -mt-10 grid h-20 w-20 place-items-center shrink-0 rounded-full bg-primary text-4xl text-white shadow-lg hover:scale-105 sm:mt-0" aria-label={m.swipe_like({}, { locale })} data-swipe="like">
          <span aria-hidden="true" className="i-tabler-heart-filled" />
        </button>
      </div>
      {top.fictional && <p role="note" className="max-w-sm text-center text-xs text-gray-600">{fictional.warning}</p>}
      <p className="max-w-sm text-center text-xs text-gray-600">{m.swipe_hint({}, { locale })}</p>
      {error && <p role="alert" className="text-sm text-danger">{error}</p>}
    </section>
  );
}
