import { z } from 'zod';
import { ErrorAnswer } from '../../contract/errors.ts';
import type { AnyRoute, Method } from './routes.ts';

/**
 * The OpenAPI 3.1 document of /api/ (DESIGN §6 "API description"), generated from the route table:
 * every schema is zod 4's own `z.toJSONSchema` of the contract's schema, never written by hand.
 * Routes that share a method and path (variants) are one operation whose body and answer are
 * `oneOf` the variants', each named in the description.
 */
export type JsonSchema = Record<string, unknown>;

const SESSION = 'session';

/** A schema as the caller sends it (`input`) or as the server answers it (`output`); what JSON Schema cannot say is left open. */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** The properties of an object schema (or of every branch of a union of objects). */
export function propertiesOf(schema: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const seen = new Map<string, JsonSchema>();
    for (const branch of branches) for (const p of propertiesOf(branch)) if (!seen.has(p.name)) seen.set(p.name, p.schema);
    return [...seen].map(([name, s]) => ({ name, schema: s, required: false }));
  }
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({ name, schema: s, required: required.has(name) }));
}

const WHO_TEXT = {
  visitor: 'Anybody (a session cookie, when sent, makes the answer the member\'s).',
  member: 'A logged-in member: the session cookie; 401 without one.',
  outside: 'An outside caller (a payment or mail provider): no session, no Origin check; form bodies are read.',
} as const;

const NOTE_TEXT = {
  redirect: 'a redirect (303) to a page of the brand',
  html: 'an HTML page',
  stream: 'a server-sent-events stream (text/event-stream); its events: see x-events',
  empty: 'nothing (204)',
} as const;

function variantName(route: AnyRoute): string {
  const v = route.variant;
  if (!v) return 'without a variant';
  return [v.query ? `query ${new URLSearchParams(v.query).toString()}` : '', v.bodyHas ? `a body with \`${v.bodyHas}\`` : ''].filter(Boolean).join(' and ');
}

