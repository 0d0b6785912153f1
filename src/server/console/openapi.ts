import { PERMISSIONS } from '../../contract/console.ts';
import { openApiEnvelope, propertiesOf, schemaOf, type JsonSchema } from '../http/openapi.ts';
import type { AnyConsoleRoute } from './route.ts';

const STAFF_SESSION = 'staff_session';

/** What a route answers besides JSON, read from its path and query (the table declares no answer schemas). */
function answersOf(route: AnyConsoleRoute): Record<string, unknown> {
  if (route.path === 'events') return { 'text/event-stream': { schema: { type: 'string' } } };
  if (route.path.startsWith('media/')) return { 'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } } };
  const csv = route.query && propertiesOf(schemaOf(route.query, 'input')).some((p) => p.name === 'format');
  return { 'application/json': { schema: {} }, ...(csv ? { 'text/csv': { schema: { type: 'string' } } } : {}) };
}

/** The refusals a console route may answer. */
function refusalsOf(route: AnyConsoleRoute): Record<string, string> {
  const out: Record<string, string> = {};
  if (route.body || route.query || route.params || route.upload) out['400'] = 'Refused input: `error.field` names the field.';
  if (route.roles !== 'public') out['401'] = 'No staff session (`authentication_required`); a member\'s cookie is no staff session.';
  out['403'] = [route.roles !== 'public' ? 'A role without the permission (`forbidden`; the attempt is in the audit log)' : '', route.method !== 'GET' ? 'a call from another site (`forbidden_origin`)' : '']
    .filter(Boolean)
    .join(', or ');
  if (!out['403']) delete out['403'];
  out['404'] = route.scoped ? 'Not found, or of a brand outside the staff member\'s scope (it does not exist for them).' : 'Not found.';
  if (route.method !== 'GET') out['409'] = 'Decided or changed already (`console_already` and the like).';
  if (route.body) out['415'] = 'A body that is not JSON.';
  out['429'] = 'Too many requests (Retry-After).';
  return out;
}

/**
 * The OpenAPI 3.1 document of the console's JSON API (docs/API.md "Console"), generated from its
 * route table (CONSOLE_ROUTES) as the member API's is from its own (http/openapi.ts): every body,
 * query and path parameter is zod 4's `z.toJSONSchema` of the contract's schema. Each operation
 * names its permission and the roles it allows (`x-permission`, `x-roles`) and whether it is
 * limited to the staff member's brands (`x-scoped`).
 */
export function consoleOpenApiDocument(routes: readonly AnyConsoleRoute[]): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = `/api/console/${route.path.replace(/:(\w+)/g, '{$1}')}`;
    const parameters = [
      ...(route.params ? propertiesOf(schemaOf(route.params, 'input')).map((p) => ({ name: p.name, in: 'path', required: true, schema: p.schema })) : []),
      ...(route.query ? propertiesOf(schemaOf(route.query, 'input')).map((p) => ({ name: p.name, in: 'query', required: p.required, schema: p.schema })) : []),
    ];
    const responses: Record<string, unknown> = { 200: { description: 'The answer.', content: answersOf(route) } };
    for (const [status, text] of Object.entries(refusalsOf(route))) responses[status] = { description: text, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    const operation: Record<string, unknown> = {
      operationId: `console_${route.method.toLowerCase()}_${route.path.replace(/\W+/g, '_')}`,
      summary: `${route.method} ${path}`,
      'x-permission': route.roles,
      'x-roles': route.roles === 'public' ? [] : PERMISSIONS[route.roles],
      'x-scoped': route.scoped,
      security: route.roles === 'public' ? [] : [{ [STAFF_SESSION]: [] }],
      parameters,
      responses,
    };
    if (route.body) operation.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } };
    else if (route.upload) operation.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { photo: { type: 'string', contentMediaType: 'image/*' } }, required: ['photo'] } } } };
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return openApiEnvelope(
    { title: 'Operator console API', version: '1', description: 'The console\'s JSON API on CONSOLE_HOST: /api/console/<name>. Roles, scopes and rules: docs/API.md "Console".' },
    paths,
    {
      [STAFF_SESSION]: { type: 'apiKey', in: 'cookie', name: 'staff', description: 'The staff session cookie (`__Host-staff` in production), set by POST /api/console/login; state-changing calls also need the console\'s own Origin.' },
    },
  );
}
