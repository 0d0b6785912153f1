/** The pure rules of the chat: costs, gifts, the GIF library, the send body, chat times and the chunk-load guard. */
import { describe, expect, test } from 'vitest';
import { chatCosts, SendBody, ChatQuery } from '../../src/contract/chat.ts';
import { giftCatalogue, GIFT_IDS, GIFTS } from '../../src/lib/gifts.ts';
import { localGifs, stickerSvg } from '../../src/server/data/gifs.ts';
import { chatTime } from '../../src/islands/chat/context.ts';
import { CHUNK_RELOAD_GUARD_MS, isChunkLoadError, shouldReloadForChunk } from '../../src/lib/chunk-guard.ts';

const brand = { message_credits: 5, photo_credits: 10, gift_credits: 15, minimum_message_costs: { NL: { costs: 35, currency: 'EUR' } } };

describe('chat costs and gifts', () => {
  test('costs come from the brand, with the minimum of the member\'s country only where one is set', () => {
    expect(chatCosts(brand, 'NL')).toEqual({ text: 5, photo: 10, gift: 15, minimum: { costs: 35, currency: 'EUR' } });
    expect(chatCosts(brand, 'DE').minimum).toBeNull();
    expect(chatCosts(brand, null).minimum).toBeNull();
  });

  test('the default catalogue offers every gift at gift_credits times its factor; a brand\'s own list wins', () => {
    const all = giftCatalogue({ gift_credits: 15 });
    expect(all.map((g) => g.id)).toEqual(GIFT_IDS);
    expect(all.find((g) => g.id === 'rose')!.credits).toBe(15);
    expect(all.find((g) => g.id === 'diamond')!.credits).toBe(15 * GIFTS.diamond.factor);
    expect(giftCatalogue({ gift_credits: 0 }).every((g) => g.credits === 0)).toBe(true);
    expect(giftCatalogue({ gift_credits: 15, gifts: [{ id: 'rose', credits: 3 }] })).toEqual([{ id: 'rose', credits: 3 }]);
  });
});

describe('the offline GIF library', () => {
  test('finds stickers by words in several languages and by the start of a word; an empty search shows all', async () => {
    const gifs = localGifs();
    const ids = async (q: string) => (await gifs.search(q, 50)).map((g) => g.id);
    expect(await ids('kus')).toContain('kiss');
    expect(await ids('KUSS')).toContain('kiss');
    expect(await ids('liebe')).toContain('heart');
    expect(await ids('caf')).toContain('coffee');
    expect(await ids('qqq')).toEqual([]);
    expect((await ids('')).length).toBeGreaterThanOrEqual(12);
    expect((await gifs.search('', 3)).length).toBe(3);
    expect(await gifs.get('nope')).toBeNull();
    expect(await gifs.get('kiss')).toEqual({ id: 'kiss', url: '/gifs/kiss.svg', width: 200, height: 200, title: 'Kiss' });
  });

  test('every sticker is an SVG with an animation', async () => {
    for (const gif of await localGifs().search('', 100)) {
      const svg = stickerSvg(gif.id)!;
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toMatch(/<animate/);
    }
    expect(stickerSvg('nope')).toBeUndefined();
  });
});

describe('the send body', () => {
  const key = 'abcdefgh-1234';
  test('names one target: a conversation or a profile', () => {
    expect(SendBody.safeParse({ conversation_id: 1, text: 'hoi', client_id: key }).success).toBe(true);
    expect(SendBody.safeParse({ profile_id: 1, kind: 'gift', gift: 'rose', client_id: key }).success).toBe(true);
    expect(SendBody.safeParse({ text: 'hoi', client_id: key }).success).toBe(false);
    expect(SendBody.safeParse({ conversation_id: 1, profile_id: 2, text: 'hoi', client_id: key }).success).toBe(false);
  });
  test('needs a client id of 8 to 64 safe characters', () => {
    expect(SendBody.safeParse({ conversation_id: 1, text: 'hoi', client_id: 'short' }).success).toBe(false);
    expect(SendBody.safeParse({ conversation_id: 1, text: 'hoi', client_id: 'x'.repeat(65) }).success).toBe(false);
    expect(SendBody.safeParse({ conversation_id: 1, text: 'hoi', client_id: 'bad key with spaces' }).success).toBe(false);
    expect(SendBody.safeParse({ conversation_id: 1, text: 'hoi' }).success).toBe(false);
  });
  test('the conversation query reads one of id and profile_id, and read=0 or 1', () => {
    expect(ChatQuery.parse({ id: '4' })).toEqual({ id: 4, read: '1' });
    expect(ChatQuery.safeParse({ id: '4', profile_id: '5' }).success).toBe(false);
    expect(ChatQuery.safeParse({ id: '4', read: 'yes' }).success).toBe(false);
    expect(ChatQuery.safeParse({ id: '-1' }).success).toBe(false);
  });
});

test('a chat time is the hour today and the date before', () => {
  const now = new Date('2026-11-25T15:00:00');
  expect(chatTime(new Date('2026-11-25T09:05:00').toISOString(), 'nl', now)).toBe('09:05');
  expect(chatTime(new Date('2026-11-20T09:05:00').toISOString(), 'nl', now)).toMatch(/20 nov.*09:05/);
});

describe('the chunk-load guard', () => {
  test('reloads once, then not again within 60 s', () => {
    expect(shouldReloadForChunk(null, 1_000_000)).toBe(true);
    expect(shouldReloadForChunk(1_000_000, 1_000_000 + CHUNK_RELOAD_GUARD_MS - 1)).toBe(false);
    expect(shouldReloadForChunk(1_000_000, 1_000_000 + CHUNK_RELOAD_GUARD_MS)).toBe(true);
    // A clock set back does not lock the guard.
    expect(shouldReloadForChunk(2_000_000, 1_000_000)).toBe(true);
  });
  test('knows the browsers\' errors for a chunk that failed to load', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/_assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Network down'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
