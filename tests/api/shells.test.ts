/**
 * Member shells (issue "fast, light member pages"; src/server/http/member-shells.ts): the members
 * search and the profile screen are answered to a logged-in member from one prerendered page per
 * brand and language, after the session and the visibility rule; the member's parts come from
 * the API in the browser. Visitors still meet the guards; the shells are nobody's address.
 */
import { describe, expect, test } from 'vitest';
import { engines, hostFetch } from '../support/runtime.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';

const NOT_FOUND_NL = 'This page could not be found';

for (const engine of engines()) {
  describe(`member shells on ${engine}`, () => {
    const rt = useRuntime(engine);

    test('two members get the same search and profile pages, without anything of either member in them', async () => {
      const anna = await activeMember(rt(), 'spetter', { name: 'Annabel Shell', gender: 'female' });
      const bram = await activeMember(rt(), 'spetter', { name: 'Bram Shell', gender: 'male' });
      const bramProfile = (await bram.client.user()).profile.id as number;
      const annaProfile = (await anna.client.user()).profile.id as number;

      const search = [await anna.client.get('/members', { accept: 'text/html' }), await bram.client.get('/members?min_age=30', { accept: 'text/html' })];
      for (const res of search) {
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-cache');
        expect(res.text).toContain('<html lang="nl" class="signed-in"');
      }
      expect(search[0]!.text).toBe(search[1]!.text);

      const profile = [await anna.client.get(`/members/${bramProfile}`), await bram.client.get(`/likes/m/${annaProfile}`)];
      for (const res of profile) {
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-cache');
        // The profile comes from member.php in the browser: the page carries the island, not the member.
        expect(res.text).toContain('MemberProfileIsland');
      }
      for (const res of [...search, ...profile]) {
        for (const secret of ['Annabel Shell', 'Bram Shell', anna.email, bram.email]) expect(res.text).not.toContain(secret);
      }
      // The island's data: the profile as the member may see it.
      const answer = await anna.client.get(`/api/member.php?id=${bramProfile}`);
      expect(answer.json().profile.name).toBe('Bram Shell');

      // A browser that has the page gets a 304.
      const again = await anna.client.get('/members', { accept: 'text/html', 'if-none-match': search[0]!.headers.etag as string });
      expect(again.status).toBe(304);
    });

    test('a profile the member may not open is the 404 page, as is an address that names no profile', async () => {
      const viewer = await activeMember(rt(), 'spetter', { gender: 'male' });
      const blocker = await activeMember(rt(), 'spetter', { gender: 'female', name: 'Blokkeerder' });
      const blockerProfile = (await blocker.client.user()).profile.id as number;
      const viewerProfile = (await viewer.client.user()).profile.id as number;
      const velvet = await activeMember(rt(), 'velvet', { country: 'GB', region: null, city: null });
      const velvetProfile = (await velvet.client.user()).profile.id as number;
      expect((await blocker.client.post('/api/block.php', { profile_id: viewerProfile })).status).toBe(200);

      for (const path of [`/members/${blockerProfile}`, `/likes/m/${blockerProfile}`, `/members/${velvetProfile}`, '/members/abc', '/members/0', '/members/99999999999', '/members/2147483648']) {
        const res = await viewer.client.get(path, { accept: 'text/html' });
        expect(res.status, path).toBe(404);
        expect(res.text, path).toContain(NOT_FOUND_NL);
      }
      // The blocker still opens the profile (to unblock), and everyone their own.
      expect((await blocker.client.get(`/members/${viewerProfile}`)).status).toBe(200);
      expect((await viewer.client.get(`/members/${viewerProfile}`)).status).toBe(200);
    });

    test('visitors meet the guards: the login for a profile and for a closed search, the page for an open one', async () => {
      const member = await activeMember(rt(), 'spetter');
      const id = (await member.client.user()).profile.id as number;
      const profile = await hostFetch(rt(), 'spetter', `/members/${id}`);
      expect(profile.status).toBe(302);
      expect(profile.headers.location).toBe(`/login?next=${encodeURIComponent(`/members/${id}`)}`);
      expect((await hostFetch(rt(), 'spetter', '/members')).headers.location).toBe('/login?next=%2Fmembers');
      // Velvet lets visitors search: its server-rendered page, with the visitor's header.
      const open = await hostFetch(rt(), 'velvet', '/members');
      expect(open.status).toBe(200);
      expect(open.text).not.toContain('class="signed-in"');
    });

    test('the shells are nobody\'s address, and the member\'s saved language picks the shell\'s', async () => {
      const member = await activeMember(rt(), 'velvet', { country: 'GB', region: null, city: null });
      for (const path of ['/shells/members', '/shells/members-id/', '/l/en/shells/members', '/shells', '/%2Fshells/members', '//shells/members-id', '/%2F%2Fshells//members/']) {
        const res = await member.client.get(path, { accept: 'text/html' });
        expect(res.status, path).toBe(404);
      }
      expect((await member.client.get('/members')).text).toContain('<html lang="en"');
      expect((await member.client.put('/api/user.php', { language: 'de' })).status).toBe(200);
      const german = await member.client.get('/members');
      expect(german.status).toBe(200);
      expect(german.text).toContain('<html lang="de"');
    });
  });
}
