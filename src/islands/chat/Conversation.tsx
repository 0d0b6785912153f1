/**
 * One conversation (SPEC §2 chat view, §4 chat): the in-chat top bar (back to the list below
 * 992 px, the profile link, the fictional marker and warning, the credits badge), the messages as
 * bubbles for text, photo, gift and GIF with the read state and the typing indicator, the notices
 * of SPEC §4 (older messages hidden, an unconfirmed address, premium or credits needed), and the
 * send footer: text, photo, gift, GIF and the icebreakers of a new conversation.
 */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../../paraglide/messages.js';
import { Glyph } from '../Glyph.tsx';
import { useHydrated } from '../useHydrated.ts';
import { creditsBadge } from '../../lib/badges.ts';
import { GIFTS, isGiftId } from '../../lib/gifts.ts';
import { formatMoney } from '../../lib/money.ts';
import { FREE_CONVERSATIONS } from '../../lib/membership.ts';
import type { ChatMessage } from '../../contract/chat.ts';
import { $offer, dropPending, retry, sendMessage, sendPhoto, typing } from '../../stores/chat.ts';
import type { OpenConversation } from '../../stores/chat.ts';
import type { SiteUser } from '../../contract/user.ts';
import { chatTime, giftName, type ChatContext } from './context.ts';
import { Avatar } from './Avatar.tsx';
import type { ChatDialogKind } from './dialogs.tsx';

// The gift, GIF and icebreaker dialogs load when the member opens one (issue 21: lighter chat pages).
const ChatDialog = lazy(() => import('./dialogs.tsx'));

