import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services/index.ts';
import { registerApi } from '../api.ts';
import type { AnyRoute } from '../routes.ts';
import { wantsHtml } from './error-pages.ts';
import { uploadsPlugin } from './uploads.ts';

/** The API (DESIGN §8): the declared routes of the route table, under /api/, and the uploads they read. */
export const apiPlugin: FastifyPluginAsync<{ routes: AnyRoute[]; services: Services; production: boolean; checkAnswers?: boolean }> = async (app, { routes, services, production, checkAnswers }) => {
  await app.register(uploadsPlugin);
  registerApi(app, routes, { services, production, checkAnswers, visit: app.visit, sendErrorPage: app.sendErrorPage, wantsHtml });
};
