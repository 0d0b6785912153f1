import { atom, browserOnly, map } from './browser-only.ts';
import { createRouter } from '@nanostores/router';
import { api, ApiError, changeGuard } from './api.ts';
import { $user, changeUser } from './user.ts';
import { onEvent } from './events.ts';
import type { ChatCosts, ChatMessage, ChatsAnswer, ConversationAnswer, SendAnswer } from '../contract/chat.ts';
import { TYPING_SEND_EVERY_MS, TYPING_SHOW_MS } from '../lib/typing.ts';

/**
 * The chat's state (SPEC §2 chats and chat view, §4): the list of conversations with the unread
 * total (the messages badge), the open conversation, and the router that switches between them
 * without reloading the page. Live events of the tab's stream keep both current.
 */

/**
 * The chat island's views: the list, a conversation, a new conversation with a profile. The
 * router's own link handling would take over every link of the page (also /members, /credits):
 * `followChatLinks` takes only the chat's own addresses.
 */
export const $chatRouter = browserOnly(
  createRouter(
    {
      chats: '/chats',
      chat: '/chats/:id',
      member: '/members/:id/chat',
    },
    { links: false },
  ),
);

/** The chat's own addresses, switched without a reload; every other link loads its page. */
const CHAT_PATH = /^\/(?:chats(?:\/\d+)?|members\/\d+\/chat)\/?$/;

export function followChatLinks(): () => void {
  const click = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.target && link.target !== '_self') return;
    if (link.origin !== location.origin || link.hasAttribute('download') || !CHAT_PATH.test(link.pathname)) return;
    event.preventDefault();
    $chatRouter.open(link.pathname + link.search);
  };
  document.body.addEventListener('click', click);
  return () => document.body.removeEventListener('click', click);
}

export const $chats = atom<ChatsAnswer | null>(null);
/** Unread messages: the messages badge and half of the title prefix (SPEC §2). */
export const $unread = atom<number>(0);

export interface OpenConversation {
  /** Which route it answers: `chat:<id>` or `member:<profile id>`. */
  key: string;
  answer: ConversationAnswer & { costs: ChatCosts };
  /** Messages being sent: shown at once, greyed until the server answers. */
  pending: { clientId: string; kind: ChatMessage['kind']; text: string | null; failed: string | null }[];
  typing: boolean;
}
export const $conversation = atom<OpenConversation | null>(null);
/** A send refused for credits or premium: the offer the chat shows. */
export const $offer = map<{ kind: 'credits' | 'premium' | null; message: string }>({ kind: null, message: '' });

export function setChats(answer: ChatsAnswer): void {
  $chats.set(answer);
  $unread.set(answer.total_unread);
}

/** The member's removals of chats, before which no older read of the list is set. */
const guard = changeGuard();

export function loadChats(): Promise<ChatsAnswer> {
  return guard.read(() => api('GET', '/chats.php'), setChats);
}

const routeQuery = (key: string) => {
  const [kind, id] = key.split(':');
  return kind === 'chat' ? { id: Number(id) } : { profile_id: Number(id) };
};

/** Opens a conversation (marking it read) and makes it the one shown. */
export async function openConversation(key: string): Promise<void> {
  const asked = ++opening;
  const answer = await api('GET', '/chat.php', undefined, routeQuery(key));
  // Quick clicks: only the conversation asked for last may be shown.
  if (asked !== opening) return;
  if (answer.conversation && key.startsWith('member:')) {
    // A profile with a conversation already: its address becomes the conversation's.
    $chatRouter.open(`/chats/${answer.conversation.id}`, true);
    key = `chat:${answer.conversation.id}`;
  }
  $conversation.set({ key, answer, pending: [], typing: false });
  $offer.set({ kind: null, message: '' });
  // Reading it changed the unread counts.
  if (answer.conversation) void loadChats().catch(() => undefined);
}

/** Counts the conversations asked for, so an answer that comes after a later one's is dropped. */
let opening = 0;

/** Adds messages to the open conversation, each once, in id order. */
function addMessages(messages: ChatMessage[]): void {
  const open = $conversation.get();
  if (!open?.answer.conversation) return;
  const known = new Set(open.answer.conversation.messages.map((m) => m.id));
  const fresh = messages.filter((m) => !known.has(m.id));
  if (!fresh.length) return;
  const all = [...open.answer.conversation.messages, ...fresh].sort((a, b) => a.id - b.id);
  $conversation.set({ ...open, typing: fresh.some((m) => !m.mine) ? false : open.typing, answer: { ...open.answer, conversation: { ...open.answer.conversation, messages: all } } });
}

