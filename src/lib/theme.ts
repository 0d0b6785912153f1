/** Responsive breakpoints of SPEC §9, shared by UnoCSS and the layouts. */
export const BREAKPOINTS = { sm: 576, md: 768, lg: 992, xl: 1200 } as const;

export type ThemeColors = {
  primary: string;
  secondary: string;
  success: string;
  info: string;
  warning: string;
  danger: string;
  unread: string;
};

/**
 * The tenant's colours as CSS custom properties, for the style attribute of <html>: an attribute,
 * not a <style> element, so the page's hash-based CSP needs no hash for it (style-src-attr).
 * The unread accent equals secondary unless set (SPEC §9).
 */
export function themeVars(colors: ThemeColors): string {
  return Object.entries(colors)
    .map(([name, value]) => `--c-${name}:${value}`)
    .join(';');
}

/**
 * The brand's icon: a heart on its primary colour. Pages name it inline (no request); the runtime
 * also answers /favicon.ico with it for what asks there (pages of its own without a head link).
 */
export function brandIconSvg(primary: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${primary}"/>${HEART}</svg>`;
}

const HEART = '<path d="M16 25s-9-5.5-9-11.5A5 5 0 0 1 16 10a5 5 0 0 1 9 3.5C25 19.5 16 25 16 25z" fill="#fff"/>';

/**
 * The same icon for a launcher that cuts its own shape (a web app manifest's `maskable` icon):
 * the colour to every edge and the heart within the middle 60%, inside the safe zone a mask keeps.
 */
export function brandMaskableIconSvg(primary: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${primary}"/><g transform="translate(16 17.5) scale(0.75) translate(-16 -17.5)">${HEART}</g></svg>`;
}

/** The page background of every layout (Base.astro's body), also an installed app's splash colour. */
export const PAGE_BACKGROUND = '#f6f3f9';
