import { OkAnswer } from '../../contract/public.ts';
import { notFound } from '../errors.ts';
import { AutoLikeAnswer, BlockedAnswer, ComplaintAnswer, ComplaintBody, DeckAnswer, LikeAnswer, LikesAnswer, LikesQuery, MatchFinderAnswer, ProfileIdBody, StatementsAnswer, SwipeAnswer, SwipeBody } from '../../contract/likes.ts';
import { json, route, type RouteContext } from '../http/routes.ts';
import type { Liker } from '../services/likes.ts';

/** The logged-in member as the one who acts: their user and profile (a member without a profile likes nobody). */
export function likerOf(ctx: RouteContext<unknown, unknown, 'member'>): Liker {
  const profileId = ctx.session.user.profile?.id;
  if (!profileId) throw notFound();
  return { userId: ctx.session.user.id, profileId };
}

/** Likes, the swipe game, the match finder, blocks and complaints (docs/API.md "Likes"). */
export const likeRoutes = [
  route({
    // Like a profile (SPEC §4): one like per pair; both directions are a match.
    method: 'POST',
    path: 'like.php',
    answer: LikeAnswer,
    who: 'member',
    body: ProfileIdBody,
    handler: async (ctx) => json(await ctx.services.likes.like(ctx.tenant, likerOf(ctx), ctx.body.profile_id)),
  }),
  route({
    method: 'DELETE',
    path: 'like.php',
    answer: OkAnswer,
    who: 'member',
    body: ProfileIdBody,
    handler: async (ctx) => {
      await ctx.services.likes.unlike(ctx.tenant, likerOf(ctx), ctx.body.profile_id);
      return json({ ok: true });
    },
  }),
  route({
    // SPEC §7: given likes (profiles) and received likes (liked_by), new ones first, and the new count.
    method: 'GET',
    path: 'likes.php',
    answer: LikesAnswer,
    who: 'member',
    query: LikesQuery,
    handler: async (ctx) => json(await ctx.services.likes.list(ctx.tenant, likerOf(ctx), ctx.query.type)),
  }),
  route({
    // SPEC §7: a profile for the like dialog that got none: one that liked the member, else the best suggestion.
    method: 'GET',
    path: 'auto-like.php',
    answer: AutoLikeAnswer,
    who: 'member',
    handler: async (ctx) => {
      const liker = likerOf(ctx);
      const likedMe = await ctx.services.likes.likedMeNotBack(ctx.tenant, liker);
      if (likedMe) return json({ profile: { ...likedMe, liked_me: true } });
      const [suggestion] = await ctx.services.swipes.suggestions(ctx.tenant, liker, 1);
      return json({ profile: suggestion ? { ...suggestion, liked_me: false } : null });
    },
  }),
  route({
    method: 'GET',
    path: 'swipe.php',
    answer: DeckAnswer,
    who: 'member',
    handler: async (ctx) => json(await ctx.services.swipes.deck(ctx.tenant, likerOf(ctx))),
  }),
  route({
    // SPEC §9: 4 likes per brand day in the game; the fifth is 429 with next_at.
    method: 'POST',
    path: 'swipe.php',
    answer: SwipeAnswer,
    who: 'member',
    body: SwipeBody,
    handler: async (ctx) => json(await ctx.services.swipes.swipe(ctx.tenant, likerOf(ctx), ctx.body.profile_id, ctx.body.action)),
  }),
  route({
    method: 'GET',
    path: 'match-finder.php',
    answer: MatchFinderAnswer,
    who: 'member',
    handler: async (ctx) => json({ profiles: await ctx.services.swipes.suggestions(ctx.tenant, likerOf(ctx)) }),
  }),
  route({
    method: 'GET',
    path: 'block.php',
    answer: BlockedAnswer,
    who: 'member',
    handler: async (ctx) => json({ profiles: await ctx.services.safety.blocked(ctx.tenant, likerOf(ctx)) }),
  }),
  route({
    // SPEC §4: the two no longer see or reach each other; the likes between them are deleted.
    method: 'POST',
    path: 'block.php',
    answer: OkAnswer,
    who: 'member',
    body: ProfileIdBody,
    handler: async (ctx) => {
      await ctx.services.safety.block(ctx.tenant, likerOf(ctx), ctx.body.profile_id);
      return json({ ok: true });
    },
  }),
  route({
    method: 'DELETE',
    path: 'block.php',
    answer: OkAnswer,
    who: 'member',
    body: ProfileIdBody,
    handler: async (ctx) => {
      await ctx.services.safety.unblock(ctx.tenant, likerOf(ctx), ctx.body.profile_id);
      return json({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: 'complaint.php',
    answer: ComplaintAnswer,
    who: 'member',
    body: ComplaintBody,
    messages: { subject: 'complaint_subject', message: 'complaint_message', reason: 'complaint_reason' },
    handler: async (ctx) => {
      const { user } = ctx.session;
      const { id } = await ctx.services.safety.complain(ctx.tenant, { userId: user.id, profileId: user.profile?.id ?? null, email: user.email, locale: ctx.locale }, ctx.body);
      return json({ ok: true, id });
    },
  }),
  route({
    method: 'GET',
    path: 'statements.php',
    answer: StatementsAnswer,
    who: 'member',
    // The statements of decisions on complaints the member made or that were made about them (issue 22).
    handler: async (ctx) => json({ statements: await ctx.services.complaints.statements(ctx.tenant, ctx.session.user.id, ctx.locale) }),
  }),
];
