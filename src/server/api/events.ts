import { route, stream } from '../http/routes.ts';
import { userTopic, type MemberEvent } from '../services/events.ts';
import { likerOf } from './likes.ts';

/** A Last-Event-ID the stream can resume from: a message id. */
const EVENT_ID = /^\d{1,10}$/;

export const eventRoutes = [
  route({
    // One server-sent-events stream per tab (DESIGN §9): what concerns the member, as it happens.
    // Events carry ids only; the page fetches what changed. Published by any runtime process.
    // A message event's id is the message id: a browser that reconnects sends the last one it saw
    // (Last-Event-ID, or ?last_event_id=) and first gets the message events it missed.
    method: 'GET',
    path: 'events.php',
    answer: 'stream',
    who: 'member',
    handler: (ctx) =>
      stream(async (sink) => {
        const me = likerOf(ctx);
        const unsubscribe = ctx.services.bus.subscribe(userTopic(me.userId), (event) => {
          const { type, ...data } = event as MemberEvent;
          sink.send(type, data, type === 'message' ? (data as { message_id: number }).message_id : undefined);
          // Suspended by staff: the tab is told, and the stream ends (reconnecting, it gets the ban page's 403).
          if (type === 'suspended') sink.close();
        });
        sink.onClose(unsubscribe);
        const last = ctx.header('last-event-id') ?? ctx.params.get('last_event_id') ?? '';
        if (EVENT_ID.test(last) && Number(last) <= 2_147_483_647) {
          for (const missed of await ctx.services.chat.missed(me, Number(last))) {
            sink.send('message', { conversation_id: missed.conversation_id, message_id: missed.id }, missed.id);
          }
        }
        sink.send('ready', { user_id: me.userId }, await ctx.services.chat.lastMessageId(me));
      }),
  }),
];
