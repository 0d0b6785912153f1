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

/** The tenant's colours as CSS custom properties on :root; the unread accent equals secondary unless set (SPEC §9). */
export function themeCss(colors: ThemeColors): string {
  const lines = Object.entries(colors).map(([name, value]) => `--c-${name}:${value};`);
  return `:root{${lines.join('')}}`;
}