/** The refusals a route may answer, each with the error shape. */
function errorStatuses(route: AnyRoute): Record<string, string> {
  const out: Record<string, string> = {};
  if (route.body || route.query || route.upload) out['400'] = 'Refused input: `error.field` names the field.';
  if (route.who === 'member') out['401'] = 'Not logged in (`authentication_required`).';
  if (route.who !== 'outside' && (route.origin ?? route.method !== 'GET')) out['403'] = 'The request does not come from the brand\'s own pages (Origin check).';
  out['404'] = 'Not found.';
  if (route.body) out['415'] = 'A body that is not JSON (form bodies only for outside callers).';
  out['429'] = 'Too many requests (Retry-After).';
  out['503'] = 'The database is out of reach (Retry-After).';
  return out;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** The OpenAPI 3.1 document of the given routes. */
export function openApiDocument(routes: readonly AnyRoute[], info: OpenApiInfo, extras: { events?: z.ZodType } = {}): JsonSchema {
  const groups = new Map<string, AnyRoute[]>();
  for (const r of routes) {
    const key = `${r.method} ${r.path}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, group] of groups) {
    const [method, path] = key.split(' ') as [Method, string];
    const who = [...new Set(group.map((r) => r.who))];
    const variants = group.length > 1;
    const bodies = group.filter((r) => r.body).map((r) => schemaOf(r.body!, 'input'));
    const answers = group.flatMap((r) => (r.answer && typeof r.answer !== 'string' ? [schemaOf(r.answer, 'output')] : []));
    const notes = [...new Set(group.flatMap((r) => [...(typeof r.answer === 'string' ? [r.answer] : []), ...(r.also ?? [])]))];
    const parameters = new Map<string, unknown>();
    for (const r of group) {
      if (!r.query) continue;
      let props = propertiesOf(schemaOf(r.query, 'input'));
      if (props.length === 0) props = propertiesOf(schemaOf(r.query, 'output'));
      for (const p of props) if (!parameters.has(p.name)) parameters.set(p.name, { name: p.name, in: 'query', required: p.required && !variants, schema: p.schema });
    }
    for (const r of group) for (const [name, value] of Object.entries(r.variant?.query ?? {})) parameters.set(name, { name, in: 'query', required: false, schema: { type: 'string', const: value }, description: 'Picks a variant of this operation.' });
    const description = [
      ...who.map((w) => WHO_TEXT[w]),
      variants ? `Variants (the first that matches answers): ${group.map((r) => `${variantName(r)}${r.who !== group[0]!.who ? ` (${r.who})` : ''}`).join('; ')}.` : '',
      notes.length ? `Also answers ${notes.map((n) => NOTE_TEXT[n]).join(', or ')}.` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    const one = (list: JsonSchema[]) => (list.length === 1 ? list[0]! : { oneOf: list });
    const responses: Record<string, unknown> = {};
    if (answers.length) {
      const status = path === 'signup.php' && method === 'POST' ? '201' : '200';
      responses[status] = { description: 'The answer.', content: { 'application/json': { schema: one(answers) } } };
    }
    for (const note of notes) {
      if (note === 'redirect') responses['303'] = { description: 'A redirect.', headers: { Location: { schema: { type: 'string' } } } };
      if (note === 'html') responses['200'] ??= { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } };
      if (note === 'empty') responses['204'] = { description: 'Nothing.' };
      if (note === 'stream') responses['200'] = { description: 'An event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } };
    }
    const statuses = Object.assign({}, ...group.map(errorStatuses)) as Record<string, string>;
    for (const [status, text] of Object.entries(statuses)) responses[status] = { description: text, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    const operation: Record<string, unknown> = {
      operationId: `${method.toLowerCase()}_${path.replace(/\W+/g, '_')}`,
      summary: `${method} /api/${path}`,
      description,
      'x-who': who.length === 1 ? who[0] : who,
      security: who.includes('member') && !who.includes('visitor') && !who.includes('outside') ? [{ [SESSION]: [] }] : who.includes('visitor') ? [{}, { [SESSION]: [] }] : [],
      parameters: [...parameters.values()],
      responses,
    };
    if (bodies.length) {
      const forms = group.some((r) => r.who === 'outside' && r.body);
      operation.requestBody = {
        required: true,
        content: {
          ...(group.some((r) => r.who !== 'outside' && r.body) ? { 'application/json': { schema: one(bodies) } } : {}),
          ...(forms ? { 'application/x-www-form-urlencoded': { schema: one(bodies) } } : {}),
        },
      };
    } else if (group.some((r) => r.upload)) {
      operation.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { photo: { type: 'string', contentMediaType: 'image/*' } }, required: ['photo'] } } } };
    }
    if (extras.events && group.some((r) => r.answer === 'stream')) operation['x-events'] = schemaOf(extras.events, 'output');
    (paths[`/api/${path}`] ??= {})[method.toLowerCase()] = operation;
  }
  return openApiEnvelope(info, paths, {
    [SESSION]: { type: 'apiKey', in: 'cookie', name: 'session', description: 'The member\'s session cookie (`__Host-session` in production), set by logging in or signing up.' },
  });
}

/** An OpenAPI 3.1 document of these paths: the error shape every refusal has, and the cookies that open them. */
export function openApiEnvelope(info: OpenApiInfo, paths: Record<string, Record<string, unknown>>, securitySchemes: Record<string, unknown>): JsonSchema {
  return {
    openapi: '3.1.0',
    info,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: { schemas: { Error: schemaOf(ErrorAnswer, 'output') }, securitySchemes },
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A readable reference for integrators: each operation with its schemas, rendered from the document (no script, no CDN). */
export function openApiHtml(doc: JsonSchema): string {
  const info = doc.info as OpenApiInfo;
  const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
  const block = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
  const ops = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const id = escapeHtml(String(op.operationId));
      const body = op.requestBody ? `<h4>Body</h4>${block((op.requestBody as { content: unknown }).content)}` : '';
      const params = (op.parameters as unknown[]).length ? `<h4>Query</h4>${block(op.parameters)}` : '';
      const responses = Object.entries(op.responses as Record<string, { description: string; content?: Record<string, { schema: unknown }> }>)
        .map(([status, r]) => `<li><b>${escapeHtml(status)}</b> ${escapeHtml(r.description)}${r.content && status.startsWith('2') ? block(Object.values(r.content)[0]!.schema) : ''}</li>`)
        .join('');
      return {
        nav: `<li><a href="#${id}"><code>${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</code></a></li>`,
        section: `<section id="${id}"><h3><code>${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</code> <small>${escapeHtml(String(op['x-who']))}</small></h3>${escapeHtml(String(op.description))
          .split('\n\n')
          .map((p) => `<p>${p}</p>`)
          .join('')}${params}${body}<h4>Answers</h4><ul>${responses}</ul>${op['x-events'] ? `<h4>Events</h4>${block(op['x-events'])}` : ''}</section>`,
      };
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1a22;line-height:1.45}pre{background:#f5f3f7;padding:.6rem;overflow:auto;font-size:.8rem;max-height:24rem}section{border-top:1px solid #ddd;margin-top:1.5rem}small{color:#666;font-weight:400}</style></head>
<body><h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1><p>${escapeHtml(info.description ?? '')}</p><p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Every refusal is <code>{"error": {"code", "message", "field"?}}</code>:</p>${block(
    (doc.components as { schemas: { Error: unknown } }).schemas.Error,
  )}
<nav><ul>${ops.map((o) => o.nav).join('')}</ul></nav>${ops.map((o) => o.section).join('')}</body></html>`;
}
