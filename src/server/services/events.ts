import type { EventBus } from '../bus.ts';

/**
 * The live events of a member (DESIGN §9, API.md GET /api/events.php): each names what changed
 * by id; the page then asks the API for it. Published after the change is committed, from any
 * runtime process; every tab of the member hears it through its event stream.
 */
export type MemberEvent =
  /** The user record changed (language, invisible mode, credits, status): reload it. */
  | { type: 'user' }
  | { type: 'credits'; balance: number }
  /** A profile liked the member: reload the likes. */
  | { type: 'like'; profile_id: number }
  /** The member and a profile like each other: show the match dialog. */
  | { type: 'match'; profile_id: number }
  /** A message in one of the member's conversations, sent or received (the stream's event id is the message id). */
  | { type: 'message'; conversation_id: number; message_id: number }
  /** The other member is typing in a conversation (shown for a few seconds). */
  | { type: 'typing'; conversation_id: number }
  /** The other member read the conversation up to a message. */
  | { type: 'read'; conversation_id: number; message_id: number }
  /** The member's chats list changed on another tab (read, removed): reload it. */
  | { type: 'chats' }
  /** A payment of the member changed status (the result screen updates). */
  | { type: 'payment'; payment_id: number }
  /** Staff approved or rejected one of the member's photos (issue 22): reload the photos and the user. */
  | { type: 'photos'; photo_id: number }
  /** Staff approved or rejected a photo sent in one of the member's conversations: show it, or its placeholder. */
  | { type: 'chat_photo'; conversation_id: number; message_id: number };

/** The bus topic of one member's events. */
export function userTopic(userId: number): string {
  return `user:${userId}`;
}

export function publishToMember(bus: EventBus, userId: number, event: MemberEvent): Promise<void> {
  return bus.publish(userTopic(userId), event);
}
