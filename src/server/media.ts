import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve, sep } from 'node:path';

/**
 * `/media/<tenant>/<hex>.webp` and `/media/<tenant>/<hex>-t.webp`: the photos the photo service
 * wrote. Nothing else is ever served from the folder, so no `..`, no encoded slash, no other
 * extension can reach a file outside it.
 */
const MEDIA_PATH = /^\/media\/([a-z0-9-]+)\/([a-f0-9]+(?:-t)?\.webp)$/;

/**
 * Serves one uploaded photo. Answers and returns true when the path names an existing photo
 * (GET or HEAD); returns false without touching `res` otherwise, so the caller answers 404.
 * File names are random and never reused, so browsers and CDNs may keep them for a year.
 */
export function serveMedia(req: IncomingMessage, res: ServerResponse, mediaDir: string, pathname: string): boolean {
  const method = (req.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return false;
  const match = MEDIA_PATH.exec(pathname);
  if (!match) return false;
  const root = resolve(mediaDir);
  const file = join(root, match[1] as string, match[2] as string);
  if (!file.startsWith(root + sep)) return false;
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return false;

  res.statusCode = 200;
  res.setHeader('Content-Type', 'image/webp');
  res.setHeader('Content-Length', String(stat.size));
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('Last-Modified', stat.mtime.toUTCString());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (method === 'HEAD') {
    res.end();
    return true;
  }
  const stream = createReadStream(file);
  stream.on('error', (err) => {
    // Deleted between stat and read: the status is promised already, so the connection is cut.
    console.error(`media ${pathname}:`, err);
    res.destroy(err);
  });
  stream.pipe(res);
  return true;
}
