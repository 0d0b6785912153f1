import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, test } from 'vitest';
import { EARLY_GETS_GLOBAL, FIRST_ROW_CARDS, earlyGetsScript, requestKey, takeEarlyGet } from '../../src/lib/early-gets.ts';
import { cardPhoto, profilePhoto } from '../../src/lib/shown-photos.ts';

/**
 * A member shell's head starts the GETs of its first screen (src/lib/early-gets.ts); the API
 * client takes an answer over when an island asks the same GET. The script runs here as the
 * browser runs it, in a context of its own with a document, a location and a fetch that records
 * what it was asked; its keys must be the ones the client computes, or the answer is never used.
 */
interface Page {
  cookie?: string;
  pathname: string;
  search?: string;
  /** The status the API answers with (200 by default), or 'network' for a failed fetch. */
  answer?: number | 'network';
  /** What the API answers per path (else `{ url }`). */
  bodies?: Record<string, unknown>;
}

function runHead(route: string, page: Page) {
  const asked: { url: string; credentials: string; headers: Record<string, string> }[] = [];
  const preloaded: Record<string, string>[] = [];
  const window: Record<string, unknown> = {};
  const context = {
    window,
    document: {
      cookie: page.cookie ?? 'signed_in=t4g; theme=x',
      createElement: () => ({}),
      head: { appendChild: (link: Record<string, string>) => preloaded.push({ ...link }) },
    },
    location: { pathname: page.pathname, search: page.search ?? '' },
    fetch: (url: string, init: { credentials: string; headers: Record<string, string> }) => {
      asked.push({ url, ...init });
      if (page.answer === 'network') return Promise.reject(new TypeError('Failed to fetch'));
      const status = page.answer ?? 200;
      return Promise.resolve({ ok: status < 300, status, json: () => Promise.resolve(page.bodies?.[url] ?? { url }) });
    },
  };
  runInNewContext(earlyGetsScript(route), context);
  // The page's modules read the answers from the browser's global object.
  Object.assign(globalThis, { [EARLY_GETS_GLOBAL]: window[EARLY_GETS_GLOBAL] });
  return { asked, preloaded, started: Object.keys((window[EARLY_GETS_GLOBAL] ?? {}) as object), leaked: Object.keys(window).filter((k) => k !== EARLY_GETS_GLOBAL) };
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>)[EARLY_GETS_GLOBAL];
});

