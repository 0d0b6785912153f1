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
