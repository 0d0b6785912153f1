import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getIconData, iconToHTML, iconToSVG } from '@iconify/utils';
import type { IconifyJSON } from '@iconify/types';

/**
 * GET /icons/tabler/<name>.svg: one icon of the Tabler set as an SVG file. Icons named in data
 * (the 50 interests, a brand's fictional_icon) are drawn from these files as CSS masks
 * (src/islands/Glyph.tsx), so a page loads only the ones it shows; the icons named in markup are
 * compiled into the CSS by UnoCSS instead.
 */
export { ICON_PATH } from '../lib/icons.ts';

/** A week of caching, then revalidated by an ETag naming the set's release. */
export const ICON_CACHE = 'public, max-age=604800';

let set: IconifyJSON | undefined;
/** Drawn icons by name; only names the set has, so made-up names cannot grow it. */
const svgs = new Map<string, string>();

/** The set (2 MB of JSON) is read at the first icon asked for, not at start. */
function tabler(): IconifyJSON {
  set ??= JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@iconify-json/tabler/icons.json'), 'utf8')) as IconifyJSON;
  return set;
}

/** Weak: the compression middleware may send the same icon gzipped under this tag. */
export function iconEtag(): string {
  return `W/"tabler-${tabler().lastModified ?? 0}"`;
}

/** The SVG text of a Tabler icon, or undefined for a name the set lacks. */
export function tablerSvg(name: string): string | undefined {
  const cached = svgs.get(name);
  if (cached) return cached;
  const icons = tabler();
  // Own names only: 'constructor' and friends live on every object's prototype.
  if (!Object.hasOwn(icons.icons, name) && !Object.hasOwn(icons.aliases ?? {}, name)) return undefined;
  const data = getIconData(icons, name);
  if (!data) return undefined;
  const { attributes, body } = iconToSVG(data);
  const svg = iconToHTML(body, { viewBox: attributes.viewBox });
  svgs.set(name, svg);
  return svg;
}
