/** GET /api/openapi.json and /api/docs (docs/API.md "OpenAPI"): the API's description, served to anybody. */
import { describe, expect, test } from 'vitest';
import { engines, hostFetch } from '../support/runtime.ts';
import { useRuntime } from '../support/accounts.ts';
import { API_ROUTES } from '../../src/server/api/index.ts';
import { CONSOLE_ROUTES } from '../../src/server/console/routes.ts';
import { consoleClient, staffLogin } from '../support/console.ts';

describe.each(engines())('the API description on %s', (engine) => {
  const rt = useRuntime(engine);

  test('/api/openapi.json is the OpenAPI 3.1 document of every route, cacheable, for a visitor', async () => {
    const res = await hostFetch(rt(), 'spetter', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const r of API_ROUTES) expect(doc.paths[`/api/${r.path}`]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
    expect(doc.paths['/api/packages.php'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/events.php'].get['x-events'].oneOf.length).toBeGreaterThan(5);
  });

  test('/api/console/openapi.json is the OpenAPI 3.1 document of every console route, for staff only', async () => {
    expect((await consoleClient(rt()).get('/api/console/openapi.json')).status).toBe(401);
    expect((await hostFetch(rt(), 'spetter', '/api/console/openapi.json')).status).toBe(404);
    const { client } = await staffLogin(rt(), 'marketer', ['spetter']);
    const res = await client.get('/api/console/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const r of CONSOLE_ROUTES) expect(doc.paths[`/api/console/${r.path.replace(/:(\w+)/g, '{$1}')}`]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
    // From the same table: each operation's permission, roles and scope, and its schemas.
    const suspend = doc.paths['/api/console/members/{id}/suspend'].post;
    expect(suspend).toMatchObject({ 'x-permission': 'members.suspend', 'x-roles': ['owner', 'admin', 'moderator'], 'x-scoped': true, security: [{ staff_session: [] }] });
    expect(suspend.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(suspend.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', required: ['reason'] });
    expect(suspend.responses['403'].description).toContain('audit log');
    expect(doc.paths['/api/console/login'].post).toMatchObject({ 'x-permission': 'public', security: [] });
    expect(doc.paths['/api/console/members'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['q', 'brand', 'status', 'from', 'to']));
    expect(Object.keys(doc.paths['/api/console/revenue'].get.responses['200'].content)).toEqual(['application/json', 'text/csv']);
  });

  test('/api/docs is a readable page of the same routes', async () => {
    const res = await hostFetch(rt(), 'velvet', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('GET /api/packages.php');
    expect(res.text).not.toContain('<script');
  });
});
