import { defineConfig, presetIcons, presetWind4, type Preset } from 'unocss';
import { trackedTheme } from '@unocss/preset-wind4/utils';
import { BREAKPOINTS } from './src/lib/theme.ts';
import { METHOD_LOGOS } from './src/lib/payment-methods.ts';

const px = (n: number) => `${n}px`;

/**
 * presetWind4 declares the theme variables a build uses in the order it first met them, which
 * differs from one build to the next (modules are transformed in parallel): equal sources then made
 * CSS of another hash, and server code naming another file. This preflight, in the theme layer just
 * before presetWind4's own, puts them in name order, so that equal sources build equal CSS and
 * brands of the same languages build the same program (docs/ONE-BUILD.md, step 1).
 */
const themeVariablesInOrder: Preset = {
  name: 'theme-variables-in-order',
  preflights: [
    {
      layer: 'theme',
      getCSS() {
        const names = [...trackedTheme].sort();
        trackedTheme.clear();
        for (const name of names) trackedTheme.add(name);
        return undefined;
      },
    },
  ],
};

/** Utility CSS; the tenant's colours come in as CSS variables (src/lib/theme.ts). */
export default defineConfig({
  // Classes named in data rather than markup.
  safelist: Object.values(METHOD_LOGOS).flatMap((logo) => (logo.icon ? [logo.icon] : [])),
  presets: [
    themeVariablesInOrder,
    presetWind4({ preflights: { reset: true } }),
    // Icons written in markup (class i-tabler-<name>) compile into the CSS; icons named in data
    // (interests, fictional_icon) are drawn from /icons/tabler/<name>.svg instead (src/islands/Glyph.tsx).
    presetIcons({
      collections: {
        tabler: () => import('@iconify-json/tabler/icons.json', { with: { type: 'json' } }).then((m) => m.default as never),
        // Payment method marks (src/lib/payment-methods.ts METHOD_LOGOS).
        'simple-icons': () => import('@iconify-json/simple-icons/icons.json', { with: { type: 'json' } }).then((m) => m.default as never),
      },
    }),
  ],
  theme: {
    breakpoint: { sm: px(BREAKPOINTS.sm), md: px(BREAKPOINTS.md), lg: px(BREAKPOINTS.lg), xl: px(BREAKPOINTS.xl) },
    colors: {
      primary: 'var(--c-primary)',
      secondary: 'var(--c-secondary)',
      success: 'var(--c-success)',
      info: 'var(--c-info)',
      warning: 'var(--c-warning)',
      danger: 'var(--c-danger)',
      unread: 'var(--c-unread)',
    },
  },
  shortcuts: {
    btn: 'inline-flex items-center justify-center gap-2 rounded-full px-5 py-2.5 font-semibold no-underline transition-colors cursor-pointer border-2 border-transparent focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:opacity-60 disabled:cursor-not-allowed',
    'btn-primary': 'btn bg-primary text-white hover:brightness-110',
    'btn-light': 'btn bg-white text-primary border-primary hover:bg-gray-50',
    card: 'rounded-2xl bg-white shadow-sm border border-gray-200',
    container: 'mx-auto w-full max-w-[1140px] px-4',
  },
});
