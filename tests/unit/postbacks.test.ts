/**
 * The pure rules of postbacks and revenue periods (issue 23): a URL template filled with each
 * value URL-encoded, credentials hidden from staff, payouts as trackers read them, and the periods
 * a range is grouped into (the same as the database's, src/server/db/engine.ts periodOf).
 */
import { describe, expect, test } from 'vitest';
import { fillPostbackUrl, payoutOf, redactPostbackUrl, unknownMacros, POSTBACK_MACROS, type PostbackValues } from '../../src/lib/postbacks.ts';
import { periodsOf } from '../../src/server/services/revenue.ts';

const values: PostbackValues = { clickid: 'c&1', sub1: 'a b', sub2: 'é/?', sub3: '', event: 'purchase', payout: '14.99', currency: 'EUR', txid: '42', member_id: '7' };

describe('postback URLs', () => {
  test('every macro is filled, URL-encoded; unknown braces are left as they are', () => {
    const template = `https://t.example/pb?${POSTBACK_MACROS.map((m) => `${m}={${m}}`).join('&')}&keep={other}`;
    expect(fillPostbackUrl(template, values)).toBe('https://t.example/pb?clickid=c%261&sub1=a%20b&sub2=%C3%A9%2F%3F&sub3=&event=purchase&payout=14.99&currency=EUR&txid=42&member_id=7&keep={other}');
    expect(fillPostbackUrl('https://t.example/{event}/{txid}', values)).toBe('https://t.example/purchase/42');
  });

  test('unknown macros are named for sitegen check', () => {
    expect(unknownMacros('https://t.example/?a={clickid}&b={click_id}&c={}')).toEqual(['click_id', '']);
  });

  test('credentials in the query are hidden from staff, other parameters kept', () => {
    expect(redactPostbackUrl('https://t.example/pb?cid=1&token=abc&api_key=x&Signature=y&p=2')).toBe('https://t.example/pb?cid=1&token=***&api_key=***&Signature=***&p=2');
    expect(redactPostbackUrl('https://t.example/pb')).toBe('https://t.example/pb');
  });

  test('a payout is the amount in the currency\'s major unit', () => {
    expect([payoutOf(1499), payoutOf(500), payoutOf(5), payoutOf(0)]).toEqual(['14.99', '5.00', '0.05', '0.00']);
  });
});

describe('revenue periods', () => {
  test('days, ISO weeks from Monday and months of a range, oldest first, cut by the range', () => {
    expect(periodsOf('2026-11-28', '2026-12-01', 'day')).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01']);
    expect(periodsOf('2026-11-28', '2026-12-08', 'week')).toEqual(['2026-11-23', '2026-11-30', '2026-12-07']);
    expect(periodsOf('2026-11-30', '2027-01-01', 'month')).toEqual(['2026-11', '2026-12', '2027-01']);
    expect(periodsOf('2026-11-29', '2026-11-29', 'week')).toEqual(['2026-11-23']); // a Sunday
  });
});
