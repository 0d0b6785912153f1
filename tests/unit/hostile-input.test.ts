/** The pure rules of issue 20: text a person cannot type, and what an id is in a body and in a query. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { forbiddenTextPath, hasForbiddenControl } from '../../src/contract/text.ts';
import { BodyId, MAX_ID, QueryAfterId, QueryId } from '../../src/contract/ids.ts';
import { GeocodeQuery } from '../../src/contract/public.ts';
import { routeId } from '../../src/lib/routes.ts';

/** The characters the rule refuses, by the words. */
function forbidden(code: number): boolean {
  const c0 = code <= 0x1f && code !== 0x09 && code !== 0x0a && code !== 0x0d;
  return c0 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
}

describe('text a person cannot type', () => {
  test('every one-character text is refused exactly when it is a C0 control (but tab, LF, CR), DEL, a C1 control or half a surrogate pair', () => {
    const wrong: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const expected = forbidden(code) || (code >= 0xd800 && code <= 0xdfff);
      if (hasForbiddenControl(String.fromCharCode(code)) !== expected) wrong.push(`U+${code.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  test('text a person writes passes: line breaks, tabs, accents, emoji (a surrogate pair), other scripts', () => {
    for (const text of ['Hallo\r\nwereld\tdaar', 'Grüße aus München', 'Ça va ? 😀👩‍❤️‍👨', 'Привет', '日本語', 'a\u00a0b\u2028c\ufffd', '']) {
      expect(hasForbiddenControl(text), JSON.stringify(text)).toBe(false);
    }
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => !hasForbiddenControl(text) || [...text].some((ch) => forbidden(ch.codePointAt(0)!))));
  });

  test('a forbidden character anywhere in a text is found; a pair in the wrong order is two halves', () => {
    for (const ch of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\ud800', '\udfff']) {
      expect(hasForbiddenControl(`begin ${ch}`)).toBe(true);
      expect(hasForbiddenControl(`${ch} end`)).toBe(true);
      expect(hasForbiddenControl(`mid${ch}dle`)).toBe(true);
    }
    expect(hasForbiddenControl('\udc00\ud800')).toBe(true);
    expect(hasForbiddenControl('😀'.slice(0, 1))).toBe(true);
    expect(hasForbiddenControl('😀'.slice(1))).toBe(true);
  });

  test('the walk names the path of the first string holding one, a value or a key, in bodies, forms and queries', () => {
    expect(forbiddenTextPath({ name: 'Anna', city: 'A\u0000dam' })).toEqual(['city']);
    expect(forbiddenTextPath({ a: 'x\u0001', b: 'y\u0001' })).toEqual(['a']);
    expect(forbiddenTextPath({ interests: ['music', 'x\u007f'] })).toEqual(['interests', 1]);
    expect(forbiddenTextPath({ conversation: { id: 1, note: '\u0085' } })).toEqual(['conversation', 'note']);
    expect(forbiddenTextPath({ ok: 'x', 'bad\u0000key': 1 })).toEqual(['bad\u0000key']);
    expect(forbiddenTextPath({ 'bad\u0000key': 1, later: '\u0000' })).toEqual(['bad\u0000key']);
    expect(forbiddenTextPath({ u: ['ok', 'a\u001fb'] })).toEqual(['u', 1]);
    expect(forbiddenTextPath('\u0000')).toEqual([]);
  });

  test('the walk passes clean bodies and values that are not text', () => {
    for (const value of [undefined, null, 1, true, {}, [], { a: 1, b: [true, null, { c: 'Grüße\n' }] }, Symbol('other body')]) {
      expect(forbiddenTextPath(value)).toBeNull();
    }
  });

  test('a body nested deeper than any call stack is walked, and fast', () => {
    const depth = 200_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`) as unknown;
    const started = Date.now();
    expect(forbiddenTextPath(deep)).toHaveLength(depth);
    expect(forbiddenTextPath(JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`))).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('ids', () => {
  test('a body id is a JSON integer from 1 to 2^31-1 and nothing else', () => {
    for (const ok of [1, 42, MAX_ID]) expect(BodyId.parse(ok)).toBe(ok);
    for (const bad of [true, false, null, '1', [1], '0x1', '1e0', 1.5, 0, -1, 2 ** 31, Number.NaN, Infinity, { id: 1 }]) {
      expect(BodyId.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  test('a query id is decimal digits as routeId reads a page id: no sign, exponent, hex, point or space', () => {
    for (const ok of ['1', '42', String(MAX_ID), '007']) {
      expect(QueryId.parse(ok)).toBe(routeId(ok));
    }
    for (const bad of ['1e0', '0x1', '+1', ' 1', '1 ', '1.0', '', '-1', '0', String(2 ** 31), '99999999999', '１', 1, true]) {
      expect(QueryId.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      if (typeof bad === 'string') expect(routeId(bad)).toBeNull();
    }
    expect(QueryAfterId.parse('0')).toBe(0);
    for (const bad of ['-1', '1e0', ' 0', '']) expect(QueryAfterId.safeParse(bad).success, bad).toBe(false);
  });

  test('no schema of the contract coerces: every id and number is declared strictly', () => {
    const dir = join(import.meta.dirname, '..', '..', 'src', 'contract');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(/z\s*\.\s*coerce\b/);
    }
  });

  test('a position is two plain decimals, never an empty value, hex or an exponent read as a number', () => {
    expect(GeocodeQuery.parse({ lat: '52.3676', lon: '-4.9041' })).toEqual({ lat: 52.3676, lon: -4.9041 });
    expect(GeocodeQuery.parse({ lat: '0', lon: '180' })).toEqual({ lat: 0, lon: 180 });
    for (const lat of ['', ' ', '0x1', '1e1', ' 52.3', '52,3', '91', 'Infinity', '.5']) {
      expect(GeocodeQuery.safeParse({ lat, lon: '4.9' }).success, lat).toBe(false);
    }
  });
});