export function Conversation({ ctx, open, user }: { ctx: ChatContext; open: OpenConversation; user: SiteUser | null }) {
  const offer = useStore($offer);
  const hydrated = useHydrated();
  const o = { locale: ctx.locale };
  const { answer, pending } = open;
  // A free member's third conversation (SPEC §9): the refusal, how many a free member starts and what premium costs.
  const premiumText = ctx.premiumFrom ? `${m.premium_only({}, o)}. ${m.chat_free_conversations({ count: FREE_CONVERSATIONS, price: ctx.premiumFrom }, o)}` : m.premium_only({}, o);
  const { profile, conversation } = answer;
  const messages = conversation?.messages ?? [];
  const [text, setText] = useState('');
  const [dialog, setDialog] = useState<ChatDialogKind | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const file = useRef<HTMLInputElement>(null);

  // The newest message in view: on opening, and as messages or the typing indicator arrive.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, pending.length, open.typing]);
  useEffect(() => {
    // Once the island is alive (the input is disabled before: text typed then would be lost).
    if (!hydrated) return;
    // The profile's gift button opens the chat with the gifts (?gift=1), once.
    const url = new URL(location.href);
    if (url.searchParams.has('gift')) {
      url.searchParams.delete('gift');
      history.replaceState(history.state, '', url.pathname + url.search + url.hash);
      if (answer.can_send) setDialog('gift');
    } else if (matchMedia('(pointer: fine)').matches) input.current?.focus();
  }, [profile.id, hydrated]);

  const credits = user ? creditsBadge(user.credits, true) : null;
  const canSend = answer.can_send && hydrated;
  const lastMineRead = [...messages].reverse().find((msg) => msg.mine && conversation && msg.id <= conversation.read_up_to)?.id;
  const lastMine = [...messages].reverse().find((msg) => msg.mine)?.id;

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    const value = text.trim();
    if (!value || !canSend) return;
    if ([...value].length > ctx.messageLength) return;
    setText('');
    const ok = await sendMessage({ kind: 'text', text: value });
    if (!ok && $offer.get().kind) setText(value);
  }
  function onKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }
  const length = [...text].length;
  const tooLong = length > ctx.messageLength;
  const costs = answer.costs;

  return (
    <section className="flex min-h-0 w-full max-w-[800px] flex-col bg-white lg:border-x lg:border-gray-200" aria-label={m.chat_with({ name: profile.name }, o)} data-conversation={conversation?.id ?? ''}>
      <header className="border-b border-gray-200">
        <div className="flex items-center gap-2 px-2 py-2 sm:px-3">
          <a href="/chats" className="grid h-10 w-10 shrink-0 place-items-center rounded-full text-gray-700 hover:bg-gray-100 lg:hidden" aria-label={m.chat_back({}, o)}>
            <span aria-hidden="true" className="i-tabler-arrow-left text-xl" />
          </a>
          <a href={`/members/${profile.id}`} className="flex min-w-0 flex-1 items-center gap-3 rounded-full py-1 pr-3 text-inherit no-underline hover:bg-gray-50" data-profile-link>
            <Avatar profile={profile} size="h-10 w-10" />
            <span className="min-w-0">
              <span className="block truncate font-bold">
                {profile.name}
                {profile.age ? <span className="font-normal text-gray-600">, {profile.age}</span> : null}
              </span>
              <span className="block truncate text-xs text-gray-500">{open.typing ? m.chat_typing({ name: profile.name }, o) : m.chat_view_profile({}, o)}</span>
            </span>
          </a>
          <a href="/credits" className={`flex shrink-0 items-center gap-1 rounded-full px-3 py-1.5 text-sm font-semibold no-underline ${credits ? (credits.tone === 'danger' ? 'bg-danger text-white' : 'bg-warning text-black') : 'bg-gray-100 text-gray-800'}`} data-chat-credits aria-label={m.chat_credits({ count: user?.credits ?? 0 }, o)}>
            <span aria-hidden="true" className="i-tabler-coin" />
            {user?.credits ?? 0}
          </a>
        </div>
        {profile.fictional && (
          // DESIGN §10: conspicuous and always visible while chatting with a fictional profile.
          <p role="note" className="flex items-center gap-2 bg-warning/25 px-4 py-2 text-sm font-semibold text-gray-900" data-fictional-warning>
            <Glyph icon={ctx.fictional.icon} className="shrink-0 text-lg" />
            {ctx.fictional.warning}
          </p>
        )}
      </header>

      <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto px-3 py-4 sm:px-5" aria-live="polite" aria-relevant="additions" data-messages>
        {conversation?.older_hidden && (
          <p role="note" className="mx-auto mb-4 max-w-md rounded-full bg-gray-100 px-4 py-2 text-center text-xs text-gray-600" data-older-hidden>
            <span aria-hidden="true" className="i-tabler-lock mr-1 align-[-2px]" />
            {m.chat_older_hidden({}, o)}
          </p>
        )}
        {messages.length === 0 && pending.length === 0 ? (
          <div className="mx-auto flex max-w-md flex-col items-center gap-3 py-8 text-center">
            <Avatar profile={profile} size="h-20 w-20 text-3xl" />
            <p className="text-lg font-bold">{m.chat_start_title({ name: profile.name }, o)}</p>
            <p className="text-gray-600">{m.chat_start_text({}, o)}</p>
            {answer.can_send && (
              <ul className="flex flex-wrap justify-center gap-2" aria-label={m.chat_icebreakers({}, o)}>
                {ctx.words.icebreakers.slice(0, 3).map((line) => (
                  <li key={line}>
                    <button type="button" className="rounded-full border border-primary/40 bg-primary/5 px-3 py-1.5 text-sm text-primary hover:bg-primary/10" disabled={!hydrated} onClick={() => { setText(line); input.current?.focus(); }}>
                      {line}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : (
          <ol className="flex flex-col gap-1.5">
            {messages.map((msg) => (
              <li key={msg.id} className={`flex flex-col ${msg.mine ? 'items-end' : 'items-start'}`} data-message={msg.id} data-mine={msg.mine ? '' : undefined}>
                <Bubble msg={msg} ctx={ctx} hydrated={hydrated} />
                {msg.not_delivered ? (
                  // A moderator did not deliver it (issue 22, held messages): the sender is told why; the credits came back.
                  <span className="max-w-[80%] px-2 text-xs font-semibold text-danger" role="note" data-not-delivered>
                    {m.chat_not_delivered({ reason: msg.not_delivered.reason }, o)}
                  </span>
                ) : null}
                {(msg.id === lastMine || msg.id === lastMineRead) && msg.mine ? (
                  <span className="px-2 text-[11px] text-gray-500" data-receipt>
                    {hydrated ? `${chatTime(msg.created_at, ctx.locale)} · ` : ''}{msg.id === lastMineRead ? m.chat_read({}, o) : m.chat_sent({}, o)}
                  </span>
                ) : null}
              </li>
            ))}
            {pending.map((p) => (
              <li key={p.clientId} className="flex flex-col items-end" data-pending>
                <div className={`max-w-[80%] rounded-2xl rounded-br-md px-3.5 py-2 whitespace-pre-wrap break-words ${p.failed ? 'bg-danger/10 text-gray-900' : 'bg-primary/60 text-white'}`}>
                  {p.text ?? (p.kind === 'photo' ? m.chat_preview_photo({}, o) : p.kind === 'gift' ? m.chat_preview_gift({}, o) : m.chat_preview_gif({}, o))}
                </div>
                {p.failed ? (
                  <span className="flex items-center gap-2 px-2 text-xs text-danger" role="alert">
                    {p.failed}
                    {p.text !== null && (
                      <button type="button" className="font-semibold underline" onClick={() => void retry(p.clientId, { kind: 'text', text: p.text! })}>
                        {m.chat_retry({}, o)}
                      </button>
                    )}
                    <button type="button" className="underline" onClick={() => dropPending(p.clientId)}>{m.action_cancel({}, o)}</button>
                  </span>
                ) : (
                  <span className="px-2 text-[11px] text-gray-500">{m.chat_sending({}, o)}</span>
                )}
              </li>
            ))}
          </ol>
        )}
        {open.typing && (
          <p className="mt-2 flex items-center gap-2 text-sm text-gray-500" data-typing>
            <span className="flex gap-1 rounded-2xl bg-gray-100 px-3 py-2.5" aria-hidden="true">
              <span className="h-1.5 w-1.5 animate-bounce rounded-full bg-gray-500" />
              <span className="h-1.5 w-1.5 animate-bounce rounded-full bg-gray-500 [animation-delay:150ms]" />
              <span className="h-1.5 w-1.5 animate-bounce rounded-full bg-gray-500 [animation-delay:300ms]" />
            </span>
            {m.chat_typing({ name: profile.name }, o)}
          </p>
        )}
      </div>

      <footer className="border-t border-gray-200 bg-white px-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] pt-2 sm:px-3">
        {answer.reply_block === 'confirm_email' && <Notice tone="warning" text={m.chat_confirm_email({}, o)} />}
        {answer.reply_block === 'other_unconfirmed' && <Notice tone="info" text={m.chat_other_unconfirmed({ name: profile.name }, o)} />}
        {answer.reply_block === 'retired' && <Notice tone="info" text={m.chat_profile_retired({ name: profile.name }, o)} />}
        {answer.reply_block === 'out_of_reach' && <Notice tone="info" text={m.chat_out_of_reach({ name: profile.name }, o)} />}
        {(answer.needs_premium || offer.kind === 'premium') && (
          <Notice tone="warning" text={premiumText} action={{ href: '/premium', label: m.nav_get_premium({}, o) }} />
        )}
        {offer.kind === 'credits' && <Notice tone="danger" text={offer.message} action={{ href: '/credits', label: m.chat_buy_credits({}, o) }} />}
        {/* On a phone the tools take a row of their own above the message: the text gets the width. */}
        <form className="flex flex-wrap items-end gap-1 sm:flex-nowrap" onSubmit={submit}>
          <div className="flex w-full shrink-0 items-center sm:w-auto">
            <ToolButton icon="i-tabler-photo" label={m.chat_send_photo({}, o)} disabled={!canSend} onClick={() => file.current?.click()} />
            <ToolButton icon="i-tabler-gift" label={m.chat_send_gift({}, o)} disabled={!canSend} onClick={() => setDialog('gift')} />
            <ToolButton icon="i-tabler-gif" label={m.chat_send_gif({}, o)} disabled={!canSend} onClick={() => setDialog('gif')} />
            {messages.length === 0 && <ToolButton icon="i-tabler-bulb" label={m.chat_icebreakers({}, o)} disabled={!canSend} onClick={() => setDialog('icebreaker')} />}
          </div>
          <input
            ref={file}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-chat-photo
            onChange={(e) => {
              const chosen = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (chosen) void sendPhoto(chosen);
            }}
          />
          <label className="min-w-0 flex-1">
            <span className="sr-only">{m.chat_message_label({}, o)}</span>
            <textarea
              ref={input}
              rows={1}
              value={text}
              onChange={(e) => {
                setText(e.currentTarget.value);
                typing();
              }}
              onKeyDown={onKey}
              placeholder={m.chat_placeholder({}, o)}
              // Until hydrated too: text typed into the server's HTML would be dropped by hydration.
              disabled={!canSend}
              className="block max-h-36 min-h-11 w-full resize-none rounded-3xl border border-gray-300 bg-gray-50 px-4 py-2.5 [field-sizing:content] focus:border-primary focus:bg-white focus:outline-none"
              aria-invalid={tooLong || undefined}
              aria-describedby="chat-costs"
              data-chat-input
            />
          </label>
          <button type="submit" className="grid h-11 w-11 shrink-0 place-items-center rounded-full bg-primary text-white hover:brightness-110 disabled:opacity-50" disabled={!canSend || !text.trim() || tooLong} aria-label={m.chat_send({}, o)} data-chat-send>
            <span aria-hidden="true" className="i-tabler-send text-xl" />
          </button>
        </form>
        <p id="chat-costs" className={`mt-1 px-2 text-center text-[11px] ${tooLong ? 'font-semibold text-danger' : 'text-gray-500'}`}>
          {tooLong
            ? m.message_too_long({ max: ctx.messageLength }, o)
            : [
                m.chat_costs({ text: costs.text, photo: costs.photo }, o),
                costs.minimum ? m.chat_costs_minimum({ amount: formatMoney(costs.minimum.costs, costs.minimum.currency, ctx.locale) }, o) : null,
                length > ctx.messageLength * 0.8 ? `${length}/${ctx.messageLength}` : null,
              ]
                .filter(Boolean)
                .join(' · ')}
        </p>
      </footer>

      {dialog && (
        <Suspense fallback={null}>
          <ChatDialog
            kind={dialog}
            ctx={ctx}
            name={profile.name}
            onClose={() => setDialog(null)}
            onGift={(id) => { setDialog(null); void sendMessage({ kind: 'gift', gift: id }); }}
            onGif={(id) => { setDialog(null); void sendMessage({ kind: 'gif', gif: id }); }}
            onIcebreaker={(line) => { setDialog(null); setText(line); input.current?.focus(); }}
          />
        </Suspense>
      )}
    </section>
  );
}

function ToolButton({ icon, label, disabled, onClick }: { icon: string; label: string; disabled: boolean; onClick: () => void }) {
  return (
    <button type="button" className="grid h-11 w-10 place-items-center rounded-full text-gray-600 hover:bg-gray-100 hover:text-primary disabled:opacity-40" aria-label={label} title={label} disabled={disabled} onClick={onClick}>
      <span aria-hidden="true" className={`${icon} text-[22px]`} />
    </button>
  );
}

function Notice({ tone, text, action }: { tone: 'info' | 'warning' | 'danger'; text: string; action?: { href: string; label: string } }) {
  const colours = { info: 'bg-info/15 text-gray-900', warning: 'bg-warning/25 text-gray-900', danger: 'bg-danger/10 text-gray-900' }[tone];
  return (
    <div role={tone === 'danger' ? 'alert' : 'note'} className={`mb-2 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl px-3 py-2 text-sm ${colours}`} data-chat-notice={tone}>
      <span className="flex-1">{text}</span>
      {action && (
        <a href={action.href} className="btn-primary px-4 py-1.5 text-sm">
          {action.label}
        </a>
      )}
    </div>
  );
}

function Bubble({ msg, ctx, hydrated }: { msg: ChatMessage; ctx: ChatContext; hydrated: boolean }) {
  const o = { locale: ctx.locale };
  const shape = msg.mine ? 'rounded-2xl rounded-br-md bg-primary text-white' : 'rounded-2xl rounded-bl-md bg-gray-100 text-gray-900';
  // In the browser's time zone, which the server does not know: once hydrated.
  const time = hydrated ? chatTime(msg.created_at, ctx.locale) : undefined;
  if (msg.kind === 'photo' && msg.photo) {
    const screening = msg.photo_status === 'pending' ? m.chat_photo_pending({}, o) : msg.photo_status === 'rejected' ? m.chat_photo_rejected({}, o) : '';
    return (
      <a href={msg.photo.url} target="_blank" rel="noopener" className="relative block overflow-hidden rounded-2xl border border-gray-200" title={time}>
        <img src={msg.photo.thumb_url} alt={m.chat_preview_photo({}, o)} width="200" height="200" className="h-48 w-48 object-cover" loading="lazy" />
        {screening && <span className="absolute inset-x-2 bottom-2 rounded-full bg-white/90 px-2 py-0.5 text-center text-xs font-semibold text-gray-800" data-photo-screening>{screening}</span>}
      </a>
    );
  }
  if (msg.kind === 'photo') {
    // Issue 22: a photo waiting for screening (or rejected) reaches the recipient as a placeholder.
    return (
      <div className={`${shape} flex h-48 w-48 items-center justify-center px-4 text-center text-sm italic`} title={time} data-photo-placeholder>
        {msg.photo_status === 'rejected' ? m.chat_photo_removed({}, o) : m.chat_photo_pending({}, o)}
      </div>
    );
  }
  if (msg.kind === 'gift' && msg.gift) {
    const gift = isGiftId(msg.gift.id) ? GIFTS[msg.gift.id] : null;
    return (
      <div className={`flex flex-col items-center gap-1 rounded-2xl border-2 px-5 py-3 ${msg.mine ? 'border-primary/40 bg-primary/5' : 'border-gray-200 bg-white'}`} title={time} data-gift={msg.gift.id}>
        {gift && (
          <span style={{ color: gift.colour }}>
            <Glyph icon={gift.icon} className="text-5xl" />
          </span>
        )}
        <span className="text-sm font-semibold text-gray-800">{giftName(ctx, msg.gift.id)}</span>
      </div>
    );
  }
  if (msg.kind === 'gif') {
    return msg.gif ? (
      <img src={msg.gif.url} alt={msg.gif.title} width={msg.gif.width} height={msg.gif.height} className="h-36 w-36 rounded-2xl bg-gray-50 object-contain" title={time} loading="lazy" data-gif={msg.gif.id} />
    ) : (
      <div className={`${shape} px-3.5 py-2 italic`}>GIF</div>
    );
  }
  return (
    <div className={`max-w-[80%] px-3.5 py-2 whitespace-pre-wrap break-words ${shape}`} title={time}>
      {msg.text}
    </div>
  );
}
