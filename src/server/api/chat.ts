import { OkAnswer } from '../../contract/public.ts';
import { ChatQuery, ChatsAnswer, chatCosts, ConversationAnswer, DeleteChatBody, GifQuery, GifsAnswer, GiftsAnswer, PhotoSendFields, SendAnswer, SendBody, TypingBody } from '../../contract/chat.ts';
import { GIF_RESULTS } from '../data/gifs.ts';
import { json, route } from '../http/routes.ts';
import { readPhoto } from './photos.ts';
import { likerOf } from './likes.ts';

/** The chat (docs/API.md "Chat"): conversations, messages paid with credits, gifts and GIFs. */
export const chatRoutes = [
  route({
    // SPEC §7: the member's chats, newest first, and the unread total.
    method: 'GET',
    path: 'chats.php',
    answer: ChatsAnswer,
    who: 'member',
    handler: async (ctx) => json(await ctx.services.chat.list(ctx.tenant, likerOf(ctx))),
  }),
  route({
    // One conversation (by id, or with a profile) and what the member may do in it; opening marks it read.
    method: 'GET',
    path: 'chat.php',
    answer: ConversationAnswer,
    who: 'member',
    query: ChatQuery,
    handler: async (ctx) => {
      const { id, profile_id, after, read } = ctx.query;
      const answer = await ctx.services.chat.open(ctx.tenant, likerOf(ctx), { id, profile_id, after, read: read === '1' });
      return json({ ...answer, costs: chatCosts(ctx.tenant, ctx.country) });
    },
  }),
  route({
    // A photo: multipart `photo`, the conversation or profile and the client id in the query.
    method: 'POST',
    path: 'chat.php',
    answer: SendAnswer,
    who: 'member',
    variant: { query: { photo: '1' } },
    upload: true,
    query: PhotoSendFields,
    handler: async (ctx) => {
      const { conversation_id, profile_id, client_id } = ctx.query;
      const file = await readPhoto(ctx.req, ctx.res);
      return json(await ctx.services.chat.sendPhoto(ctx.tenant, likerOf(ctx), { conversationId: conversation_id, profileId: profile_id }, client_id, file));
    },
  }),
  route({
    // A text, gift or GIF message; 402 not_enough_credits, 403 premium_only for a free member's third conversation.
    method: 'POST',
    path: 'chat.php',
    answer: SendAnswer,
    who: 'member',
    body: SendBody,
    handler: async (ctx) => json(await ctx.services.chat.send(ctx.tenant, likerOf(ctx), ctx.body)),
  }),
  route({
    // SPEC §7: body conversation (id).
    method: 'DELETE',
    path: 'chat.php',
    answer: OkAnswer,
    who: 'member',
    body: DeleteChatBody,
    handler: async (ctx) => {
      await ctx.services.chat.remove(likerOf(ctx), ctx.body.conversation.id);
      return json({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: 'chat-typing.php',
    answer: OkAnswer,
    who: 'member',
    body: TypingBody,
    handler: async (ctx) => {
      await ctx.services.chat.typing(ctx.tenant, likerOf(ctx), ctx.body.conversation_id);
      return json({ ok: true });
    },
  }),
  route({
    method: 'GET',
    path: 'gifts.php',
    answer: GiftsAnswer,
    who: 'member',
    handler: (ctx) => json({ gifts: ctx.services.chat.gifts(ctx.tenant) }),
  }),
  route({
    method: 'GET',
    path: 'gifs.php',
    answer: GifsAnswer,
    who: 'member',
    query: GifQuery,
    handler: async (ctx) => json({ gifs: await ctx.services.gifs.search(ctx.query.q, GIF_RESULTS) }),
  }),
];
