/**
 * A large population for the bench's own setup, fast: `sitegen db seed` grows each brand with
 * 100 rows a statement and about four likes a person, which took 13 minutes for 100,000 members
 * on the loaded two cores of 2026-11-26. The console section reads members, not likes: the same
 * demo people (seed.ts `demoPeople`, so names and addresses read as the seed's), without likes,
 * 500 rows a statement, one transaction per brand, then fresh statistics. Used by bench/console.ts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../src/server/db/index.ts';
import { analyze } from '../src/server/db/migrate.ts';
import { demoPeople } from '../src/server/db/seed.ts';
import { loadAllTenants } from '../src/tenant/load.ts';
import { TENANTS_DIR } from '../cli/paths.ts';

/** Rows per insert: a profile's columns times this stays under both engines' bound-parameter limits. */
const ROWS = 500;

/** Grows every brand to `perBrand` demo people (a tenth of them fictional, as the seed's); returns how many were added. */
export async function bulkPeople(db: Kysely<Database>, perBrand: number, now = new Date()): Promise<number> {
  let added = 0;
  for (const tenant of loadAllTenants(TENANTS_DIR)) {
    added += await db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('profiles').select('name').where('tenant_id', '=', tenant.id).execute();
      if (existing.length >= perBrand) return 0;
      const people = demoPeople(tenant, perBrand - existing.length, now, existing.length, new Set(existing.map((r) => r.name)));
      for (let i = 0; i < people.length; i += ROWS) {
        const chunk = people.slice(i, i + ROWS);
        const members = chunk.filter((p) => p.user !== null);
        const users = members.length > 0 ? await trx.insertInto('users').values(members.map((p) => p.user!)).returning('id').execute() : [];
        members.forEach((p, j) => (p.profile.user_id = users[j]!.id));
        await trx.insertInto('profiles').values(chunk.map((p) => p.profile)).execute();
      }
      return people.length;
    });
  }
  if (added) await analyze(db);
  return added;
}
