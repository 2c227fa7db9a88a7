// In the page: mount the Train view's six charts with series of `steps` points and time what a
// live run and a reader cost: the first render, one more step appended to every series (the
// view derives new arrays each step), and a hover readout. Each time is measured from the change
// to the end of the style and layout it causes (flushSync, then a forced layout), and also to the
// next painted frame (two animation frames; quantised to the display's frame interval).
import { flushSync, mount, unmount, type ComponentProps } from 'svelte';
import type XYChart from '../../src/ui/charts/XYChart.svelte';
import { PALETTE } from '../../src/ui/charts/palette.ts';
import { mulberry32 } from '../../src/primitives/random.ts';
import Charts from './Charts.svelte';

// The series type through the component's props: plain tsc sees a .svelte file's default export only.
type XYSeries = ComponentProps<typeof XYChart>['series'][number];
type Kind = XYSeries['kind'];
// series per chart, as in src/ui/train/Train.svelte (rewards, fusion, error, calibration, cost, health)
const SHAPES: { kinds: Kind[]; sparse?: number[] }[] = [
  { kinds: ['line', 'scatter', 'line'], sparse: [1] },
  { kinds: ['line', 'line', 'line'] },
  { kinds: ['line', 'scatter'], sparse: [1] },
  { kinds: ['line', 'line'] },
  { kinds: ['line', 'line', 'line', 'line', 'line', 'line', 'line'] },
  { kinds: ['line', 'line'] },
];
const COLORS = Object.values(PALETTE);

function chartsOf(steps: number, seed: number): XYSeries[][] {
  const rng = mulberry32(seed);
  return SHAPES.map((shape) =>
    shape.kinds.map((kind, i) => {
      const points: [number, number][] = [];
      let v = rng();
      // anchors are about 1 step in 10: the scatter series are that sparse
      for (let s = 0; s < steps; s++) {
        v = Math.min(1, Math.max(0, v + (rng() - 0.5) * 0.1));
        if (!shape.sparse?.includes(i) || s % 10 === 0) points.push([s, v]);
      }
      return { label: `series ${i}`, points, color: COLORS[i % COLORS.length], kind: kind === 'line' ? undefined : kind, size: kind === 'scatter' ? 4 : undefined };
    }),
  );
}

const frame = () => new Promise<void>((ok) => requestAnimationFrame(() => ok()));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface ChartBenchRow {
  steps: number;
  pathPoints: number;
  mountMs: number;
  mountFrameMs: number;
  stepMs: number;
  stepFrameMs: number;
  hoverMs: number;
}

async function timed(change: () => void): Promise<[number, number]> {
  const t0 = performance.now();
  change();
  flushSync();
  void document.body.offsetHeight; // style and layout now
  const t1 = performance.now();
  await frame();
  await frame();
  return [t1 - t0, performance.now() - t0];
}

async function measure(steps: number, trials: number): Promise<ChartBenchRow> {
  const target = document.getElementById('charts')!;
  const mountMs: number[] = [];
  const mountFrameMs: number[] = [];
  const stepMs: number[] = [];
  const stepFrameMs: number[] = [];
  const hoverMs: number[] = [];
  let pathPoints = 0;
  for (let t = 0; t < trials; t++) {
    // raw, as the Train view's records are: its series are plain arrays, not deep proxies
    let charts = $state.raw<XYSeries[][]>([]);
    const props = {
      get charts() {
        return charts;
      },
    };
    const first = chartsOf(steps, t + 1);
    pathPoints = first.flat().reduce((a, s) => a + s.points.length, 0);
    let app: ReturnType<typeof mount> | null = null;
    const [m, mf] = await timed(() => {
      charts = first;
      app = mount(Charts, { target, props });
    });
    mountMs.push(m);
    mountFrameMs.push(mf);
    const next = chartsOf(steps + 1, t + 1);
    const [s, sf] = await timed(() => (charts = next));
    stepMs.push(s);
    stepFrameMs.push(sf);
    const svg = target.querySelector('[data-testid=chart-4] svg')!;
    const r = svg.getBoundingClientRect();
    for (const fx of [0.3, 0.5, 0.7]) {
      const [h] = await timed(() => svg.dispatchEvent(new PointerEvent('pointermove', { clientX: r.left + r.width * fx, clientY: r.top + r.height * 0.4, bubbles: true })));
      hoverMs.push(h);
    }
    unmount(app!);
  }
  return { steps, pathPoints, mountMs: median(mountMs), mountFrameMs: median(mountFrameMs), stepMs: median(stepMs), stepFrameMs: median(stepFrameMs), hoverMs: median(hoverMs) };
}

declare global {
  interface Window {
    chartBench: { run(stepCounts: number[], trials: number): Promise<ChartBenchRow[]> };
  }
}

window.chartBench = {
  async run(stepCounts, trials) {
    const rows: ChartBenchRow[] = [];
    for (const n of stepCounts) rows.push(await measure(n, trials));
    return rows;
  },
};
document.title = 'chart bench ready';
