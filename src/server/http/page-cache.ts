import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { compressedCopies, writeWhole } from '../precompress.ts';

/**
 * Prerendered pages (home, landers, static pages) answered from memory: the HTML with its
 * brotli (quality 11) and gzip variants, read once per build and kept while used. A lander is the
 * first page most visitors see; reading and streaming its file on every request cost three
 * quarters of its time (bench/README.md).
 *
 * A page's variants are made on its first request when they are not beside it (a brand's output
 * no longer compresses its pages: brotli quality 11 was most of a brand's build, for pages most of
 * which no one opens, docs/ONE-BUILD.md), and written beside it for the next process.
 */
export interface CachedPage {
  raw: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  etag: string;
}

/**
 * Memory the page cache may hold in one process, all brands together (not shown in SPEC; our
 * choice): a brand's landers, home and static pages in its languages fit many times over, and the
 * least recently used pages of large brands give way first.
 */
export const PAGE_CACHE_BYTES = 48 * 1024 * 1024;

function readOptional(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** A page with its variants: those beside it, else made now and written beside it. */
async function readPage(file: string): Promise<CachedPage> {
  const raw = readFileSync(file);
  const etag = `"${createHash('sha1').update(raw).digest('base64url')}"`;
  const [br, gzip] = [readOptional(`${file}.br`), readOptional(`${file}.gz`)];
  if (br || gzip) return { raw, br, gzip, etag };
  const made = await compressedCopies(raw);
  // Only beside the page they were made of: a build put in place meanwhile has pages of its own.
  try {
    if (readFileSync(file).equals(raw)) {
      if (made.br) writeWhole(`${file}.br`, made.br);
      if (made.gzip) writeWhole(`${file}.gz`, made.gzip);
    }
  } catch {
    // The build was replaced or removed meanwhile: the copies serve from memory only.
  }
  return { raw, ...made, etag };
}

export function createPageCache(maxBytes = PAGE_CACHE_BYTES) {
  const pages = new LRUCache<string, CachedPage>({
    maxSize: maxBytes,
    sizeCalculation: (p) => p.raw.length + (p.br?.length ?? 0) + (p.gzip?.length ?? 0),
  });
  const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

  /** Pages being read (and compressed): every request for one waits on the same. */
  const reading = new Map<string, Promise<CachedPage>>();

  return {
    /** The page at `file` of the build stamped `stamp` (a rebuild has another stamp, so fresh pages). */
    async get(file: string, stamp: number): Promise<CachedPage> {
      const key = `${stamp}\u0000${file}`;
      const page = pages.get(key);
      if (page) return page;
      let read = reading.get(key);
      if (!read) {
        read = readPage(file)
          .then((fresh) => (pages.set(key, fresh), fresh))
          .finally(() => reading.delete(key));
        reading.set(key, read);
      }
      return read;
    },

    /**
     * Answers with the page: 304 when the browser has it, else the best encoding it accepts. A
     * page for members only (a member shell) is `private`: no shared cache hands it to a visitor.
     */
    send(request: FastifyRequest, reply: FastifyReply, page: CachedPage, options: { private?: boolean } = {}) {
      reply.header('cache-control', options.private ? 'private, no-cache' : 'no-cache').header('etag', page.etag).header('vary', 'accept-encoding').type('text/html; charset=utf-8');
      if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
      const encoding = encodings.negotiate(request.headers['accept-encoding'] ?? '');
      if (encoding === 'br' && page.br) return reply.header('content-encoding', 'br').send(page.br);
      if (encoding === 'gzip' && page.gzip) return reply.header('content-encoding', 'gzip').send(page.gzip);
      return reply.send(page.raw);
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
