import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import type { S3Settings } from '../../src/server/media-store.ts';

/** s3rver's fixed credentials: it checks signatures made with them (its README). */
const KEY = 'S3RVER';

export interface S3StandIn {
  /** The settings a runtime is configured with (as S3_* would give them), for one fresh bucket. */
  settings: S3Settings;
  /** S3_* of the environment for a `sitegen serve` process. */
  env: Record<string, string>;
  /** Stops it (a test may stop it early: the service out of reach); once. */
  close(): Promise<void>;
}

/**
 * A local stand-in for an S3-compatible service (s3rver: the S3 REST API over files in a
 * temporary folder), on a free port of the loopback address, with one empty bucket; as payments
 * run against the Mollie stand-in, photos in a bucket are tested without the internet.
 */
export async function startS3StandIn(): Promise<S3StandIn> {
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-s3-'));
  const bucket = `photos-${randomBytes(4).toString('hex')}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  let closed = false;
  const settings: S3Settings = { bucket, endpoint, region: 'us-east-1', accessKeyId: KEY, secretAccessKey: KEY, forcePathStyle: true };
  return {
    settings,
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: KEY, S3_SECRET_ACCESS_KEY: KEY, S3_FORCE_PATH_STYLE: 'true' },
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
