import type { BusEvent, EventBus } from '../bus.ts';
import type { ConsoleEvent } from '../../contract/inbox.ts';

export type { ConsoleEvent };

/**
 * The bus topic of the console's live events (GET /api/console/events): one topic for every
 * brand; each event names its brand and a stream passes on only those of its staff member's scope.
 */
export const CONSOLE_TOPIC = 'console';

/** Tells every open console page on every runtime; call after the change has committed. */
export function publishToConsole(bus: EventBus, event: ConsoleEvent): Promise<void> {
  return bus.publish(CONSOLE_TOPIC, event);
}

/** An event of the console pages as `EventBus.within` publishes it, with the commit of the change. */
export function toConsole(event: ConsoleEvent): BusEvent {
  return { topic: CONSOLE_TOPIC, event };
}

/** The bus topic of one staff member's sessions (not a console page's events: no brand). */
export function staffTopic(staffId: number): string {
  return `staff:${staffId}`;
}

/** A staff member's session ended: one (`session_id`, a logout) or all of theirs (null: role changed, removed). */
export interface StaffSessionEnded {
  type: 'session_ended';
  session_id: string | null;
}

/**
 * Closes the open console streams of ended sessions on every runtime, as a member's streams close
 * on suspension; call after the change has committed.
 */
export function announceSessionEnded(bus: EventBus, staffId: number, sessionId: string | null = null): Promise<void> {
  return bus.publish(staffTopic(staffId), { type: 'session_ended', session_id: sessionId } satisfies StaffSessionEnded);
}