/**
 * Brings the open conversation up to date after a live event (read only while the tab is seen).
 * A message older than the newest shown (a held one a moderator released) is read from its id.
 */
async function catchUp(messageId?: number): Promise<void> {
  const open = $conversation.get();
  const conversation = open?.answer.conversation;
  if (!open || !conversation) return;
  const newest = conversation.messages.at(-1)?.id ?? 0;
  const last = messageId !== undefined && messageId <= newest ? messageId - 1 : newest;
  const answer = await api('GET', '/chat.php', undefined, { id: conversation.id, after: last, read: document.visibilityState === 'visible' ? '1' : '0' });
  if ($conversation.get()?.key !== open.key || !answer.conversation) return;
  addMessages(answer.conversation.messages);
  const now = $conversation.get()!;
  $conversation.set({ ...now, answer: { ...now.answer, can_send: answer.can_send, reply_block: answer.reply_block, conversation: { ...now.answer.conversation!, read_up_to: Math.max(now.answer.conversation!.read_up_to, answer.conversation.read_up_to) } } });
}

/** Reads one message of the open conversation again (a chat photo staff decided on) and replaces it. */
async function refreshMessage(messageId: number): Promise<void> {
  const open = $conversation.get();
  const conversation = open?.answer.conversation;
  if (!open || !conversation) return;
  const answer = await api('GET', '/chat.php', undefined, { id: conversation.id, after: messageId - 1, read: '0' });
  const fresh = answer.conversation?.messages.find((msg) => msg.id === messageId);
  const now = $conversation.get();
  if (!fresh || now?.key !== open.key || !now.answer.conversation) return;
  const messages = now.answer.conversation.messages.map((msg) => (msg.id === messageId ? fresh : msg));
  $conversation.set({ ...now, answer: { ...now.answer, conversation: { ...now.answer.conversation, messages } } });
}

function newClientId(): string {
  return crypto.randomUUID();
}

/** Sends a message of the open conversation: text, gift or GIF; a photo through `sendPhoto`. */
export async function sendMessage(content: { kind: 'text'; text: string } | { kind: 'gift'; gift: string } | { kind: 'gif'; gif: string }, clientId = newClientId()): Promise<boolean> {
  const open = $conversation.get();
  if (!open) return false;
  const target = open.answer.conversation ? { conversation_id: open.answer.conversation.id } : { profile_id: open.answer.profile.id };
  return deliver(clientId, content.kind, content.kind === 'text' ? content.text : null, () => api('POST', '/chat.php', { ...target, ...content, client_id: clientId }));
}

export async function sendPhoto(file: File): Promise<boolean> {
  const open = $conversation.get();
  if (!open) return false;
  const clientId = newClientId();
  const form = new FormData();
  form.append('photo', file);
  const query = open.answer.conversation ? { conversation_id: open.answer.conversation.id } : { profile_id: open.answer.profile.id };
  return deliver(clientId, 'photo', null, () => api('POST', '/chat.php', form, { photo: 1, client_id: clientId, ...query }));
}

async function deliver(clientId: string, kind: ChatMessage['kind'], text: string | null, call: () => Promise<SendAnswer>): Promise<boolean> {
  const open = $conversation.get()!;
  $offer.set({ kind: null, message: '' });
  $conversation.set({ ...open, pending: [...open.pending.filter((p) => p.clientId !== clientId), { clientId, kind, text, failed: null }] });
  try {
    const sent = await changeUser(call);
    const now = $conversation.get();
    if (now?.key === open.key) {
      const conversation = now.answer.conversation ?? { id: sent.conversation_id, messages: [], older_hidden: false, read_up_to: 0 };
      $conversation.set({ ...now, key: `chat:${sent.conversation_id}`, pending: now.pending.filter((p) => p.clientId !== clientId), answer: { ...now.answer, conversation } });
      addMessages([sent.message]);
      if (open.key.startsWith('member:')) $chatRouter.open(`/chats/${sent.conversation_id}`, true);
    }
    const user = $user.get();
    if (user) $user.set({ ...user, credits: sent.credits });
    void loadChats().catch(() => undefined);
    return true;
  } catch (error) {
    const message = error instanceof ApiError ? error.message : String(error);
    const now = $conversation.get();
    if (error instanceof ApiError && (error.status === 402 || error.code === 'premium_only')) {
      // Refused for credits or premium: nothing was sent; the offer says what to do.
      $offer.set({ kind: error.status === 402 ? 'credits' : 'premium', message });
      if (now) $conversation.set({ ...now, pending: now.pending.filter((p) => p.clientId !== clientId) });
    } else if (now) {
      $conversation.set({ ...now, pending: now.pending.map((p) => (p.clientId === clientId ? { ...p, failed: message } : p)) });
    }
    return false;
  }
}

