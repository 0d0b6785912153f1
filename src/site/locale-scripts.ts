import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALE_SCRIPTS_FILE as FILE, hasLocaleScripts, localeHtml, localePolicy, type LocaleScripts } from '../lib/locale-scripts.ts';

/**
 * The program's map from its all-languages client to each locale's: in its server folder, the
 * folder of `entry.mjs` at or above this chunk. Undefined in `astro dev` and in a build without
 * per-locale clients: pages then name the all-languages client, which works in every locale.
 */
function findMap(): LocaleScripts | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, FILE))) return JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as LocaleScripts;
    if (existsSync(join(dir, 'entry.mjs')) || existsSync(join(dir, 'package.json'))) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

const map = findMap();

/**
 * A page answered in a locale, naming the island scripts of that locale's client (and the CSP
 * hashes of its inline scripts) when the program has one; any other answer as it is.
 */
export async function withLocaleScripts(response: Response, locale: string | undefined): Promise<Response> {
  if (!locale || !hasLocaleScripts(map, locale) || !response.headers.get('content-type')?.startsWith('text/html')) return response;
  const html = localeHtml(map!, locale, await response.text());
  const headers = new Headers(response.headers);
  const policy = headers.get('content-security-policy');
  if (policy) headers.set('content-security-policy', localePolicy(map!, locale, policy));
  headers.delete('content-length');
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}
