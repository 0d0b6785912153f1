import { createReadStream } from 'node:fs';
import { mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { unavailable } from './errors.ts';
import { isDatabaseUnavailable } from './http/failures.ts';

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
  /** Removes files; one already gone is fine. */
  delete(names: string[]): Promise<void>;
}

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

/** The photos of every machine: objects of one bucket, keyed by their stored name. */
export function s3Media(settings: S3Settings): MediaStore & { client: S3Client; settings: S3Settings } {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    // Checksums only where the API requires them: the S3-compatible services (and s3rver) do not
    // all speak the SDK's default CRC32 trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  /** A missing object is null; the service out of reach or failing (5xx, throttled) is 503 for the request, as the database's. */
  const missing = (error: unknown): null => {
    if (error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)) return null;
    return failed(error);
  };
  const failed = (error: unknown): never => {
    const status = error instanceof S3ServiceException ? (error.$metadata.httpStatusCode ?? 0) : 0;
    if (status >= 500 || status === 429 || isDatabaseUnavailable(error)) throw unavailable();
    throw error;
  };
  return {
    kind: 's3',
    client,
    settings,
    async put(name, bytes) {
      // IfNoneMatch '*': never overwrites (where the service supports conditional writes).
      await client.send(new PutObjectCommand({ Bucket, Key: name, Body: bytes, ContentType: 'image/webp', IfNoneMatch: '*' })).catch(failed);
    },
    async get(name) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: name })).catch(missing);
      return object?.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
    },
    async stream(name) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: name })).catch(missing);
      if (!object?.Body) return null;
      return { body: object.Body as Readable, size: object.ContentLength ?? 0, etag: object.ETag ?? `"${name}"`, lastModified: object.LastModified ?? new Date(0) };
    },
    async delete(names) {
      if (names.length === 0) return;
      await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: names.map((Key) => ({ Key })), Quiet: true } })).catch(failed);
    },
  };
}

/** The store the configuration names: the bucket of S3_* when set, else the disk under MEDIA_DIR. */
export function mediaStoreOf(config: { s3: S3Settings | null; mediaDir: string }): MediaStore {
  return config.s3 ? s3Media(config.s3) : diskMedia(config.mediaDir);
}
