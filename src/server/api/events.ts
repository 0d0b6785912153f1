import { route, stream } from '../http/routes.ts';
import { userTopic } from '../services/events.ts';

export const eventRoutes = [
  route({
    // One server-sent-events stream per tab (DESIGN §9): what concerns the member, as it happens.
    // Events carry ids only; the page fetches what changed. Published by any runtime process.
    method: 'GET',
    path: 'events.php',
    who: 'member',
    handler: (ctx) =>
      stream((sink) => {
        const unsubscribe = ctx.services.bus.subscribe(userTopic(ctx.session.user.id), (event) => {
          const { type, ...data } = event as { type: string };
          sink.send(type, data);
        });
        sink.onClose(unsubscribe);
        sink.send('ready', { user_id: ctx.session.user.id });
      }),
  }),
];
