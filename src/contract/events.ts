import { z } from 'zod';

/**
 * The live events of a member (DESIGN §9, API.md GET /api/events.php): each names what changed
 * by id; the page then asks the API for it. Published after the change is committed, from any
 * runtime process; every tab of the member hears it through its event stream, where `type` is
 * the event's name and the rest its data.
 */
export const MemberEvent = z.discriminatedUnion('type', [
  /** The user record changed (language, invisible mode, credits, status): reload it. */
  z.object({ type: z.literal('user') }),
  z.object({ type: z.literal('credits'), balance: z.number().int() }),
  /** A profile liked the member: reload the likes. */
  z.object({ type: z.literal('like'), profile_id: z.number().int() }),
  /** The member and a profile like each other: show the match dialog. */
  z.object({ type: z.literal('match'), profile_id: z.number().int() }),
  /** A message in one of the member's conversations, sent or received (the stream's event id is the message id). */
  z.object({ type: z.literal('message'), conversation_id: z.number().int(), message_id: z.number().int() }),
  /** The other member is typing in a conversation (shown for a few seconds). */
  z.object({ type: z.literal('typing'), conversation_id: z.number().int() }),
  /** The other member read the conversation up to a message. */
  z.object({ type: z.literal('read'), conversation_id: z.number().int(), message_id: z.number().int() }),
  /** The member's chats list changed on another tab (read, removed): reload it. */
  z.object({ type: z.literal('chats') }),
  /** A payment of the member changed status (the result screen updates). */
  z.object({ type: z.literal('payment'), payment_id: z.number().int() }),
  /** Staff approved or rejected one of the member's photos (issue 22): reload the photos and the user. */
  z.object({ type: z.literal('photos'), photo_id: z.number().int() }),
  /** Staff approved or rejected a photo sent in one of the member's conversations: show it, or its placeholder. */
  z.object({ type: z.literal('chat_photo'), conversation_id: z.number().int(), message_id: z.number().int() }),
  /** Staff suspended the member (console): the stream closes and the page shows /pages/ban. */
  z.object({ type: z.literal('suspended') }),
  /** Staff decided a complaint the member made or that was made about them: reload the statements. */
  z.object({ type: z.literal('statement'), complaint_id: z.number().int() }),
  /** Sent once when the stream opens: the member it is for (its event id: the last message id). */
  z.object({ type: z.literal('ready'), user_id: z.number().int() }),
]);
export type StreamEvent = z.infer<typeof MemberEvent>;
/** What the services publish (every stream event but `ready`, which the stream itself sends). */
export type MemberEvent = Exclude<StreamEvent, { type: 'ready' }>;
/** An event's name on the stream. */
export type EventName = StreamEvent['type'];
/** The data of an event of that name (the event without its `type`). */
export type EventData<N extends EventName> = Omit<Extract<StreamEvent, { type: N }>, 'type'>;
