import { openBenchDb } from './queries.ts';
import { load, startBare, startRuntime, type LoadResult } from './lib.ts';
import { startS3StandIn } from '../tests/support/s3-stand-in.ts';

/** Demo people per brand whose portraits are drawn (the section needs a few photos, not a population). */
const MEMBERS = 10;

export interface MediaRow {
  store: string;
  bytes: number;
  result: LoadResult;
  /** The mean of bare node:http answering the same number of bytes just before and after. */
  bare: number;
}

/**
 * Photos served by the runtime (issue 25): one approved demo thumbnail of spetter under load, from
 * the disk (MEDIA_DIR) and from a bucket (S3_*: the s3rver stand-in on this machine, so the figure
 * is the runtime's cost of streaming an object, not a network's), each beside bare node:http
 * answering the same number of bytes just before and after. SQLite: the store is what differs.
 */
export async function mediaSection(): Promise<MediaRow[]> {
  const s3 = await startS3StandIn();
  const bare = await startBare();
  const rows: MediaRow[] = [];
  try {
    for (const [store, env] of [['disk', {}], ['bucket (s3rver)', s3.env]] as const) {
      const rt = await startRuntime('sqlite', { members: MEMBERS, env });
      const db = openBenchDb('sqlite', rt.database);
      try {
        const photo = await db.db.selectFrom('photos').innerJoin('profiles', 'profiles.id', 'photos.profile_id').select('photos.thumb_filename').where('profiles.tenant_id', '=', 'spetter').where('photos.status', '=', 'active').orderBy('photos.id').executeTakeFirstOrThrow();
        const path = `/media/${photo.thumb_filename}`;
        const bytes = (await rt.get('spetter', path)).body.length;
        const before = await load(bare.url(bytes));
        const result = await load(`http://127.0.0.1:${rt.port}${path}`, { host: rt.host('spetter') });
        const after = await load(bare.url(bytes));
        rows.push({ store, bytes, result, bare: (before.rps + after.rps) / 2 });
      } finally {
        await db.close();
        await rt.close();
      }
    }
  } finally {
    await bare.close();
    await s3.close();
  }
  return rows;
}
