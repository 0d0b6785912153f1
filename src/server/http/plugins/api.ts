import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services/index.ts';
import { registerApi } from '../api.ts';
import type { AnyRoute } from '../routes.ts';
import { wantsHtml } from './error-pages.ts';

/** The API (DESIGN §8): the declared routes of the route table, under /api/. */
export const apiPlugin: FastifyPluginAsync<{ routes: AnyRoute[]; services: Services; trustProxy: boolean }> = async (app, { routes, services, trustProxy }) => {
  registerApi(app, routes, { services, trustProxy, visit: app.visit, sendErrorPage: app.sendErrorPage, wantsHtml });
};
