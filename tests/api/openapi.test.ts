/** GET /api/openapi.json and /api/docs (docs/API.md "OpenAPI"): the API's description, served to anybody. */
import { describe, expect, test } from 'vitest';
import { engines, hostFetch } from '../support/runtime.ts';
import { useRuntime } from '../support/accounts.ts';
import { API_ROUTES } from '../../src/server/api/index.ts';

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

  test('/api/docs is a readable page of the same routes', async () => {
    const res = await hostFetch(rt(), 'velvet', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('GET /api/packages.php');
    expect(res.text).not.toContain('<script');
  });
});
