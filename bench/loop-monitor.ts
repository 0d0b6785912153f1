/**
 * Preloaded into the runtime the bench starts (`node --import bench/loop-monitor.ts`): measures
 * the event loop's delay (perf_hooks monitorEventLoopDelay) and, on SIGUSR2, writes what it saw
 * since the last signal to BENCH_LOOP_FILE as JSON ({p50, p99, max} in ms), then starts over.
 * Nothing of the product knows about it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
    // Written aside and renamed, so the bench never reads half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), at: Date.now() }));
    renameSync(`${file}.tmp`, file);
    histogram.reset();
  });
}
