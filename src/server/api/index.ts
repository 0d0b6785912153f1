import type { AnyRoute } from '../http/routes.ts';
import { publicRoutes } from './public.ts';
import { accountRoutes } from './accounts.ts';
import { photoRoutes } from './photos.ts';
import { searchRoutes } from './search.ts';
import { eventRoutes } from './events.ts';
import { likeRoutes } from './likes.ts';
import { chatRoutes } from './chat.ts';
import { mailEventRoutes } from './mail-events.ts';
import { paymentRoutes } from './payments.ts';
import { documentRoutes } from './docs.ts';

/** Every endpoint under /api/ (API.md), each declaring who may call it and what it reads. */
export const API_ROUTES: AnyRoute[] = [...publicRoutes, ...accountRoutes, ...photoRoutes, ...searchRoutes, ...likeRoutes, ...chatRoutes, ...mailEventRoutes, ...paymentRoutes, ...eventRoutes, ...documentRoutes(() => API_ROUTES)];
