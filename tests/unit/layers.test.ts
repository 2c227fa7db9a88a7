// The folders of src/ are layers, and every import points down (docs/architecture.md draws them).
// A folder-level cycle ties every layer to every other, so nothing can be read, tested or replaced
// alone; this test fails on a cycle and on any import that climbs the declared order. Inside a folder,
// two files that import each other are one file in two places, so file-level cycles fail too.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** Bottom to top. A folder may import itself and any folder before it. */
const LAYERS = [
  'primitives', // seeded random numbers, the WebGPU device, typed JSON: no project imports
  'model', // the reference transformer, tokenizer, checkpoints, ONNX graph builders
  'gpu', // WGSL kernels and their small dispatch API
  'engine', // the policy-engine contract and its backends: cpu/ (onnxruntime-web), webgpu/, onnx/ sessions
  'tasks', // the task suite, metrics, grading
  'sandbox-pyodide', // the hardened Pyodide pool and the toolkit programs
  'wmrl', // the method: anchors, calibration, advantages, fusion, one step's scoring
  'training', // the trainer loop over its ports, evaluation (avg@k), compute accounting, presets
  'embodied', // the robot domain: tabletop scenes, tasks, renderer, scripted expert, dense shaping
  'pipeline', // the models pipeline (SFT, samples, world model)
  'workers', // web workers and their clients
  'experiments', // experiment results, intervals, tables
  'app', // the page's wiring of trainer, workers and models
  'ui', // Svelte views
  'cli', // command-line tools
  // Last, so that no product folder can import it: pages and checks that exist only for tests.
  'harness',
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

/** File-level import edges of src/, by path under src/ (type-only imports included: they tie the files too). */
function fileEdges(files: { path: string; text: string }[]): { from: string; to: string }[] {
  const pattern = /(?:from\s+|import\s*\(\s*|import\s+|new URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  return files.flatMap(({ path, text }) =>
    [...text.matchAll(pattern)]
      .map((m) => resolve(dirname(path), m[1]))
      .filter((t) => t.startsWith(SRC + '/'))
      .map((t) => ({ from: relative(SRC, path), to: relative(SRC, /\.\w+$/.test(t) ? t : t + '.ts') })));
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

  it('no file-level import cycle', () => {
    expect(findCycle(fileEdges(files))).toBeNull();
  });

  it('nothing outside src/harness imports it, the entry file and the pages included', () => {
    const harness = join(SRC, 'harness') + '/';
    const intoHarness = (fs: { path: string; text: string }[]): string[] =>
      fs.filter((f) => !f.path.startsWith(harness)).flatMap((f) =>
        [...f.text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+|new URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)]
          .filter((m) => resolve(dirname(f.path), m[1]).startsWith(harness))
          .map((m) => `${relative(SRC, f.path)} imports ${m[1]}`));
    const pages = readdirSync(resolve(SRC, '..')).filter((n) => n.endsWith('.html') && n !== 'app-harness.html');
    const pageScripts = pages.flatMap((n) => [...readFileSync(resolve(SRC, '..', n), 'utf8').matchAll(/src="\/(src\/[^"]+)"/g)].map((m) => `${n}: ${m[1]}`));
    expect(intoHarness(files)).toEqual([]);
    expect(pageScripts.filter((p) => p.includes('src/harness/'))).toEqual([]);
    // The check sees a planted import from the top-level entry file.
    expect(intoHarness([{ path: join(SRC, 'main.ts'), text: "import './harness/app-e2e-entry.ts';" }])).toHaveLength(1);
  });

  it('the checks see a planted cycle and a planted upward import', () => {
    const planted = [...files, { path: join(SRC, 'model/planted.ts'), text: "import { x } from '../workers/policy-client.ts';" }];
    const e = importEdges(planted);
    expect(findCycle(e)).not.toBeNull();
    expect(e.some((x) => x.from === 'model' && x.to === 'workers')).toBe(true);
    const pair = [
      { path: join(SRC, 'training/planted-a.ts'), text: "import type { B } from './planted-b.ts';" },
      { path: join(SRC, 'training/planted-b.ts'), text: "import { a } from './planted-a.ts';" },
    ];
    expect(findCycle(fileEdges([...files, ...pair]))).toEqual(['training/planted-a.ts', 'training/planted-b.ts', 'training/planted-a.ts']);
    expect(findCycle([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }])).toBeNull();
    expect(findCycle([{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }])).toEqual(['a', 'b', 'a']);
  });
});
