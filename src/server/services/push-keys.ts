import { existsSync, readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import webpush from 'web-push';
import type { Database } from '../db/index.ts';

/** The web-push key pair (RFC 8292), as web-push makes and reads it: base64url P-256 keys. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The name of the key pair in `site_secrets`. */
const VAPID = 'vapid';

/** The key pair every process signs pushes with, from the database; null until one is made. */
export async function storedVapidKeys(db: Kysely<Database>): Promise<VapidKeys | null> {
  const row = await db.selectFrom('site_secrets').select('value').where('name', '=', VAPID).executeTakeFirst();
  return row ? (JSON.parse(row.value) as VapidKeys) : null;
}

/**
 * The database's key pair, made when there is none: the pair of `legacyFile` (data/vapid.json of
 * a runtime from before issue 25, so subscriptions made with it keep working) when present, else a
 * new one. Race-safe across processes and machines: each offers its pair, the first insert wins,
 * every process reads back the one that won.
 */
export async function ensureVapidKeys(db: Kysely<Database>, legacyFile?: string): Promise<{ keys: VapidKeys; created: boolean }> {
  const stored = await storedVapidKeys(db);
  if (stored) return { keys: stored, created: false };
  const legacy = legacyFile && existsSync(legacyFile) ? (JSON.parse(readFileSync(legacyFile, 'utf8')) as VapidKeys) : null;
  const offered = legacy ? { publicKey: legacy.publicKey, privateKey: legacy.privateKey } : webpush.generateVAPIDKeys();
  const inserted = await db
    .insertInto('site_secrets')
    .values({ name: VAPID, value: JSON.stringify(offered) })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  const keys = (await storedVapidKeys(db))!;
  return { keys, created: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
}

/** Replaces the database's key pair (`sitegen keys --force`): subscriptions made with the old one stop receiving pushes. */
export async function replaceVapidKeys(db: Kysely<Database>): Promise<VapidKeys> {
  const keys = webpush.generateVAPIDKeys();
  await db
    .insertInto('site_secrets')
    .values({ name: VAPID, value: JSON.stringify(keys) })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: JSON.stringify(keys) }))
    .execute();
  return keys;
}
