import { defineConfig, presetIcons, presetWind4 } from 'unocss';
import { BREAKPOINTS } from '../src/lib/theme.ts';
import { NAV } from './src/lib/nav.ts';

const px = (n: number) => `${n}px`;

/** The console's utility CSS: the brands' breakpoints, a neutral palette (no brand's colours), tabler icons. */
export default defineConfig({
  presets: [
    presetWind4({ preflights: { reset: true } }),
    presetIcons({ collections: { tabler: () => import('@iconify-json/tabler/icons.json', { with: { type: 'json' } }).then((m) => m.default as never) } }),
  ],
  // The navigation's icons are named in a .ts file, which UnoCSS does not scan: listed here.
  safelist: NAV.map((entry) => entry.icon),
  theme: {
    breakpoint: { sm: px(BREAKPOINTS.sm), md: px(BREAKPOINTS.md), lg: px(BREAKPOINTS.lg), xl: px(BREAKPOINTS.xl) },
  },
  shortcuts: {
    btn: 'inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-semibold cursor-pointer border border-transparent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60 disabled:cursor-not-allowed',
    'btn-primary': 'btn bg-indigo-700 text-white hover:bg-indigo-800',
    'btn-light': 'btn bg-white text-slate-800 border-slate-300 hover:bg-slate-50',
    'btn-danger': 'btn bg-red-700 text-white hover:bg-red-800',
    field: 'block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm focus:outline-2 focus:outline-indigo-600',
    label: 'block text-xs font-semibold text-slate-600 mb-1',
    panel: 'rounded-lg bg-white border border-slate-200',
    'data-table': 'w-full text-sm border-collapse',
  },
});
