/**
 * The chat's dialogs (SPEC §2): the gift catalogue with each gift's price in credits, the GIF
 * search (GET /api/gifs.php), and the icebreakers: ready openers in the member's language. Few
 * visits open one: the conversation loads this module when the member opens a dialog (issue 21).
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { GIFTS, isGiftId } from '../../lib/gifts.ts';
import type { Gif } from '../../contract/chat.ts';
import { api, ApiError } from '../../stores/api.ts';
import { Glyph } from '../Glyph.tsx';
import { useModal } from '../profile/ConfirmDialog.tsx';
import { giftName, type ChatContext } from './context.ts';

function Dialog({ locale, open, title, onClose, children }: { locale: Locale; open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useModal(open);
  const id = useId();
  // Closed before it goes: the browser gives the focus back to where it was.
  const close = () => {
    ref.current?.close();
    onClose();
  };
  return (
    <dialog
      ref={ref}
      aria-labelledby={id}
      className="w-[min(92vw,32rem)]"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="p-5">
        <div className="mb-4 flex items-center gap-2">
          <h2 id={id} className="flex-1 text-xl font-bold">{title}</h2>
          <button type="button" className="grid h-9 w-9 place-items-center rounded-full text-gray-600 hover:bg-gray-100" onClick={close} aria-label={m.action_close({}, { locale })}>
            <span aria-hidden="true" className="i-tabler-x text-xl" />
          </button>
        </div>
        {open && children}
      </div>
    </dialog>
  );
}

export function GiftDialog({ ctx, open, name, onClose, onPick }: { ctx: ChatContext; open: boolean; name: string; onClose: () => void; onPick: (id: string) => void }) {
  const o = { locale: ctx.locale };
  return (
    <Dialog locale={ctx.locale} open={open} title={m.chat_gift_title({ name }, o)} onClose={onClose}>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" data-gifts>
        {ctx.gifts.map((gift) => {
          const look = isGiftId(gift.id) ? GIFTS[gift.id] : null;
          return (
            <li key={gift.id}>
              <button type="button" className="flex w-full flex-col items-center gap-1 rounded-xl border border-gray-200 p-3 hover:border-primary hover:bg-primary/5" onClick={() => onPick(gift.id)} data-gift={gift.id}>
                {look && (
                  <span style={{ color: look.colour }}>
                    <Glyph icon={look.icon} className="text-4xl" />
                  </span>
                )}
                <span className="text-sm font-semibold">{giftName(ctx, gift.id)}</span>
                <span className="text-xs text-gray-600">{m.chat_gift_price({ credits: gift.credits }, o)}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}

export function GifDialog({ ctx, open, onClose, onPick }: { ctx: ChatContext; open: boolean; onClose: () => void; onPick: (id: string) => void }) {
  const o = { locale: ctx.locale };
  const [query, setQuery] = useState('');
  const [gifs, setGifs] = useState<Gif[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => {
      api('GET', '/gifs.php', undefined, { q: query }).then(
        (answer) => {
          setGifs(answer.gifs);
          setError('');
        },
        (e: unknown) => setError(e instanceof ApiError ? e.message : String(e)),
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [open, query]);
  return (
    <Dialog locale={ctx.locale} open={open} title={m.chat_gif_title({}, o)} onClose={onClose}>
      <label className="mb-3 block">
        <span className="sr-only">{m.chat_gif_search({}, o)}</span>
        <input type="search" value={query} onChange={(e) => setQuery(e.currentTarget.value)} placeholder={m.chat_gif_search({}, o)} className="w-full rounded-full border border-gray-300 px-4 py-2" autoFocus data-gif-search />
      </label>
      {error && <p role="alert" className="text-danger">{error}</p>}
      {gifs?.length === 0 && <p className="py-6 text-center text-gray-600">{m.chat_gif_none({}, o)}</p>}
      <ul className="grid max-h-[50vh] grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-4" data-gifs>
        {(gifs ?? []).map((gif) => (
          <li key={gif.id}>
            <button type="button" className="block w-full overflow-hidden rounded-xl border border-gray-200 bg-gray-50 p-1 hover:border-primary" onClick={() => onPick(gif.id)} data-gif={gif.id}>
              <img src={gif.url} alt={gif.title} width={gif.width} height={gif.height} className="aspect-square w-full object-contain" loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

export function IcebreakerDialog({ ctx, open, onClose, onPick }: { ctx: ChatContext; open: boolean; onClose: () => void; onPick: (line: string) => void }) {
  const o = { locale: ctx.locale };
  return (
    <Dialog locale={ctx.locale} open={open} title={m.chat_icebreakers_title({}, o)} onClose={onClose}>
      <p className="mb-3 text-gray-600">{m.chat_icebreakers_text({}, o)}</p>
      <ul className="flex flex-col gap-2" data-icebreakers>
        {ctx.words.icebreakers.map((line) => (
          <li key={line}>
            <button type="button" className="w-full rounded-xl border border-gray-200 px-4 py-3 text-left hover:border-primary hover:bg-primary/5" onClick={() => onPick(line)}>
              {line}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

/** The dialog the member opened, the conversation's lazily loaded part. */
export type ChatDialogKind = 'gift' | 'gif' | 'icebreaker';

interface ChatDialogProps {
  kind: ChatDialogKind;
  ctx: ChatContext;
  /** The other member's name (the gift dialog's title). */
  name: string;
  onClose: () => void;
  onGift: (id: string) => void;
  onGif: (id: string) => void;
  onIcebreaker: (line: string) => void;
}

export default function ChatDialog({ kind, ctx, name, onClose, onGift, onGif, onIcebreaker }: ChatDialogProps) {
  if (kind === 'gift') return <GiftDialog ctx={ctx} open name={name} onClose={onClose} onPick={onGift} />;
  if (kind === 'gif') return <GifDialog ctx={ctx} open onClose={onClose} onPick={onGif} />;
  return <IcebreakerDialog ctx={ctx} open onClose={onClose} onPick={onIcebreaker} />;
}
