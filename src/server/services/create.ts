import type { Kysely } from 'kysely';
import type { Database, Engine } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { Services } from './index.ts';

/** Creates the services of one process over one database connection. */
export function createServices(deps: { db: Kysely<Database>; engine: Engine; pushPublicKey: string | null; tenants: () => Tenant[] }): Services {
  return { db: deps.db, engine: deps.engine, tenants: deps.tenants, pushPublicKey: deps.pushPublicKey };
}
