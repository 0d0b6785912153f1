/**
 * No member's data in another member's server-rendered page. On the server one module instance
 * of a store serves every request: a store written while one member's page rendered was drawn
 * into the next member's (the first member's chat list on everyone's /chats, their user record in
 * the islands of /profile). Two members with nothing in common open every server-rendered member
 * page in turn, A, B, A, B: each page shows its own member and nothing of the other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { engines, REPO, type TestRuntime } from '../support/runtime.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';
import { grant } from '../../src/server/ledger.ts';

const PAGES = join(REPO, 'src', 'pages');

/**
 * The pages the server renders for each request (not prerendered), as paths under src/pages. The
 * pages of a brand's static output (l/[locale]/…) are rendered for no request: the runtime refuses
 * their addresses (tests/api/platform.test.ts), and src/server/static-output.ts renders them with
 * nothing of a visitor.
 */
function serverPages(): string[] {
  return readdirSync(PAGES, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.astro'))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !/export const prerender = true/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(PAGES, f))
    .filter((f) => !f.startsWith(`l${sep}`))
    .sort();
}

interface Member {
  name: string;
  email: string;
  city: string;
  about: string;
  /** The one they chat with, and what was said. */
  partner: { name: string; profileId: number };
  message: string;
  conversationId: number;
  profileId: number;
  /** Credits left: a paid member with 10 or fewer sees them in the header (SPEC §9). */
  credits: number;
  client: Awaited<ReturnType<typeof activeMember>>['client'];
}

/**
 * The addresses of every server-rendered page for a member (their own conversation, their partner's
 * profile), and of the member shells (/members, /members/{id}, /likes/m/{id}).
 */
function addresses(m: Member, packageId: string): Record<string, string[]> {
  const p = m.partner.profileId;
  return {
    '404.astro': ['/404'],
    'account-deleted.astro': ['/account-deleted'],
    'activate/done.astro': ['/activate/done'],
    'activate/error.astro': ['/activate/error'],
    'chats/[id].astro': [`/chats/${m.conversationId}`],
    'chats/index.astro': ['/chats'],
    'complaints.astro': [`/complaints?profile=${p}`],
    'complete-signup.astro': ['/complete-signup'],
    'credits/[id]/[...paymentmethod].astro': [`/credits/${packageId}`, `/credits/${packageId}/ideal`],
    'credits/index.astro': ['/credits'],
    'credits/repeat-order.astro': ['/credits/repeat-order'],
    'directdebit.astro': [`/directdebit?package=${packageId}`],
    'lang-config.astro': ['/lang-config?lang=nl'],
    'likes/[type].astro': ['/likes/received', '/likes/given', '/likes/matches'],
    'likes/index.astro': ['/likes'],
    'likes/m/[id].astro': [`/likes/m/${p}`],
    'login.astro': ['/login'],
    'mail-change/do.astro': ['/mail-change/do'],
    'match-finder.astro': ['/match-finder'],
    'members/[id]/chat.astro': [`/members/${p}/chat`],
    'members/[id]/index.astro': [`/members/${p}`, `/members/${m.profileId}`],
    'members/[id]/landing.astro': [`/members/${p}/landing`],
    'members/[id]/landing2/[...slug].astro': [`/members/${p}/landing2`],
    'members/[id]/landing3/[...slug].astro': [`/members/${p}/landing3`],
    'members/[id]/signup.astro': [`/members/${p}/signup`],
    'members/index.astro': ['/members'],
    'notifications.astro': ['/notifications'],
    'premium.astro': ['/premium'],
    'pricing.astro': ['/pricing'],
    'profile.astro': ['/profile'],
    'reset-password/do.astro': ['/reset-password/do'],
    'reset-password/index.astro': ['/reset-password'],
    'signup-matches.astro': ['/signup-matches'],
    'signup.astro': ['/signup'],
    'swipe-game.astro': ['/swipe-game'],
    'transactions/[...id].astro': ['/transactions'],
  };
}

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

/** What of `other` must never be in `page`, a page drawn for `own`. */
function leaks(page: string, other: Member): string[] {
  const secrets = [other.name, other.email, other.city, other.about, other.partner.name, other.message];
  return secrets.filter((s) => page.includes(s) || page.includes(escaped(s)));
}

/** The credit counts a page shows in the header's badge and the chat's ("… credits over"). */
function creditCounts(page: string): number[] {
  return [...page.matchAll(/(\d+) credits over/g)].map((m) => Number(m[1]));
}

for (const engine of engines()) {
  describe(`server-rendered member pages on ${engine}`, () => {
    const rt = useRuntime(engine);

    /**
     * A paid member with a conversation, a match, a profile text and `credits` credits. A gay man
     * and a lesbian woman, each with a partner of their own kind: neither is ever shown the other
     * or the other's partner, so whatever of the other a page shows leaked.
     */
    async function member(r: TestRuntime, who: { name: string; gender: 'male' | 'female'; city: string; about: string; partner: string; message: string; credits: number }): Promise<Member> {
      const sexuality = who.gender === 'male' ? 'gay' : 'lesbian';
      const self = await activeMember(r, 'spetter', { name: who.name, gender: who.gender, sexuality, city: who.city });
      const partner = await activeMember(r, 'spetter', { name: who.partner, gender: who.gender, sexuality });
      const user = await self.client.user();
      const partnerProfile = (await partner.client.user()).profile.id as number;
      expect((await self.client.put('/api/profile.php', { about: who.about })).status).toBe(200);
      const sent = await self.client.post('/api/chat.php', { profile_id: partnerProfile, kind: 'text', text: who.message, client_id: randomUUID() });
      expect(sent.status, sent.text).toBe(200);
      expect((await self.client.post('/api/like.php', { profile_id: partnerProfile })).status).toBe(200);
      expect((await partner.client.post('/api/like.php', { profile_id: user.profile.id })).json().match).toBe(true);
      // Paid, with a few credits left: the header shows the count.
      await r.db.db.updateTable('users').set({ paid_user: 1, credits: 0 }).where('id', '=', user.id).execute();
      await r.db.db.deleteFrom('credit_ledger').where('user_id', '=', user.id).execute();
      await grant(r.db.db, { userId: user.id, credits: who.credits, reason: 'bonus', ref: `test-${randomUUID()}` });
      return {
        name: who.name,
        email: self.email,
        city: who.city,
        about: who.about,
        partner: { name: who.partner, profileId: partnerProfile },
        message: who.message,
        conversationId: sent.json().conversation_id as number,
        profileId: user.profile.id as number,
        credits: who.credits,
        client: self.client,
      };
    }

    test('two members open every server-rendered page in turn, and each page shows only its own member', async () => {
      const pages = serverPages();
      const a = await member(rt(), { name: 'Arend Privacystra', gender: 'male', city: 'Zuidlaren', about: 'Ik verzamel oude vuurtorenlampen', partner: 'Pieter Gesprekspartner', message: 'Geheim bericht van Arend', credits: 7 });
      const b = await member(rt(), { name: 'Bregje Verborgenhof', gender: 'female', city: 'Vaals', about: 'Mijn hobby is zeldzame cactussen kweken', partner: 'Quinty Gesprekspartner', message: 'Geheim bericht van Bregje', credits: 3 });
      const packageId = rt().services.tenants().find((t) => t.id === 'spetter')!.packages[0]!.id;
      const of = { a: addresses(a, packageId), b: addresses(b, packageId) };
      // Every server-rendered page is visited: a new page is added here.
      expect(Object.keys(of.a).sort()).toEqual(pages);

      const seen = { a: new Set<string>(), b: new Set<string>() };
      for (const page of pages) {
        const turns: [Member, Member][] = [[a, b], [b, a], [a, b], [b, a]];
        for (const [i, [self, other]] of turns.entries()) {
          const who = self === a ? 'a' : 'b';
          for (const path of of[who][page]!) {
            const res = await self.client.get(path, { accept: 'text/html' });
            const where = `${page} ${path} for ${self.name} (visit ${i + 1})`;
            expect(res.status, `${where}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
            expect(leaks(res.text, other), where).toEqual([]);
            expect(creditCounts(res.text).filter((n) => n !== self.credits), where).toEqual([]);
            for (const secret of [self.name, self.partner.name, self.message]) if (res.text.includes(secret)) seen[who].add(`${secret} on ${path}`);
            if (creditCounts(res.text).includes(self.credits)) seen[who].add(`credits on ${path}`);
          }
        }
      }
      // The pages did draw their own member: the name in the header, the conversation on /chats.
      for (const [m, who] of [[a, 'a'], [b, 'b']] as const) {
        expect(seen[who]).toContain(`${m.name} on /chats`);
        expect(seen[who]).toContain(`${m.partner.name} on /chats`);
        expect(seen[who]).toContain(`${m.message} on /chats/${m.conversationId}`);
        expect(seen[who]).toContain(`${m.name} on /profile`);
        expect(seen[who]).toContain('credits on /profile');
      }
    });
  });
}
