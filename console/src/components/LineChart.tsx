/**
 * A line chart of a few series over the periods of a table (uPlot: about 20 KB brotli, canvas, no
 * dependencies; the lightest of uPlot, Chart.js and ECharts). Loaded only by the islands that draw
 * one, after hydration; the table beneath every chart holds the same figures, so the canvas is an
 * image with a label for a screen reader.
 */
import { useEffect, useRef } from 'react';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  values: number[];
}

const COLOURS = ['#4f46e5', '#059669', '#d97706', '#dc2626', '#0891b2', '#7c3aed'];

export default function LineChart({ periods, series, label, xLabel, height = 240 }: { periods: string[]; series: Series[]; label: string; /** What the x axis counts (the legend's first entry). */ xLabel: string; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null = null;
    let gone = false;
    const resize = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height }));
    void import('uplot').then(({ default: UPlot }) => {
      if (gone) return;
      // uPlot's x axis is numbers: the period's index, labelled with the period itself.
      const xs = periods.map((_, i) => i);
      chart = new UPlot(
        {
          width: element.clientWidth,
          height,
          series: [{ label: xLabel, value: (_u: unknown, i: number | null) => (i === null ? '–' : (periods[i] ?? '')) }, ...series.map((s, i) => ({ label: s.label, stroke: COLOURS[i % COLOURS.length], width: 2 }))],
          axes: [{ values: (_u: unknown, ticks: number[]) => ticks.map((t) => periods[t] ?? '') }, {}],
          scales: { x: { time: false } },
        },
        [xs, ...series.map((s) => s.values)],
        element,
      );
      resize.observe(element);
    });
    return () => {
      gone = true;
      resize.disconnect();
      chart?.destroy();
    };
  }, [periods, series, xLabel, height]);
  return <div ref={box} role="img" aria-label={label} data-testid="chart" className="w-full overflow-hidden" />;
}
