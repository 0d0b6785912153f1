/**
 * One contract (src/contract): the route table declares every route's schemas, the contract's
 * endpoint map (what the browser's typed calls read) holds the same ones, the OpenAPI document is
 * generated from them, and in tests an answer that drifts from its schema is a loud 500.
 */
import { request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_ROUTES } from '../../src/server/api/index.ts';
import { ENDPOINTS, endpointKey, type Endpoint } from '../../src/contract/endpoints.ts';
import { OkAnswer } from '../../src/contract/public.ts';
import { checkAnswer, registerApi } from '../../src/server/http/api.ts';
import { asAppError } from '../../src/server/http/failures.ts';
import { openApiDocument, openApiHtml } from '../../src/server/http/openapi.ts';
import { json, route, type AnyRoute } from '../../src/server/http/routes.ts';
import type { Services } from '../../src/server/services/index.ts';
import type { Tenant } from '../../src/tenant/schema.ts';

/** What a route lacks: an answer (JSON schema or a note), or a body schema while its handler reads `ctx.body`. */
function missingSchemas(routes: readonly AnyRoute[]): string[] {
  return routes.flatMap((r) => {
    const name = `${r.method} ${r.path}`;
    const out: string[] = [];
    if (!r.answer) out.push(`${name}: no answer`);
    if (!r.body && /\bctx\.body\b/.test(r.handler.toString())) out.push(`${name}: reads a body without a body schema`);
    return out;
  });
}

const toJson = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
};

describe('the route table and the contract', () => {
  test('every route declares its answer, and its body where its handler reads one', () => {
    expect(missingSchemas(API_ROUTES)).toEqual([]);
  });

  test('the check finds a route without an answer and one that reads a body it does not declare', () => {
    const bad = [
      route({ method: 'GET', path: 'a.php', who: 'visitor', handler: () => json({ ok: true }) }),
      route({ method: 'POST', path: 'b.php', who: 'visitor', answer: OkAnswer, handler: (ctx) => json({ ok: Boolean(ctx.body) as true }) }),
    ];
    expect(missingSchemas(bad)).toEqual(['GET a.php: no answer', 'POST b.php: reads a body without a body schema']);
  });

  test('the endpoint map of src/contract holds the very schemas the routes declare, and nothing else', () => {
    const map = ENDPOINTS as Record<string, Endpoint>;
    const keys = API_ROUTES.map(endpointKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(Object.keys(map).sort());
    for (const r of API_ROUTES) {
      const e = map[endpointKey(r)]!;
      expect({ key: endpointKey(r), body: r.body === e.body, query: r.query === e.query, answer: r.answer === e.answer }).toEqual({ key: endpointKey(r), body: true, query: true, answer: true });
    }
  });
});

describe('the OpenAPI document', () => {
  const doc = openApiDocument(API_ROUTES, { title: 'API', version: '1' }) as {
    openapi: string;
    paths: Record<string, Record<string, { security: unknown[]; parameters: { name: string }[]; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema: unknown }> }>; description: string }>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };

  test('is OpenAPI 3.1 with the error shape and the session cookie', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', properties: { error: { type: 'object', required: ['code', 'message'] } } });
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  test('has every route, its who, its query and body, its 2xx answer as z.toJSONSchema writes it, and its refusals', () => {
    for (const r of API_ROUTES) {
      const op = doc.paths[`/api/${r.path}`]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      const variants = API_ROUTES.filter((o) => o.method === r.method && o.path === r.path).length > 1;
      if (r.answer && typeof r.answer !== 'string') {
        const ok = Object.entries(op!.responses).find(([status]) => status.startsWith('2'))![1].content!['application/json']!.schema as { oneOf?: unknown[] };
        if (variants) expect(ok.oneOf ?? [ok]).toContainEqual(toJson(r.answer, 'output'));
        else expect(ok).toEqual(toJson(r.answer, 'output'));
      }
      if (r.body) {
        const content = Object.values(op!.requestBody!.content)[0]!.schema as { oneOf?: unknown[] };
        expect(variants ? (content.oneOf ?? [content]) : [content]).toContainEqual(toJson(r.body, 'input'));
      }
      if (r.who === 'member' && !variants) expect(op!.security).toEqual([{ session: [] }]);
      if (r.who === 'outside') expect(op!.security).toEqual([]);
      expect(op!.responses['404']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
      if (r.body || r.query) expect(op!.responses['400']).toBeDefined();
    }
    expect(doc.paths['/api/members.php']!.get!.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['gender', 'country', 'min_age', 'page']));
    expect(doc.paths['/api/user.php']!.post!.description).toContain('push=1');
  });

  test('the reference page lists every operation, escaped, with no script or outside address', () => {
    const page = openApiHtml(doc as never);
    for (const r of API_ROUTES) expect(page).toContain(`${r.method} /api/${r.path}`);
    expect(page).not.toMatch(/<script|https?:\/\/(?!json-schema\.org)/);
    expect(page).toContain('&#34;');
  });
});

describe('the answer check of tests', () => {
  let app: FastifyInstance;
  let port: number;
  const routes = [
    route({ method: 'GET', path: 'right.php', who: 'visitor', answer: OkAnswer, handler: () => json({ ok: true as const }) }),
    // A handler whose answer drifted from its schema (typed as unknown: what a type hole lets through).
    route({ method: 'GET', path: 'wrong.php', who: 'visitor', answer: OkAnswer, handler: () => json({ ok: 'yes' } as unknown as OkAnswer) }),
    route({ method: 'GET', path: 'undeclared.php', who: 'visitor', handler: () => json({ ok: true }) }),
  ];

  async function serve(checkAnswers: boolean): Promise<{ app: FastifyInstance; port: number }> {
    const a = Fastify();
    registerApi(a, routes, {
      services: {} as Services,
      production: false,
      visit: async (req) => {
        req.sessionState = null;
        return { tenant: { id: 'spetter', locales: { fallback: 'nl' } } as Tenant, locale: 'nl', locales: ['nl'], country: null, ip: '127.0.0.1' };
      },
      sendErrorPage: (_req, reply) => reply.code(404).send('page'),
      wantsHtml: () => false,
      checkAnswers,
    });
    a.setErrorHandler((error, _req, reply) => void reply.code(asAppError(error)?.status ?? 500).send({ error: { code: 'server_error' } }));
    await a.listen({ port: 0, host: '127.0.0.1' });
    return { app: a, port: (a.server.address() as { port: number }).port };
  }
  const get = (p: number, path: string) =>
    new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: p, path }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });

  beforeAll(async () => {
    ({ app, port } = await serve(true));
  });
  afterAll(async () => {
    await app?.close();
  });

  test('an answer its schema refuses, or a JSON answer of a route without a schema, is a 500 in tests', async () => {
    expect(await get(port, '/api/right.php')).toBe(200);
    expect(await get(port, '/api/wrong.php')).toBe(500);
    expect(await get(port, '/api/undeclared.php')).toBe(500);
    expect(() => checkAnswer(routes[1]!, json({ ok: 'yes' }))).toThrow(/does not match its schema/);
  });

  test('without the check (production) answers are sent as the handler gives them', async () => {
    const plain = await serve(false);
    try {
      expect(await get(plain.port, '/api/wrong.php')).toBe(200);
    } finally {
      await plain.app.close();
    }
  });
});
