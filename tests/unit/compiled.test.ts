import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compiledPerCount } from '../../src/server/db/compiled.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { openPostgres, openSqlite, type Opened } from '../support/databases.ts';

/** db/compiled.ts on both engines: a statement compiled once per count of ids answers as the one built each time. */

const ENGINES = [
  { name: 'sqlite', skip: false, open: () => openSqlite(':memory:') },
  { name: 'postgres (set DATABASE_URL to run)', skip: !process.env.DATABASE_URL, open: openPostgres },
];

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`statements compiled per count of ids (${engine.name})`, () => {
    let opened: Opened;
    let db: Kysely<Database>;
    const ids: number[] = [];

    beforeAll(async () => {
      opened = await engine.open();
      db = opened.handle.db;
      await migrateToLatest(db);
      for (const [i, tenant] of ['spetter', 'velvet', 'spetter', 'velvet', 'spetter'].entries()) {
        const row = await db
          .insertInto('users')
          .values({ tenant_id: tenant, email: `user${i}@example.com`, password_hash: 'x', language: 'nl' })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(row.id);
      }
    });
    afterAll(async () => {
      await opened?.cleanup();
    });

    test('each count and value gets the rows the built statement gets; a statement is built once per count up to the kept ones', async () => {
      const TENANT_SLOT = '\u0000tenant';
      let builds = 0;
      const build = (wanted: readonly number[], tenant: string) => {
        builds += 1;
        return db.selectFrom('users').select(['id', 'email']).where('id', 'in', wanted).where('tenant_id', '=', tenant).orderBy('id');
      };
      const run = compiledPerCount<{ id: number; email: string }, [string]>(db, build, { keptUpTo: 3, slots: [TENANT_SLOT] });
      for (const tenant of ['spetter', 'velvet', 'spetter']) {
        for (let count = 1; count <= ids.length; count++) {
          const wanted = ids.slice(ids.length - count).reverse();
          const built = await build(wanted, tenant).execute();
          expect(await run(wanted, tenant), `${count} ids of ${tenant}`).toEqual(built);
        }
      }
      // Per round: 5 built for the comparison, 2 counts past the kept ones built by the runner; 3 compiled once in all.
      expect(builds).toBe(3 * (5 + 2) + 3);
    });

    test('a statement with the ids only', async () => {
      const run = compiledPerCount<{ id: number }>(db, (wanted) => db.selectFrom('users').select('id').where('id', 'in', wanted).orderBy('id'), { keptUpTo: 8 });
      expect(await run([ids[3]!, ids[1]!])).toEqual([{ id: ids[1] }, { id: ids[3] }]);
      expect(await run([ids[0]!, ids[4]!])).toEqual([{ id: ids[0] }, { id: ids[4] }]);
    });
  });
}
