import { createReadStream } from 'node:fs';
import { mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where members' photos live (DESIGN §8): files under MEDIA_DIR on one machine (the default), or
 * objects in an S3-compatible bucket that every machine shares (AWS S3, Cloudflare R2, MinIO,
 * Garage). Names are the stored names of `photos.filename` and `messages.media`
 * (`<tenant>/<hex>.webp`, `…-t.webp`): random, never reused, never overwritten.
 */
export interface MediaStore {
  /** 'disk' or 's3'. */
  readonly kind: 'disk' | 's3';
  /** The folder of a disk store: the serving route sends its files with @fastify/static (ranges, ETags). */
  readonly root?: string;
  /** Stores a new file; a name that exists already is an error (names are never reused). */
  put(name: string, bytes: Buffer): Promise<void>;
  /** A stored file whole, or null when there is none. */
  get(name: string): Promise<Buffer | null>;
  /** A stored file to send, with what HTTP caching needs; null when there is none. */
  stream(name: string): Promise<MediaFile | null>;
  /** Removes files, and their public copies; one already gone is fine. */
  delete(names: string[]): Promise<void>;
  /**
   * Puts a copy of stored files at the storage's public address, `media/<name>` (PUBLIC_PREFIX),
   * the same path as the runtime's `/media/<name>`: an approved profile photo under a brand's
   * cdn_prefix (media-address.ts). A disk store has no public address: nothing to do.
   */
  publish(names: string[]): Promise<void>;
  /** Takes files' public copies away (a photo rejected or removed); one not there is fine. */
  unpublish(names: string[]): Promise<void>;
}

/**
 * Where the public copies of approved photos are in a bucket: `media/<tenant>/<hex>.webp`. The
 * bucket allows anonymous reads of this prefix only (README "Many processes"); everything else,
 * photos waiting for screening among them, stays private.
 */
export const PUBLIC_PREFIX = 'media/';

export interface MediaFile {
  body: Readable;
  size: number;
  /** A strong validator of the bytes (quoted). */
  etag: string;
  lastModified: Date;
}

/** The photos of one machine: files under `root`, one folder per tenant. */
export function diskMedia(root: string): MediaStore {
  return {
    kind: 'disk',
    root,
    async put(name, bytes) {
      const path = join(root, name);
      await mkdir(dirname(path), { recursive: true });
      // 'wx' never overwrites.
      await writeFile(path, bytes, { flag: 'wx' });
    },
    async get(name) {
      return readFile(join(root, name)).catch(notFoundIsNull);
    },
    async stream(name) {
      const path = join(root, name);
      const info = await stat(path).catch(notFoundIsNull);
      if (!info) return null;
      return { body: createReadStream(path), size: info.size, etag: `"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`, lastModified: info.mtime };
    },
    async delete(names) {
      await Promise.all(names.map((n) => unlink(join(root, n)).catch(notFoundIsNull)));
    },
    async publish() {},
    async unpublish() {},
  };
}

const notFoundIsNull = (error: NodeJS.ErrnoException): null => {
  if (error.code === 'ENOENT') return null;
  throw error;
};

/** S3_* of the environment (README "Many processes"); config.ts reads and checks them. */
export interface S3Settings {
  bucket: string;
  /** The service's address (MinIO, R2, Garage); AWS's own when left out. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, Garage, s3rver). */
  forcePathStyle: boolean;
}

/**
 * The store the configuration names: the bucket of S3_* when set (media-s3.ts, the AWS SDK loaded
 * only then: the CLI starts without it), else the disk under MEDIA_DIR.
 */
export async function mediaStoreOf(config: { s3: S3Settings | null; mediaDir: string }): Promise<MediaStore> {
  return config.s3 ? (await import('./media-s3.ts')).s3Media(config.s3) : diskMedia(config.mediaDir);
}
