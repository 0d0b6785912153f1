import { timingSafeEqual } from 'node:crypto';
import { notFound } from '../errors.ts';
import { MailEventAnswer, MailEventBody } from '../../contract/accounts.ts';
import { json, route } from '../http/routes.ts';

function secretMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The mail provider's events (docs/API.md "Mail events"): a bounce or a spam report switches every
 * e-mail type of the address off, with the reason of SPEC §3 (bounce, fbl). Only the provider
 * knows the shared secret (MAIL_WEBHOOK_SECRET), sent as `Authorization: Bearer <secret>` or
 * `?key=<secret>`; without a secret configured the webhook does not exist (404). Its body schema
 * is the contract's (MailEventBody, src/contract/accounts.ts).
 */
export const mailEventRoutes = [
  route({
    method: 'POST',
    path: 'mail-events.php',
    answer: MailEventAnswer,
    who: 'outside',
    body: MailEventBody,
    handler: async (ctx) => {
      const secret = ctx.services.mailWebhookSecret;
      const given = /^Bearer (.+)$/.exec(ctx.header('authorization') ?? '')?.[1] ?? ctx.params.get('key') ?? '';
      if (!secret || !secretMatches(given, secret)) throw notFound();
      const members = await ctx.services.notifications.disableAddress(ctx.body.email, ctx.body.event === 'bounce' ? 'bounce' : 'fbl');
      return json({ ok: true, members });
    },
  }),
];
