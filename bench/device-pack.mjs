// Packs `npm run bench -- --json --device-check` for a machine that has a GPU but no Node and no
// registry (the device machine): one bundled bench (esbuild, WGSL `?raw` imports inlined), the two
// packages it loads at run time (Dawn's linux-x64 `webgpu`, onnxruntime-web's Node entry and wasm)
// and this machine's `node`, xz-compressed into .dev/ (git-ignored).
// docs/engines.md ("Real GPU") gives the command that unpacks and runs it there.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(root, '.dev');
const pkg = resolve(out, 'pkg');
rmSync(out, { recursive: true, force: true });
mkdirSync(pkg, { recursive: true });

// The kernels import their WGSL with vite's `?raw`: bundle it as text.
const raw = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (a) => ({ path: resolve(a.resolveDir, a.path.slice(0, -'?raw'.length)), namespace: 'raw' }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, (a) => ({ contents: readFileSync(a.path, 'utf8'), loader: 'text' }));
  },
};
await build({
  entryPoints: [resolve(root, 'bench/index.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20',
  outfile: resolve(pkg, 'bench.mjs'), external: ['webgpu', 'onnxruntime-web'], plugins: [raw], logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

const modules = resolve(root, 'node_modules');
const keep = [
  'webgpu/package.json', 'webgpu/index.js', 'webgpu/dist/linux-x64/dawn.node',
  'onnxruntime-web/package.json', 'onnxruntime-web/dist/ort.node.min.mjs',
  'onnxruntime-web/dist/ort-wasm-simd-threaded.mjs', 'onnxruntime-web/dist/ort-wasm-simd-threaded.wasm',
  'onnxruntime-common',
];
for (const p of keep) cpSync(resolve(modules, p), resolve(pkg, 'node_modules', p), { recursive: true });

execFileSync('tar', ['-cJf', resolve(out, 'pkg.tar.xz'), '-C', out, 'pkg']);
execFileSync('sh', ['-c', `xz -6 -c "${process.execPath}" > "${resolve(out, 'node.xz')}"`]);
rmSync(pkg, { recursive: true });
console.log(`packed into ${out}: pkg.tar.xz (bench and its run-time packages), node.xz (${process.version})`);
