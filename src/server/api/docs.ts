import { OpenApiAnswer } from '../../contract/errors.ts';
import { MemberEvent } from '../../contract/events.ts';
import { openApiDocument, openApiHtml } from '../http/openapi.ts';
import { html, json, route, type AnyRoute } from '../http/routes.ts';

/** The document changes only with a deploy: browsers and proxies may keep it an hour. */
const CACHE = { 'Cache-Control': 'public, max-age=3600' };

/**
 * The API's description for integrators (docs/API.md "OpenAPI"): the OpenAPI 3.1 document
 * generated from the route table, and a readable page rendered from it. Built once, on first ask.
 */
export function documentRoutes(table: () => readonly AnyRoute[]): AnyRoute[] {
  let doc: ReturnType<typeof openApiDocument> | undefined;
  let page: string | undefined;
  const document = () =>
    (doc ??= openApiDocument(
      table(),
      {
        title: 'Dating sites API',
        version: '1',
        description: 'The one API of every brand: /api/<name> on the brand\'s own host. Prose, rules and choices: docs/API.md.',
      },
      { events: MemberEvent },
    ));
  return [
    route({ method: 'GET', path: 'openapi.json', who: 'visitor', answer: OpenApiAnswer, handler: () => json(document() as OpenApiAnswer, { headers: CACHE }) }),
    route({
      method: 'GET',
      path: 'docs',
      who: 'visitor',
      answer: 'html',
      handler: () => html((page ??= openApiHtml(document()))),
    }),
  ];
}
