import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Profile } from '../db/schema.ts';
import type { ProfileCardData } from '../../contract/likes.ts';
import { ageOn } from '../../lib/account-rules.ts';
import { mainImages } from './main-image.ts';

/** The columns a profile card needs. */
export const CARD_COLUMNS = ['profiles.id', 'profiles.name', 'profiles.birth_date', 'profiles.city', 'profiles.region', 'profiles.country', 'profiles.fictional'] as const;
export type CardRow = Pick<Profile, 'id' | 'name' | 'birth_date' | 'city' | 'region' | 'country' | 'fictional'>;

/** Profile cards of rows, their main images read in one query; ages as of `today` (the service's clock). */
export async function profileCards<R extends CardRow>(db: Kysely<Database>, rows: R[], today: Date = new Date()): Promise<Array<{ row: R; card: ProfileCardData }>> {
  const images = await mainImages(db, [...new Set(rows.map((r) => r.id))]);
  return rows.map((row) => ({
    row,
    card: {
      id: row.id,
      name: row.name,
      age: ageOn(row.birth_date, today),
      city: row.city,
      region: row.region,
      country: row.country,
      fictional: row.fictional === 1,
      main_image: images.get(row.id) ?? null,
    },
  }));
}
