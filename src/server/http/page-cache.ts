import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Prerendered pages (home, landers, static pages) answered from memory: the HTML with the
 * brotli (quality 11) and gzip variants the build wrote beside it, read once per build and kept
 * while used. A lander is the first page most visitors see; reading and streaming its file on
 * every request cost three quarters of its time (bench/README.md).
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

export function createPageCache(maxBytes = PAGE_CACHE_BYTES) {
  const pages = new LRUCache<string, CachedPage>({
    maxSize: maxBytes,
    sizeCalculation: (p) => p.raw.length + (p.br?.length ?? 0) + (p.gzip?.length ?? 0),
  });
  const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

  return {
    /** The page at `file` of the build stamped `stamp` (a rebuild has another stamp, so fresh pages). */
    get(file: string, stamp: number): CachedPage {
      const key = `${stamp}\u0000${file}`;
      let page = pages.get(key);
      if (!page) {
        const raw = readFileSync(file);
        page = { raw, br: readOptional(`${file}.br`), gzip: readOptional(`${file}.gz`), etag: `"${createHash('sha1').update(raw).digest('base64url')}"` };
        pages.set(key, page);
      }
      return page;
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
