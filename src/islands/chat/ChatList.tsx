/**
 * The conversation list (SPEC §2 chats overview, §3 chat item, §4 removing a chat): newest first,
 * each with the other member's photo, name, the last message and its time, and the unread count;
 * a conversation can be removed (asked first).
 */
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { Glyph } from '../Glyph.tsx';
import { ConfirmDialog } from '../profile/ConfirmDialog.tsx';
import { countBadge } from '../../lib/badges.ts';
import type { ChatItem, ChatsAnswer } from '../../contract/chat.ts';
import { removeChat } from '../../stores/chat.ts';
import { useHydrated } from '../useHydrated.ts';
import { chatTime, type ChatContext } from './context.ts';
import { Avatar } from './Avatar.tsx';

function preview(item: ChatItem, locale: ChatContext['locale']): string {
  const last = item.last_message;
  if (!last) return '';
  const o = { locale };
  const what = last.kind === 'text' ? (last.text ?? '') : last.kind === 'photo' ? m.chat_preview_photo({}, o) : last.kind === 'gift' ? m.chat_preview_gift({}, o) : m.chat_preview_gif({}, o);
  return last.mine ? m.chat_preview_mine({ text: what }, o) : what;
}

export function ChatList({ ctx, chats, activeId }: { ctx: ChatContext; chats: ChatsAnswer | null; activeId: number | null }) {
  const hydrated = useHydrated();
  const [removing, setRemoving] = useState<ChatItem | null>(null);
  const o = { locale: ctx.locale };
  const items = chats?.chats ?? [];
  return (
    <>
      <header className="flex items-center gap-2 border-b border-gray-200 px-3 py-2.5">
        <a href="/members" className="grid h-10 w-10 place-items-center rounded-full text-gray-700 hover:bg-gray-100" aria-label={m.chats_back_members({}, o)}>
          <span aria-hidden="true" className="i-tabler-arrow-left text-xl" />
        </a>
        <h1 className="text-lg font-bold">{m.route_chats({}, o)}</h1>
      </header>
      {items.length === 0 ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center">
          <span aria-hidden="true" className="i-tabler-messages text-5xl text-primary/60" />
          <h2 className="text-lg font-bold">{m.chats_empty_title({}, o)}</h2>
          <p className="text-gray-600">{m.chats_empty_text({}, o)}</p>
          <a href="/members" className="btn-primary mt-2">{m.route_members({}, o)}</a>
        </div>
      ) : (
        <ul className="min-h-0 flex-1 overflow-y-auto" aria-label={m.chat_list_label({}, o)} data-chat-list>
          {items.map((item) => {
            const unread = item.num_unread_messages;
            const active = item.conversation.id === activeId;
            return (
              <li key={item.conversation.id} className={`group relative border-b border-gray-100 ${active ? 'bg-primary/8' : 'hover:bg-gray-50'}`} data-chat={item.conversation.id}>
                <a href={`/chats/${item.conversation.id}`} aria-current={active ? 'page' : undefined} className="flex items-center gap-3 px-3 py-3 pr-12 text-inherit no-underline">
                  <Avatar profile={item.profile} size="h-12 w-12" />
                  <span className="min-w-0 flex-1">
                    {/* The fictional marker in words, in the warning colour, as on the cards (DESIGN §10). */}
                    {item.profile.fictional && (
                      <span title={ctx.fictional.warning} className="mb-0.5 inline-flex max-w-full items-center gap-1 rounded-full bg-warning px-2 py-0.5 text-[11px] font-bold text-gray-900" data-fictional>
                        <Glyph icon={ctx.fictional.icon} className="shrink-0" />
                        <span className="truncate">{ctx.fictional.label.charAt(0).toLocaleUpperCase(ctx.locale) + ctx.fictional.label.slice(1)}</span>
                        <span className="sr-only">: {ctx.fictional.warning}</span>
                      </span>
                    )}
                    <span className="flex items-baseline gap-2">
                      <span className={`truncate ${unread ? 'font-bold' : 'font-semibold'}`}>{item.profile.name}</span>
                      {/* In the browser's time zone, which the server does not know: shown once hydrated. */}
                      {item.last_message && <span className="ml-auto shrink-0 text-xs text-gray-600">{hydrated ? chatTime(item.last_message.created_at, ctx.locale) : ''}</span>}
                    </span>
                    <span className={`block truncate text-sm ${unread ? 'font-semibold text-gray-900' : 'text-gray-600'}`}>{preview(item, ctx.locale)}</span>
                  </span>
                  {unread > 0 && (
                    <span className="badge bg-unread text-white" aria-label={m.chat_unread({ count: unread }, o)}>
                      {countBadge(unread)}
                    </span>
                  )}
                </a>
                <button
                  type="button"
                  className="absolute right-2 top-1/2 grid h-9 w-9 -translate-y-1/2 place-items-center rounded-full text-gray-400 hover:bg-gray-100 hover:text-danger focus-visible:text-danger"
                  aria-label={m.chat_remove_named({ name: item.profile.name }, o)}
                  title={m.chat_remove({}, o)}
                  disabled={!hydrated}
                  onClick={() => setRemoving(item)}
                  data-remove-chat
                >
                  <span aria-hidden="true" className="i-tabler-trash" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={m.chat_remove_title({ name: removing?.profile.name ?? '' }, o)}
        text={m.chat_remove_text({ name: removing?.profile.name ?? '' }, o)}
        confirm={m.chat_remove({}, o)}
        cancel={m.action_cancel({}, o)}
        onConfirm={() => {
          const id = removing!.conversation.id;
          setRemoving(null);
          void removeChat(id, m.error_generic({}, o));
        }}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}
