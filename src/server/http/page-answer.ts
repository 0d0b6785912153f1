import { PassThrough } from 'node:stream';
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';

/**
 * The answer Astro's Node handler writes for a server-rendered page, taken as a stream that
 * Fastify sends like every other answer (so @fastify/compress is the one compressor, and the
 * reply's hooks and headers apply). It offers the part of a `ServerResponse` the handler writes
 * with: `statusCode`, `writeHead`, `setHeader`, `write`, `end`, `headersSent`, `req`, `destroy`.
 * `head` settles once the status and headers are known (the first write or the end).
 */
export class PageAnswer extends PassThrough {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  #wrote = false;
  readonly headers: OutgoingHttpHeaders = {};
  readonly head: Promise<void>;
  #ready!: () => void;

  readonly req: IncomingMessage;

  constructor(req: IncomingMessage) {
    super();
    this.req = req;
    this.head = new Promise((resolve) => (this.#ready = resolve));
  }

  setHeader(name: string, value: OutgoingHttpHeader): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): OutgoingHttpHeader | undefined {
    return this.headers[name.toLowerCase()];
  }

  removeHeader(name: string): void {
    delete this.headers[name.toLowerCase()];
  }

  writeHead(status: number, message?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    this.statusCode = status;
    if (typeof message === 'string') this.statusMessage = message;
    else headers = message;
    if (Array.isArray(headers)) {
      // The raw form: name, value, name, value…
      for (let i = 0; i + 1 < headers.length; i += 2) this.#add(String(headers[i]), headers[i + 1]!);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) this.setHeader(name, value);
    }
    this.#commit();
    return this;
  }

  /** Ended without a byte of body (a redirect): an answer without a body. */
  get empty(): boolean {
    return this.writableEnded && !this.#wrote;
  }

  flushHeaders(): void {
    this.#commit();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the overloads of Writable.write
  override write(chunk: any, encoding?: any, callback?: any): boolean {
    if ((chunk as { length?: number }).length !== 0) this.#wrote = true;
    this.#commit();
    return super.write(chunk, encoding, callback);
  }

  override end(...args: unknown[]): this {
    if (args[0] !== undefined && typeof args[0] !== 'function' && (args[0] as { length?: number }).length !== 0) this.#wrote = true;
    this.#commit();
    return super.end(...(args as []));
  }

  #add(name: string, value: OutgoingHttpHeader): void {
    const key = name.toLowerCase();
    const known = this.headers[key];
    this.headers[key] = known === undefined ? value : [...(Array.isArray(known) ? known : [String(known)]), ...(Array.isArray(value) ? value : [String(value)])];
  }

  #commit(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    this.#ready();
  }
}
