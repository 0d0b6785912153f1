/**
 * The chat (SPEC §2 chats and chat view, §4, §9): the conversation list (300 to 400 px) beside the
 * chat column (at most 800 px); below 992 px only one of the two shows, with a back button to the
 * list. Switching conversations does not reload the page: the island routes with
 * @nanostores/router over /chats, /chats/{id} and /members/{id}/chat. The page renders the first
 * view on the server; live events of the tab's stream keep everything current.
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import type { ChatsAnswer } from '../../contract/chat.ts';
import type { SiteUser } from '../../contract/user.ts';
import type { Fictional } from '../search/ProfileCard.tsx';
import { $chatRouter, $chats, $conversation, $unread, followChatLinks, openConversation, type OpenConversation } from '../../stores/chat.ts';
import { hydrateStore } from '../../stores/browser-only.ts';
import { $user } from '../../stores/user.ts';
import { $newLikes } from '../../stores/likes.ts';
import { startLive } from '../../stores/live.ts';
import { ChatList } from './ChatList.tsx';
import { useHydrated } from '../useHydrated.ts';
import { useStoreOnceHydrated } from '../useStoreOnceHydrated.ts';
import { Conversation } from './Conversation.tsx';
import type { ChatContext } from './context.ts';
import type { ChatWords } from './words.ts';

interface Props {
  locale: Locale;
  chats: ChatsAnswer;
  /** The conversation the page opened with (null on /chats). */
  conversation: OpenConversation | null;
  user: SiteUser;
  newLikes: number;
  gifts: ChatContext['gifts'];
  fictional: Fictional;
  messageLength: number;
  premiumFrom: string | null;
  words: ChatWords;
}

/** The key of a route's conversation: `chat:<id>`, `member:<profile id>`, or null for the list. */
function keyOf(page: ReturnType<typeof $chatRouter.get>): string | null {
  if (page?.route === 'chat') return `chat:${page.params.id}`;
  if (page?.route === 'member') return `member:${page.params.id}`;
  return null;
}

export default function ChatApp({ locale, chats, conversation, user, newLikes, gifts, fictional, messageLength, premiumFrom, words }: Props) {
  // The server's answer is the stores' first state (no second request on load), in the browser:
  // on the server a store is shared by every request, and one member's chats would be rendered
  // for the next. Until hydrated, the island shows its props.
  useEffect(() => {
    hydrateStore($chats, chats);
    hydrateStore($unread, chats.total_unread);
    if (conversation) hydrateStore($conversation, conversation);
    hydrateStore($user, user);
    hydrateStore($newLikes, newLikes);
  }, []);
  const hydrated = useHydrated();
  const page = useStore($chatRouter);
  const open = useStoreOnceHydrated($conversation, conversation);
  const shownChats = useStoreOnceHydrated($chats, chats);
  const shownUser = useStoreOnceHydrated($user, user);
  const key = hydrated ? keyOf(page) : (conversation?.key ?? null);

  useEffect(() => {
    // The member bar starts it too, once the page is idle: whichever comes first keeps the bar's badges.
    startLive(document.querySelector<HTMLElement>('[data-member-nav]'), { unread: chats.total_unread, newLikes });
    return followChatLinks();
  }, []);

  useEffect(() => {
    if (key && open?.key !== key) {
      openConversation(key).catch(() => {
        // A conversation that is gone (removed, blocked): back to the list.
        $conversation.set(null);
        $chatRouter.open('/chats', true);
      });
    }
    if (!key && open) $conversation.set(null);
    // Focus follows the view for keyboard and screen-reader users.
  }, [key]);

  const ctx: ChatContext = { locale, gifts, fictional, messageLength, premiumFrom, words };
  const showing = key !== null;
  return (
    <div className="flex min-h-0 flex-1 bg-gray-50">
      <div className={`${showing ? 'hidden lg:flex' : 'flex'} min-h-0 w-full flex-col border-r border-gray-200 bg-white lg:w-[340px] lg:min-w-[300px] lg:max-w-[400px] xl:w-[400px]`}>
        <ChatList ctx={ctx} chats={shownChats} activeId={open?.answer.conversation?.id ?? null} />
      </div>
      <div className={`${showing ? 'flex' : 'hidden lg:flex'} min-h-0 min-w-0 flex-1 justify-center`}>
        {showing && open ? (
          <Conversation ctx={ctx} open={open} user={shownUser} key={open.answer.profile.id} />
        ) : showing ? (
          <div className="grid flex-1 place-items-center text-gray-500" aria-busy="true">
            <span className="i-tabler-loader-2 animate-spin text-3xl" aria-hidden="true" />
          </div>
        ) : (
          <div className="grid flex-1 place-items-center p-6 text-center">
            <div className="max-w-sm">
              <span aria-hidden="true" className="i-tabler-messages mb-3 inline-block text-5xl text-primary/60" />
              <h2 className="text-lg font-bold">{m.chat_pick_title({}, { locale })}</h2>
              <p className="mt-1 text-gray-600">{m.chat_pick_text({}, { locale })}</p>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