describe("a member shell's early GETs", () => {
  test('the members search asks for the member and the first page of results, under the keys the API client uses', async () => {
    const { asked, started, leaked } = runHead('members', { pathname: '/members' });
    expect(asked.map((a) => a.url)).toEqual(['/api/user.php', '/api/members.php']);
    expect(asked[0]).toMatchObject({ credentials: 'same-origin', headers: { 'X-Request-Type': 'client', accept: 'application/json' } });
    expect(started).toEqual([requestKey('/user.php'), requestKey('/members.php', {})]);
    expect(leaked).toEqual([]);
    await expect(takeEarlyGet(requestKey('/members.php', {}))).resolves.toEqual({ url: '/api/members.php' });
    // Taken once: a later search asks the server again.
    expect(takeEarlyGet(requestKey('/members.php', {}))).toBeUndefined();
    await expect(takeEarlyGet(requestKey('/user.php'))).resolves.toEqual({ url: '/api/user.php' });
  });

  test("the first row's photos load at high priority as soon as the search answers, as the cards show them", async () => {
    const card = (id: number, main_image: { filename: string; thumb_filename: string } | null) => ({ id, main_image });
    const profiles = [card(1, { filename: '/media/a.webp', thumb_filename: '/media/a-t.webp' }), card(2, null), card(3, { filename: '/media/c.webp', thumb_filename: '' }), card(4, { filename: '/media/d.webp', thumb_filename: '/media/d-t.webp' })];
    const { preloaded } = runHead('members', { pathname: '/members', bodies: { '/api/members.php': { profiles } } });
    const answer = await takeEarlyGet('/members.php');
    expect(answer).toEqual({ profiles });
    const shown = profiles.slice(0, FIRST_ROW_CARDS).map(cardPhoto).filter(Boolean);
    expect(shown).toEqual(['/media/a-t.webp']);
    expect(preloaded).toEqual(shown.map((href) => ({ rel: 'preload', as: 'image', href, fetchPriority: 'high' })));
  });

  test("a profile's photo loads at high priority as soon as the profile answers, the one the profile shows", async () => {
    const profile = { id: 42, main_image: { filename: '/media/card.webp', thumb_filename: '/media/card-t.webp' } };
    const answers = [
      { profile, photos: [{ url: null, main: true }, { url: '/media/2.webp', main: false }, { url: '/media/3.webp', main: true }] },
      { profile, photos: [{ url: null, main: true }, { url: '/media/2.webp', main: false }] },
      { profile, photos: [{ url: null, main: true }] },
    ];
    for (const body of answers) {
      const { preloaded } = runHead('members-id', { pathname: '/members/42', bodies: { '/api/member.php?id=42': body } });
      await takeEarlyGet('/member.php?id=42');
      expect(preloaded.map((l) => l.href)).toEqual([profilePhoto(body as unknown as Parameters<typeof profilePhoto>[0])]);
    }
    expect(answers.map((a) => profilePhoto(a as unknown as Parameters<typeof profilePhoto>[0]))).toEqual(['/media/3.webp', '/media/2.webp', '/media/card.webp']);
  });

  test('an answer of another shape preloads nothing and is still handed over', async () => {
    const { preloaded } = runHead('members', { pathname: '/members', bodies: { '/api/members.php': { unexpected: true } } });
    await expect(takeEarlyGet('/members.php')).resolves.toEqual({ unexpected: true });
    expect(preloaded).toEqual([]);
  });

  test('a search with a query in the address is left to the search store', () => {
    const { asked } = runHead('members', { pathname: '/members', search: '?gender=female&utm_source=x' });
    expect(asked.map((a) => a.url)).toEqual(['/api/user.php']);
  });

  test('a profile asks for the profile of its address', async () => {
    for (const [route, pathname] of [['members-id', '/members/0042'], ['likes-m-id', '/likes/m/42/']] as const) {
      const { asked } = runHead(route, { pathname });
      expect(asked.map((a) => a.url)).toEqual(['/api/user.php', '/api/member.php?id=42']);
      await expect(takeEarlyGet(requestKey('/member.php', { id: 42 }))).resolves.toEqual({ url: '/api/member.php?id=42' });
    }
    expect(runHead('members-id', { pathname: '/members/abc' }).asked.map((a) => a.url)).toEqual(['/api/user.php']);
  });

  test('without the signed-in hint nothing is asked (the page is on its way to the login)', () => {
    const { asked, started } = runHead('members', { pathname: '/members', cookie: 'theme=x; not_signed_in=1' });
    expect(asked).toEqual([]);
    expect(started).toEqual([]);
  });

  test('a refused or failed early GET leaves the call to the API client, which asks again and reports', async () => {
    runHead('members', { pathname: '/members', answer: 401 });
    await expect(takeEarlyGet('/user.php')).resolves.toBeNull();
    runHead('members', { pathname: '/members', answer: 'network' });
    await expect(takeEarlyGet('/members.php')).resolves.toBeNull();
  });

  test('a page without a shell\'s script has nothing to take', () => {
    expect(takeEarlyGet('/user.php')).toBeUndefined();
  });

  test('the key is the path and the query as given, without the values left out', () => {
    expect(requestKey('/members.php', {})).toBe('/members.php');
    expect(requestKey('/members.php', { gender: 'female', page: 2, country: undefined })).toBe('/members.php?gender=female&page=2');
  });
});
