// The folders of src/ are layers, and every import points down (docs/architecture.md draws them).
// A folder-level cycle ties every layer to every other, so nothing can be read, tested or replaced
// alone; this test fails on a cycle and on any import that climbs the declared order.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** Bottom to top. A folder may import itself and any folder before it. */
const LAYERS = [
  'primitives', // seeded random numbers, the WebGPU device: no project imports
  'model', // the reference transformer, tokenizer, checkpoints, ONNX export
  'tasks', // the task suite, metrics, grading
  'sandbox-pyodide', // the hardened Pyodide pool and the toolkit programs
  'wmrl', // the method: anchors, calibration, advantages, fusion, one step's scoring
  'training', // the trainer loop over its ports, evaluation (avg@k), compute accounting, presets
  'engine', // the CPU policy engine (onnxruntime-web) behind the trainer's ports
  'gpu', // WGSL kernels and the WebGPU policy engine
  'embodied', // the robot domain: tabletop scenes, tasks, renderer, scripted expert, dense shaping
  'pipeline', // the models pipeline (SFT, samples, world model)
  'workers', // web workers and their clients
  'experiments', // experiment results, intervals, tables
  'app', // the page's wiring of trainer, workers and models
  'harness', // pages and checks that exist for tests
  'ui', // Svelte views
  'cli', // command-line tools
] as const;

/** Folder-level import edges of src/ (static and dynamic imports, and worker URLs). */
function importEdges(files: { path: string; text: string }[]): { from: string; to: string; where: string }[] {
  const top = (p: string): string => relative(SRC, p).split('/')[0];
  const edges: { from: string; to: string; where: string }[] = [];
  const pattern = /(?:from\s+|import\s*\(\s*|import\s+|new URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const { path, text } of files) {
    for (const m of text.matchAll(pattern)) {
      const target = resolve(dirname(path), m[1]);
      if (!target.startsWith(SRC + '/')) continue;
      const [a, b] = [top(path), top(target)];
      if (a !== b && !a.includes('.') && !b.includes('.')) edges.push({ from: a, to: b, where: `${relative(SRC, path)} imports ${m[1]}` });
    }
  }
  return edges;
}

/** One folder-level cycle, as a path of folders, or null. */
function findCycle(edges: { from: string; to: string }[]): string[] | null {
  const next = new Map<string, Set<string>>();
  for (const e of edges) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | null => {
    if (state.get(n) === 'open') return [...stack.slice(stack.indexOf(n)), n];
    if (state.get(n) === 'done') return null;
    state.set(n, 'open');
    stack.push(n);
    for (const m of next.get(n) ?? []) {
      const c = visit(m);
      if (c) return c;
    }
    stack.pop();
    state.set(n, 'done');
    return null;
  };
  for (const n of next.keys()) {
    const c = visit(n);
    if (c) return c;
  }
  return null;
}

function sourceFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|svelte)$/.test(name) ? [{ path: p, text: readFileSync(p, 'utf8') }] : [];
  });
}

describe('layers of src/', () => {
  const files = sourceFiles(SRC);
  const edges = importEdges(files);

  it('every top-level folder is a declared layer', () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect(folders.filter((f) => !(LAYERS as readonly string[]).includes(f))).toEqual([]);
  });

  it('no import climbs the layer order', () => {
    const rank = new Map<string, number>(LAYERS.map((l, i) => [l, i]));
    const upward = edges.filter((e) => rank.get(e.to)! > rank.get(e.from)!).map((e) => e.where);
    expect(upward).toEqual([]);
  });

  it('no folder-level import cycle', () => {
    expect(findCycle(edges)).toBeNull();
  });

  it('the checks see a planted cycle and a planted upward import', () => {
    const planted = [...files, { path: join(SRC, 'model/planted.ts'), text: "import { x } from '../workers/policy-client.ts';" }];
    const e = importEdges(planted);
    expect(findCycle(e)).not.toBeNull();
    expect(e.some((x) => x.from === 'model' && x.to === 'workers')).toBe(true);
    expect(findCycle([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }])).toBeNull();
    expect(findCycle([{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }])).toEqual(['a', 'b', 'a']);
  });
});
