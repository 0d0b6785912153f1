import type { BusEvent, EventBus } from '../bus.ts';
import type { MemberEvent } from '../../contract/events.ts';

/** The live events of a member: declared in the contract (src/contract/events.ts), with the browser's listeners. */
export type { MemberEvent };

/** The bus topic of one member's events. */
export function userTopic(userId: number): string {
  return `user:${userId}`;
}

export function publishToMember(bus: EventBus, userId: number, event: MemberEvent): Promise<void> {
  return bus.publish(userTopic(userId), event);
}

/** A member's event as `EventBus.within` publishes it, with the commit of the change. */
export function toMember(userId: number, event: MemberEvent): BusEvent {
  return { topic: userTopic(userId), event };
}
