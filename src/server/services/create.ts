import { join } from 'node:path';
import { repoRoot } from '../paths.ts';
import type { Kysely } from 'kysely';
import type { Database, Engine } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { Services } from './index.ts';
import { createUserViews } from './user-view.ts';
import { createSessionService } from './sessions.ts';
import { createMailService } from './mail.ts';
import { createAccountService } from './accounts.ts';
import { createProfileService } from './profiles.ts';
import { createNotificationService } from './notifications.ts';
import { createPhotoService, defaultMediaDir } from './photos.ts';
import { createSearchService } from './search.ts';

export interface ServiceDeps {
  db: Kysely<Database>;
  engine: Engine;
  pushPublicKey: string | null;
  tenants: () => Tenant[];
  /** Where mails are written when no SMTP_URL is set (default data/outbox). */
  outboxDir?: string;
  mediaDir?: string;
  production?: boolean;
  log?: (line: string) => void;
}

/** Creates the services of one process over one database connection. */
export function createServices(deps: ServiceDeps): Services {
  const { db } = deps;
  const views = createUserViews(db);
  const sessions = createSessionService({ db, views, production: deps.production ?? false });
  const mail = createMailService({
    outboxDir: deps.outboxDir ?? process.env.OUTBOX_DIR ?? join(repoRoot(), 'data', 'outbox'),
    smtpUrl: process.env.SMTP_URL,
    log: deps.log,
  });
  const mediaDir = deps.mediaDir ?? defaultMediaDir();
  const notifications = createNotificationService({ db });
  return {
    db,
    engine: deps.engine,
    tenants: deps.tenants,
    pushPublicKey: deps.pushPublicKey,
    mediaDir,
    sessions,
    accounts: createAccountService({ db, mail, sessions, views, unsubscribeToken: (user) => notifications.unsubscribeToken(user), production: deps.production }),
    profiles: createProfileService({ db }),
    notifications,
    photos: createPhotoService({ db, mediaDir }),
    mail,
    search: createSearchService({ db }),
  };
}
