import { z } from 'zod';
import { BodyId, QueryAfterId, QueryId } from './ids.ts';
import { ProfileCardData } from './cards.ts';

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
const ClientId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** POST /api/chat.php: a text, gift or GIF message, to a conversation or to a profile (a new conversation). */
export const SendBody = z
  .object({
    conversation_id: BodyId.optional(),
    profile_id: BodyId.optional(),
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
    after: QueryAfterId.optional(),
    /** 0: do not mark as read (a hidden tab catching up). Opening marks the conversation read (SPEC §4). */
    read: z.enum(['0', '1']).default('1'),
  })
  .refine((q) => (q.id === undefined) !== (q.profile_id === undefined), { path: ['id'], message: 'id or profile_id' });

/** DELETE /api/chat.php (SPEC §7: body conversation (id)). */
export const DeleteChatBody = z.object({ conversation: z.object({ id: BodyId }) });

/** POST /api/chat-typing.php */
export const TypingBody = z.object({ conversation_id: BodyId });

/** GET /api/gifs.php */
export const GifQuery = z.object({ q: z.string().max(60).default('') });

/** One GIF of the GIF search (API.md GET /api/gifs.php). */
export const Gif = z.object({ id: z.string(), url: z.string(), width: z.number(), height: z.number(), title: z.string() });
export type Gif = z.infer<typeof Gif>;

/** A gift of the brand's catalogue (GET /api/gifts.php). */
export const Gift = z.object({ id: z.string(), credits: z.number().int() });
export type Gift = z.infer<typeof Gift>;

/** A message as the chat shows it. */
export const ChatMessage = z.object({
  id: z.number().int(),
  /** Sent by the member who asks. */
  mine: z.boolean(),
  kind: z.enum(MESSAGE_KINDS),
  text: z.string().nullable(),
  /**
   * Photo messages: the photo and its thumbnail; null for the recipient while the photo waits for
   * screening or after it was rejected (issue 22: `photo_status` says which).
   */
  photo: z.object({ url: z.string(), thumb_url: z.string() }).nullable(),
  /** Photo messages: active, pending (waiting for screening) or rejected; null on other messages. */
  photo_status: z.enum(['active', 'pending', 'rejected']).nullable().optional(),
  /** Gift messages: which gift and what it cost. */
  gift: Gift.nullable(),
  gif: Gif.nullable(),
  /** The sender's own message a moderator did not deliver (issue 22, held messages), with the reason; absent otherwise. */
  not_delivered: z.object({ reason: z.string() }).optional(),
  created_at: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** The last message of a chat item, for the list. */
export const MessagePreview = z.object({
  id: z.number().int(),
  mine: z.boolean(),
  kind: z.enum(MESSAGE_KINDS),
  /** The start of a text message; null for the other kinds (the list names the kind). */
  text: z.string().nullable(),
  created_at: z.string(),
});
export type MessagePreview = z.infer<typeof MessagePreview>;

/** SPEC §3 chat item. */
export const ChatItem = z.object({
  conversation: z.object({ id: z.number().int() }),
  profile: ProfileCardData,
  num_unread_messages: z.number().int(),
  last_message: MessagePreview.nullable(),
});
export type ChatItem = z.infer<typeof ChatItem>;

/** GET /api/chats.php */
export const ChatsAnswer = z.object({ chats: z.array(ChatItem), total_unread: z.number().int() });
export type ChatsAnswer = z.infer<typeof ChatsAnswer>;

/** Why the member cannot write in a conversation now (SPEC §4), or null: their own address is not confirmed, or the other's is not, the fictional profile was retired (issue 22), or the two no longer reach each other across brands (`out_of_reach`, issue 24: the other's brand left the pool, or either chose their own brand only). */
export const ReplyBlock = z.enum(['confirm_email', 'other_unconfirmed', 'retired', 'out_of_reach']).nullable();
export type ReplyBlock = z.infer<typeof ReplyBlock>;

/** What one message kind costs on this brand (SPEC §3 settings), and the gifts. */
export const ChatCosts = z.object({
  text: z.number().int(),
  photo: z.number().int(),
  gift: z.number().int(),
  /** SPEC §3 minimum_message_costs of the member's country: what one message costs at least, in money. */
  minimum: z.object({ costs: z.number().int(), currency: z.string() }).nullable(),
});
export type ChatCosts = z.infer<typeof ChatCosts>;

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

/** One conversation and what the member may do in it (the service's part of GET /api/chat.php). */
export const Conversation = z.object({
  /** null when the member has no conversation with the profile yet. */
  conversation: z
    .object({
      id: z.number().int(),
      messages: z.array(ChatMessage),
      /** Older messages exist and are hidden for privacy (SPEC §4). */
      older_hidden: z.boolean(),
      /** The last of the member's messages the other has read (0: none). */
      read_up_to: z.number().int(),
    })
    .nullable(),
  profile: ProfileCardData,
  /** The member may write now; otherwise `reply_block` says why. */
  can_send: z.boolean(),
  reply_block: ReplyBlock,
  /** A free member who has used their conversations cannot start this one (SPEC §9): premium. */
  needs_premium: z.boolean(),
});
export type Conversation = z.infer<typeof Conversation>;
/** GET /api/chat.php: the conversation and what each kind of message costs. */
export const ConversationAnswer = Conversation.extend({ costs: ChatCosts });
export type ConversationAnswer = z.infer<typeof ConversationAnswer>;

/** POST /api/chat.php */
export const SendAnswer = z.object({
  conversation_id: z.number().int(),
  message: ChatMessage,
  /** The member's credits after the message. */
  credits: z.number().int(),
});
export type SendAnswer = z.infer<typeof SendAnswer>;

/** GET /api/gifts.php */
export const GiftsAnswer = z.object({ gifts: z.array(Gift) });
/** GET /api/gifs.php */
export const GifsAnswer = z.object({ gifs: z.array(Gif) });