/** Sends again a message that failed (same client id: stored and charged once at most). */
export function retry(clientId: string, content: Parameters<typeof sendMessage>[0]): Promise<boolean> {
  return sendMessage(content, clientId);
}

export function dropPending(clientId: string): void {
  const now = $conversation.get();
  if (now) $conversation.set({ ...now, pending: now.pending.filter((p) => p.clientId !== clientId) });
}

let lastTyping = 0;
/** Tells the other member the member is typing, at most every 3 s. */
export function typing(): void {
  const id = $conversation.get()?.answer.conversation?.id;
  if (!id || Date.now() - lastTyping < TYPING_SEND_EVERY_MS) return;
  lastTyping = Date.now();
  void api('POST', '/chat-typing.php', { conversation_id: id }).catch(() => undefined);
}

/**
 * Removes a chat (SPEC §4): from the list at once, then on the server; on failure the error is
 * shown in an alert (the server's message, or `unreachable` when no answer came) and the list is
 * reloaded.
 */
export async function removeChat(conversationId: number, unreachable: string): Promise<void> {
  try {
    await guard.change(async () => {
      const chats = $chats.get();
      if (chats) {
        const gone = chats.chats.find((c) => c.conversation.id === conversationId);
        setChats({ chats: chats.chats.filter((c) => c.conversation.id !== conversationId), total_unread: chats.total_unread - (gone?.num_unread_messages ?? 0) });
      }
      if ($conversation.get()?.answer.conversation?.id === conversationId) {
        $conversation.set(null);
        $chatRouter.open('/chats');
      }
      await api('DELETE', '/chat.php', { conversation: { id: conversationId } });
    });
  } catch (error) {
    alert(error instanceof ApiError && error.code !== 'network' ? error.message : unreachable);
    await loadChats().catch(() => undefined);
  }
}

let typingTimer: ReturnType<typeof setTimeout> | undefined;

/** Wires the live events of the tab's stream into the chat (called once by the page's live code). */
export function listenToChat(): () => void {
  let reload: ReturnType<typeof setTimeout> | undefined;
  const reloadChats = () => {
    clearTimeout(reload);
    reload = setTimeout(() => void loadChats().catch(() => undefined), 100);
  };
  const offs = [
    onEvent('message', (data) => {
      reloadChats();
      if ($conversation.get()?.answer.conversation?.id === data?.conversation_id) void catchUp(data?.message_id).catch(() => undefined);
    }),
    onEvent('chats', reloadChats),
    // Staff decided on a chat photo (issue 22): show the photo, or keep its placeholder.
    onEvent('chat_photo', (data) => {
      if ($conversation.get()?.answer.conversation?.id === data?.conversation_id) void refreshMessage(data.message_id).catch(() => undefined);
    }),
    onEvent('read', (data) => {
      const open = $conversation.get();
      const conversation = open?.answer.conversation;
      if (!open || conversation?.id !== data?.conversation_id) return;
      $conversation.set({ ...open, answer: { ...open.answer, conversation: { ...conversation, read_up_to: Math.max(conversation.read_up_to, data.message_id) } } });
    }),
    onEvent('typing', (data) => {
      const open = $conversation.get();
      if (!open || open.answer.conversation?.id !== data?.conversation_id) return;
      $conversation.set({ ...open, typing: true });
      clearTimeout(typingTimer);
      typingTimer = setTimeout(() => {
        const now = $conversation.get();
        if (now) $conversation.set({ ...now, typing: false });
      }, TYPING_SHOW_MS);
    }),
    onEvent('reconnected', () => {
      reloadChats();
      void catchUp().catch(() => undefined);
    }),
  ];
  // Back on a tab that was hidden: what arrived meanwhile is read now.
  const onVisible = () => {
    if (document.visibilityState === 'visible' && $conversation.get()?.answer.conversation) void catchUp().catch(() => undefined);
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    for (const off of offs) off();
    document.removeEventListener('visibilitychange', onVisible);
  };
}
