// Copies the runtime files that must be served as-is (not bundled) into public/vendor/:
// Pyodide imports `indexURL + 'pyodide.asm.mjs'` at run time, and onnxruntime-web fetches its
// .wasm/.mjs from `ort.env.wasm.wasmPaths`. Both come from node_modules, so the copy is derived
// (git-ignored) and refreshed whenever the pinned versions change.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meterWasm } from './wasm-meter.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const meterSource = join(root, 'scripts/wasm-meter.mjs');

const groups = [
  {
    from: 'node_modules/pyodide',
    to: 'public/vendor/pyodide',
    files: ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'],
    // The sandbox's interpreter carries a work meter (scripts/wasm-meter.mjs; docs/sandbox.md).
    transform: { 'pyodide.asm.wasm': meterWasm },
  },
  {
    from: 'node_modules/onnxruntime-web/dist',
    to: 'public/vendor/ort',
    files: [
      'ort-wasm-simd-threaded.mjs',
      'ort-wasm-simd-threaded.wasm',
      'ort-wasm-simd-threaded.jsep.mjs',
      'ort-wasm-simd-threaded.jsep.wasm',
      'ort-wasm-simd-threaded.asyncify.mjs',
      'ort-wasm-simd-threaded.asyncify.wasm',
    ],
  },
];

export function vendorAssets() {
  let copied = 0;
  for (const g of groups) {
    mkdirSync(join(root, g.to), { recursive: true });
    for (const f of g.files) {
      const src = join(root, g.from, f);
      const dst = join(root, g.to, f);
      if (!existsSync(src)) throw new Error(`vendor-assets: ${g.from}/${f} is missing; run npm install`);
      const s = statSync(src);
      const transform = g.transform?.[f];
      if (existsSync(dst)) {
        const d = statSync(dst);
        // A transformed file is redone when its source or the transform's own code is newer.
        if (transform ? d.mtimeMs >= Math.max(s.mtimeMs, statSync(meterSource).mtimeMs) : d.size === s.size && d.mtimeMs >= s.mtimeMs) continue;
      }
      if (transform) writeFileSync(dst, transform(readFileSync(src)).bytes);
      else copyFileSync(src, dst);
      copied++;
    }
  }
  return copied;
}

/**
 * Publishes the committed experiment summaries (results/<name>/summary.json, written by
 * `npm run experiment`) to public/results/<name>.json with an index, so the page can show the
 * project's measured results. Derived and git-ignored like public/vendor: results/ is the source.
 */
export function publishResults() {
  const from = join(root, 'results');
  const to = join(root, 'public/results');
  mkdirSync(to, { recursive: true });
  const index = [];
  const robot = [];
  if (existsSync(from)) {
    for (const name of readdirSync(from).sort()) {
      const file = join(from, name, 'summary.json');
      if (!existsSync(file)) continue;
      const summary = JSON.parse(readFileSync(file, 'utf8'));
      if (summary.format === 'wmrl-robot-table-summary') {
        // The robot domain's tables (src/experiments/robot-table.ts), listed apart: their rows are not the coding presets.
        copyFileSync(file, join(to, `${name}.json`));
        robot.push({ name, file: `${name}.json`, command: summary.command });
        continue;
      }
      if (summary.format !== 'wmrl-experiment-summary') continue;
      copyFileSync(file, join(to, `${name}.json`));
      // a rerun folder (--rerun-of) names the folder it reruns, so that the page can show the two together
      index.push({ name, file: `${name}.json`, command: summary.command, presets: summary.presets.map((p) => p.preset), ...(summary.rerunOf ? { rerunOf: summary.rerunOf.of } : {}) });
    }
  }
  writeFileSync(join(to, 'index.json'), JSON.stringify({ format: 'wmrl-results-index', version: 1, results: index, robot }, null, 1) + '\n');
  return index.length + robot.length;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = vendorAssets();
  console.log(`vendor-assets: ${n} file(s) copied into public/vendor`);
  console.log(`vendor-assets: ${publishResults()} experiment summaries published to public/results`);
}
