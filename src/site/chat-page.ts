import type { AstroGlobal } from 'astro';
import { chatCosts, type ChatsAnswer } from '../contract/chat.ts';
import type { OpenConversation } from '../stores/chat.ts';
import { memberIdParam } from './member-profile.ts';

export type ChatRoute = 'chats' | 'chats-id' | 'members-id-chat';

export interface ChatPageData {
  chats: ChatsAnswer;
  conversation: OpenConversation | null;
  /** Unread messages after opening the conversation (it is read now). */
  unread: number;
}

/**
 * The first view of the chat (SPEC §2), read on the server: the list, and the conversation the
 * address names, opened (and so read). A conversation that is not the member's, or a profile the
 * member may not see, answers 404; a profile with a conversation already goes to its address.
 * Pages call this in their own frontmatter, so the status is set before anything streams.
 */
export async function loadChatPage(astro: Pick<AstroGlobal, 'locals' | 'params' | 'redirect' | 'url'>, route: ChatRoute): Promise<ChatPageData | Response> {
  const { tenant, services, user, country } = astro.locals;
  const me = user?.profile ? { userId: user.id, profileId: user.profile.id } : null;
  if (!me) return { chats: { chats: [], total_unread: 0 }, conversation: null, unread: 0 };
  let conversation: OpenConversation | null = null;
  if (route !== 'chats') {
    const id = memberIdParam(astro);
    if (id === null) return new Response(null, { status: 404 });
    const answer = await services.chat.open(tenant, me, { ...(route === 'chats-id' ? { id } : { profile_id: id }), read: true }).catch((error: unknown) => {
      // The runtime's services are not bundled with the page: the AppError is known by its status.
      if ((error as { status?: unknown } | null)?.status === 404) return null;
      throw error;
    });
    if (!answer) return new Response(null, { status: 404 });
    if (route === 'members-id-chat' && answer.conversation) return astro.redirect(`/chats/${answer.conversation.id}${astro.url.search}`, 302);
    conversation = {
      key: answer.conversation ? `chat:${answer.conversation.id}` : `member:${answer.profile.id}`,
      answer: { ...answer, costs: chatCosts(tenant, country) },
      pending: [],
      typing: false,
    };
  }
  const chats = await services.chat.list(tenant, me);
  return { chats, conversation, unread: chats.total_unread };
}
