/**
 * `/media/<tenant>/<hex>.webp` and `/media/<tenant>/<hex>-t.webp`: the photos the photo service
 * wrote. Nothing else is ever served from the folder, so no `..`, no encoded slash, no other
 * extension can reach a file outside it.
 */
export const MEDIA_PATH = /^\/media\/([a-z0-9-]+)\/([a-f0-9]+(?:-t)?\.webp)$/;
