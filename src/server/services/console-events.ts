import type { EventBus } from '../bus.ts';
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
