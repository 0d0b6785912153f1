import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';

/**
 * Tokens of the form `id.secret` for sessions and mail links: the id finds the row, only the
 * SHA-256 of the secret is stored, so a copy of the database opens no session or link.
 */
export function newToken(): { id: string; secret: string; value: string; hash: string } {
  const id = encodeBase32LowerCaseNoPadding(randomBytes(10));
  const secret = encodeBase32LowerCaseNoPadding(randomBytes(20));
  return { id, secret, value: `${id}.${secret}`, hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Splits `id.secret`; null for anything else. */
export function parseToken(value: unknown): { id: string; secret: string } | null {
  if (typeof value !== 'string' || value.length > 200) return null;
  const m = /^([a-z2-7]{8,40})\.([a-z2-7]{16,80})$/.exec(value);
  return m ? { id: m[1]!, secret: m[2]! } : null;
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
