import type { Readable } from 'node:stream';
import { CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { unavailable } from './errors.ts';
import { isDatabaseUnavailable } from './http/failures.ts';
import { PUBLIC_PREFIX, type MediaStore, type S3Settings } from './media-store.ts';

/** How long browsers and CDNs keep a public copy: as the runtime's /media/ answers an approved photo (names are never reused). */
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';

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
      await remove([...names, ...names.map((n) => PUBLIC_PREFIX + n)]);
    },
    async publish(names) {
      // A copy inside the bucket: the bytes never pass through the runtime.
      for (const name of names) {
        await client
          .send(new CopyObjectCommand({ Bucket, Key: PUBLIC_PREFIX + name, CopySource: `${Bucket}/${name}`, MetadataDirective: 'REPLACE', ContentType: 'image/webp', CacheControl: PUBLIC_CACHE }))
          .catch(failed);
      }
    },
    async unpublish(names) {
      await remove(names.map((n) => PUBLIC_PREFIX + n));
    },
  };
  async function remove(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } })).catch(failed);
  }
}
