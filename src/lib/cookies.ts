/** The value of one cookie in a Cookie header (or document.cookie), or null. */
export function readCookie(header: string | null | undefined, name: string): string | null {
  return readCookies(header, [name])[name] ?? null;
}

/**
 * The values of some cookies of a Cookie header, read in one pass: the first cookie of each name
 * (as readCookie reads it), null when absent or undecodable.
 */
export function readCookies<N extends string>(header: string | null | undefined, names: readonly N[]): Record<N, string | null> {
  const found = Object.fromEntries(names.map((name) => [name, null])) as Record<N, string | null>;
  if (!header) return found;
  const seen = new Set<string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (seen.has(name) || !(names as readonly string[]).includes(name)) continue;
    seen.add(name);
    try {
      found[name as N] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // An undecodable value reads as none.
    }
  }
  return found;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Lax' | 'Strict' | 'None';
  path?: string;
}

/** A Set-Cookie header value. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path ?? '/'}`];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAgeSeconds)}`);
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push(`SameSite=${options.sameSite ?? 'Lax'}`);
  return parts.join('; ');
}
