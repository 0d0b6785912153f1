import { z } from 'zod';
import { Id } from './profile.ts';
import type { ProfileCardData } from './likes.ts';

/**
 * The chat (SPEC §2 chats and chat view, §3 conversation and chat item, §4 chat, §7 chats.php
 * and chat.php, API.md "Chat"): conversations between two profiles, messages that cost credits.
 */

/** What a message carries. A GIF costs what a text message costs; a photo and a gift have their own price (SPEC §3 settings). */
export const MESSAGE_KINDS = ['text', 'photo', 'gift', 'gif'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * Messages of a conversation shown, newest last. Older ones are hidden for privacy (SPEC §4, §8
 * "Chat history limit notice"), and the conversation says so. SPEC does not give the limit; a
 * hundred messages is weeks of an active chat and keeps every opening one bounded read.
 */
export const CHAT_HISTORY_LIMIT = 100;

/** Conversations the list shows, newest first; SPEC gives no number. One bounded read. */
export const CHATS_LIMIT = 200;

export { TYPING_SEND_EVERY_MS, TYPING_SHOW_MS } from '../lib/typing.ts';

/**
 * A key the page makes per message it sends: a send repeated with the same key (a retry after a
 * lost answer, a double click) stores and charges the message once.
 */
/** Ids are 32-bit integers on both engines: a larger one names nothing (400, never a database error). */
const MAX_ID = 2_147_483_647;
const QueryId = z.coerce.number().int().positive().max(MAX_ID);

const ClientId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** POST /api/chat.php: a text, gift or GIF message, to a conversation or to a profile (a new conversation). */
export const SendBody = z
  .object({
    conversation_id: Id.optional(),
    profile_id: Id.optional(),
    kind: z.enum(['text', 'gift', 'gif']).default('text'),
    /** The text; its longest length is the brand's message_length (checked by the service). */
    text: z.string().max(20_000).refine((t) => !t.includes('\u0000')).optional(),
    /** A gift id of the brand's catalogue (GET /api/gifts.php). */
    gift: z.string().max(40).optional(),
    /** A GIF id of the GIF search (GET /api/gifs.php). */
    gif: z.string().max(80).optional(),
    client_id: ClientId,
  })
  .refine((b) => (b.conversation_id === undefined) !== (b.profile_id === undefined), { path: ['conversation_id'], message: 'conversation_id or profile_id' });
export type SendInput = z.output<typeof SendBody>;

/** The form fields beside the `photo` file of POST /api/chat.php?photo=1. */
export const PhotoSendFields = z
  .object({ conversation_id: QueryId.optional(), profile_id: QueryId.optional(), client_id: ClientId })
  .refine((b) => (b.conversation_id === undefined) !== (b.profile_id === undefined), { path: ['conversation_id'], message: 'conversation_id or profile_id' });

/** GET /api/chat.php: a conversation by id, or the one with a profile (which may not exist yet). */
export const ChatQuery = z
  .object({
    id: QueryId.optional(),
    profile_id: QueryId.optional(),
    /** Only messages after this id (catching up after a live event or a dropped stream). */
    after: z.coerce.number().int().nonnegative().max(MAX_ID).optional(),
    /** 0: do not mark as read (a hidden tab catching up). Opening marks the conversation read (SPEC §4). */
    read: z.enum(['0', '1']).default('1'),
  })
  .refine((q) => (q.id === undefined) !== (q.profile_id === undefined), { path: ['id'], message: 'id or profile_id' });

/** DELETE /api/chat.php (SPEC §7: body conversation (id)). */
export const DeleteChatBody = z.object({ conversation: z.object({ id: Id }) });

/** POST /api/chat-typing.php */
export const TypingBody = z.object({ conversation_id: Id });

/** GET /api/gifs.php */
export const GifQuery = z.object({ q: z.string().max(60).default('') });

/** A message as the chat shows it. */
export interface ChatMessage {
  id: number;
  /** Sent by the member who asks. */
  mine: boolean;
  kind: MessageKind;
  text: string | null;
  /**
   * Photo messages: the photo and its thumbnail; null for the recipient while the photo waits for
   * screening or after it was rejected (issue 22: `photo_status` says which).
   */
  photo: { url: string; thumb_url: string } | null;
  /** Photo messages: active, pending (waiting for screening) or rejected; null on other messages. */
  photo_status?: 'active' | 'pending' | 'rejected' | null;
  /** Gift messages: which gift and what it cost. */
  gift: { id: string; credits: number } | null;
  gif: Gif | null;
  created_at: string;
}

/** The last message of a chat item, for the list. */
export interface MessagePreview {
  id: number;
  mine: boolean;
  kind: MessageKind;
  /** The start of a text message; null for the other kinds (the list names the kind). */
  text: string | null;
  created_at: string;
}

/** SPEC §3 chat item. */
export interface ChatItem {
  conversation: { id: number };
  profile: ProfileCardData;
  num_unread_messages: number;
  last_message: MessagePreview | null;
}

/** GET /api/chats.php */
export interface ChatsAnswer {
  chats: ChatItem[];
  total_unread: number;
}

/** Why the member cannot write in a conversation now (SPEC §4), or null. */
export type ReplyBlock =
  /** The member's own e-mail address is not confirmed: confirm it to reply. */
  | 'confirm_email'
  /** The other member's address is not confirmed: they cannot reply until they confirm it. */
  | 'other_unconfirmed'
  | null;

/** What one message kind costs on this brand (SPEC §3 settings), and the gifts. */
export interface ChatCosts {
  text: number;
  photo: number;
  gift: number;
  /** SPEC §3 minimum_message_costs of the member's country: what one message costs at least, in money. */
  minimum: { costs: number; currency: string } | null;
}

/** What one kind of message costs on the brand (SPEC §3 settings), with the country's minimum in money. */
export function chatCosts(
  brand: { message_credits: number; photo_credits: number; gift_credits: number; minimum_message_costs: Record<string, { costs: number; currency: string }> },
  country: string | null,
): ChatCosts {
  return {
    text: brand.message_credits,
    photo: brand.photo_credits,
    gift: brand.gift_credits,
    minimum: (country && brand.minimum_message_costs[country]) || null,
  };
}

/** GET /api/chat.php */
export interface ConversationAnswer {
  /** null when the member has no conversation with the profile yet. */
  conversation: {
    id: number;
    messages: ChatMessage[];
    /** Older messages exist and are hidden for privacy (SPEC §4). */
    older_hidden: boolean;
    /** The last of the member's messages the other has read (0: none). */
    read_up_to: number;
  } | null;
  profile: ProfileCardData;
  /** The member may write now; otherwise `reply_block` says why. */
  can_send: boolean;
  reply_block: ReplyBlock;
  /** A free member who has used their conversations cannot start this one (SPEC §9): premium. */
  needs_premium: boolean;
}

/** POST /api/chat.php */
export interface SendAnswer {
  conversation_id: number;
  message: ChatMessage;
  /** The member's credits after the message. */
  credits: number;
}

/** One GIF of the GIF search (API.md GET /api/gifs.php). */
export interface Gif {
  id: string;
  url: string;
  width: number;
  height: number;
  title: string;
}

/** A gift of the brand's catalogue (GET /api/gifts.php). */
export interface Gift {
  id: string;
  credits: number;
}
