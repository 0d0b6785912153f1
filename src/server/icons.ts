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
const svgs = new Map<string, string | null>();

/** The set (2 MB of JSON) is read at the first icon asked for, not at start. */
function tabler(): IconifyJSON {
  set ??= JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@iconify-json/tabler/icons.json'), 'utf8')) as IconifyJSON;
  return set;
}

export function iconEtag(): string {
  return `"tabler-${tabler().lastModified ?? 0}"`;
}

/** The SVG text of a Tabler icon, or undefined for a name the set lacks. */
export function tablerSvg(name: string): string | undefined {
  let svg = svgs.get(name);
  if (svg === undefined) {
    const data = getIconData(tabler(), name);
    if (data) {
      const { attributes, body } = iconToSVG(data);
      svg = iconToHTML(body, { viewBox: attributes.viewBox });
    } else svg = null;
    svgs.set(name, svg);
  }
  return svg ?? undefined;
}
