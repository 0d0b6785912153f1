/**
 * Icons of the interface come from the Tabler set (https://tabler.io/icons): they look the same
 * on every device, where emoji depend on the fonts a machine has. Icons written in markup are
 * UnoCSS classes (`i-tabler-lock`); icons named in data are ids, `tabler:<name>`, drawn from
 * /icons/tabler/<name>.svg (src/server/icons.ts). A brand may still set a plain text or emoji where
 * a setting takes an icon (fictional_icon); that is shown as it is.
 */
const NAME = '[a-z0-9]+(?:-[a-z0-9]+)*';
export const ICON_ID = new RegExp(`^tabler:${NAME}$`);
/** The path of an icon's SVG file; the group is the icon's name in the set. */
export const ICON_PATH = new RegExp(`^/icons/tabler/(${NAME})\\.svg$`);

export function isIconId(value: string): boolean {
  return ICON_ID.test(value);
}

/** Where the runtime serves an icon id's SVG: 'tabler:compass' → '/icons/tabler/compass.svg'. */
export function iconUrl(id: string): string {
  return `/icons/tabler/${id.slice('tabler:'.length)}.svg`;
}
