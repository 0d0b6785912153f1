/**
 * The router of declared routes (DESIGN §8): it enforces who may call, the Origin check and the
 * schemas, and sends exactly the result a handler gives; never a guess from a value's shape.
 */
import { request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyFormbody from '@fastify/formbody';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registerApi } from '../../src/server/http/api.ts';
import { asAppError } from '../../src/server/http/failures.ts';
import { json, noContent, redirect, route, stream } from '../../src/server/http/routes.ts';
import type { Services, Session } from '../../src/server/services/index.ts';
import type { Tenant } from '../../src/tenant/schema.ts';

let app: FastifyInstance;
let port: number;
const sessionLookups: string[] = [];

function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `spetter.localhost:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => {
        text += c;
        // An event stream stays open: the test reads its first events, then hangs up.
        if (text.includes('event: done')) res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

beforeAll(async () => {
  app = Fastify();
  await app.register(fastifyFormbody);
  await app.register(fastifyCompress, { threshold: 16, encodings: ['br', 'gzip'] });
  const member = { id: 's1', user: { id: 7 } } as unknown as Session;
  registerApi(
    app,
    [
      route({ method: 'GET', path: 'payment.php', who: 'visitor', handler: () => json({ status: 'paid', body: 'x', headers: 1 }) }),
      route({ method: 'GET', path: 'me.php', who: 'member', handler: (ctx) => json({ user: ctx.session.user.id }) }),
      route({ method: 'PUT', path: 'me.php', who: 'member', body: z.object({ name: z.string().min(2) }), messages: { name: 'name_length' }, handler: (ctx) => json({ name: ctx.body.name }) }),
      route({ method: 'POST', path: 'webhook.php', who: 'outside', body: z.object({ id: z.string().regex(/^tr_\w+$/) }), handler: (ctx) => json({ got: ctx.body.id }) }),
      route({ method: 'POST', path: 'choose.php', who: 'visitor', handler: () => json({ form: 'plain' }) }),
      route({ method: 'POST', path: 'choose.php', who: 'visitor', variant: { query: { push: '1' } }, handler: () => json({ form: 'push' }) }),
      route({ method: 'POST', path: 'choose.php', who: 'visitor', variant: { bodyHas: 'token' }, handler: () => json({ form: 'token' }) }),
      route({ method: 'GET', path: 'away.php', who: 'visitor', handler: () => redirect('/members') }),
      route({ method: 'POST', path: 'beacon.php', who: 'visitor', handler: () => noContent() }),
      route({
        method: 'GET',
        path: 'stream.php',
        who: 'visitor',
        handler: () =>
          stream((sink) => {
            sink.send('hello', { n: 'x'.repeat(2000) }, 1);
            sink.send('done', {});
          }),
      }),
    ],
    {
      services: {} as Services,
      production: false,
      visit: async (req, _reply, withSession = true) => {
        if (withSession) sessionLookups.push(req.url);
        req.sessionState = req.headers.cookie === 'session=ok' ? member : null;
        return { tenant: { id: 'spetter', locales: { fallback: 'nl' } } as Tenant, locale: 'nl', locales: ['nl'], country: null, ip: '127.0.0.1' };
      },
      sendErrorPage: (_req, reply) => reply.code(404).send('page'),
      wantsHtml: () => false,
    },
  );
  app.setErrorHandler((error, _req, reply) => {
    const refusal = asAppError(error);
    void reply.code(refusal?.status ?? 500).send({ error: { code: refusal?.code ?? 'server_error', field: refusal?.field } });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app?.close();
});

describe('declared routes', () => {
  test('a JSON answer is sent as it is, whatever keys it has (no result is guessed)', async () => {
    const res = await call('GET', '/api/payment.php');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ status: 'paid', body: 'x', headers: 1 });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('a member route answers 401 to a visitor and the member their data', async () => {
    const visitor = await call('GET', '/api/me.php');
    expect(visitor.status).toBe(401);
    expect(JSON.parse(visitor.text).error.code).toBe('authentication_required');
    const member = await call('GET', '/api/me.php', { cookie: 'session=ok' });
    expect(JSON.parse(member.text)).toEqual({ user: 7 });
  });

  test('the body schema refuses with the declared code of the field', async () => {
    const res = await call('PUT', '/api/me.php', { cookie: 'session=ok', 'content-type': 'application/json' }, '{"name":"x"}');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toEqual({ code: 'name_length', field: 'name' });
    const form = await call('PUT', '/api/me.php', { cookie: 'session=ok', 'content-type': 'application/x-www-form-urlencoded' }, 'name=Anna');
    expect(form.status).toBe(415);
  });

  test('the Origin check compares scheme, host and port', async () => {
    const own = `http://spetter.localhost:${port}`;
    const headers = { cookie: 'session=ok', 'content-type': 'application/json' };
    expect((await call('PUT', '/api/me.php', { ...headers, origin: own }, '{"name":"Anna"}')).status).toBe(200);
    for (const origin of [`http://spetter.localhost:${port + 1}`, `https://spetter.localhost:${port}`, 'http://evil.example', 'null', 'not a url']) {
      const res = await call('PUT', '/api/me.php', { ...headers, origin }, '{"name":"Anna"}');
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.text).error.code).toBe('forbidden_origin');
    }
    expect((await call('PUT', '/api/me.php', { ...headers, 'sec-fetch-site': 'cross-site' }, '{"name":"Anna"}')).status).toBe(403);
  });

  test('an outside caller sends a form, has no session looked up and no Origin check', async () => {
    sessionLookups.length = 0;
    const res = await call('POST', '/api/webhook.php', { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://api.mollie.com' }, 'id=tr_abc123');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ got: 'tr_abc123' });
    expect(sessionLookups).toEqual([]);
    expect((await call('POST', '/api/webhook.php', { 'content-type': 'application/x-www-form-urlencoded' }, 'id=../../etc')).status).toBe(400);
  });

  test('variants of one method and path are chosen by query, then by body, else the plain route', async () => {
    const headers = { 'content-type': 'application/json' };
    expect(JSON.parse((await call('POST', '/api/choose.php?push=1', headers, '{}')).text)).toEqual({ form: 'push' });
    expect(JSON.parse((await call('POST', '/api/choose.php', headers, '{"token":"t"}')).text)).toEqual({ form: 'token' });
    expect(JSON.parse((await call('POST', '/api/choose.php', headers, '{}')).text)).toEqual({ form: 'plain' });
  });

  test('redirects and empty answers are what they say', async () => {
    const away = await call('GET', '/api/away.php');
    expect([away.status, away.headers.location]).toEqual([303, '/members']);
    // A beacon (navigator.sendBeacon) posts text/plain: a route that reads no body ignores it.
    const beacon = await call('POST', '/api/beacon.php', { 'content-type': 'text/plain;charset=UTF-8' }, '{}');
    expect([beacon.status, beacon.text]).toEqual([204, '']);
    const declared = await call('PUT', '/api/me.php', { cookie: 'session=ok', 'content-type': 'text/plain' }, '{"name":"Anna"}');
    expect(declared.status).toBe(415);
  });

  test('another method on a known endpoint is 405 with Allow', async () => {
    const res = await call('DELETE', '/api/payment.php');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  test('an event stream is never compressed and sends its events at once', async () => {
    const res = await call('GET', '/api/stream.php', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toContain('id: 1\nevent: hello\ndata: {"n":"xxxx');
    // A JSON answer of the same size is compressed: the stream's plainness is the route's choice.
    const compressed = await call('GET', '/api/payment.php', { 'accept-encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
  });
});
