// Packs `npm run bench -- --json --device-check` for a machine that has a GPU but no Node and no
// registry (the device machine): one bundled bench (esbuild, WGSL `?raw` imports inlined), the two
// packages it loads at run time (Dawn's linux-x64 `webgpu`, onnxruntime-web's Node entry and wasm)
// and this machine's `node`, xz-compressed into .dev/ (git-ignored), with the Vulkan loader's Debian
// packages (.dev/gl/) and .dev/run.sh, which unpacks all of it there and runs the bench in one command.
// docs/engines.md ("Real GPU") says how the call is made.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
// The device image has the NVIDIA ICD but not the Vulkan loader, and the ICD needs glvnd's libraries:
// without them the loader finds the ICD but no driver (VK_ERROR_INCOMPATIBLE_DRIVER). Debian's packages
// for this machine's release, unpacked over / there by run.sh.
const GL_PACKAGES = ['libvulkan1', 'libglvnd0', 'libegl1', 'libglx0', 'libgl1', 'libopengl0', 'libgles2'];
const gl = resolve(out, 'gl');
mkdirSync(gl);
try {
  execFileSync('apt-get', ['download', ...GL_PACKAGES], { cwd: gl, stdio: ['ignore', 'ignore', 'pipe'] });
} catch (e) {
  console.warn(`could not download the Vulkan loader's packages (${String(e).split('\n')[0]}): run.sh goes on without them; a device without a Vulkan loader then fails its adapter check`);
}

// One command on the device, from the repository root: `sh .dev/run.sh` (extra arguments go to the bench).
const RUN = `#!/bin/sh
# Written by bench/device-pack.mjs. Unpacks node and the bench into a temporary folder, puts the Vulkan
# loader's packages over /, points the loader at the NVIDIA ICD when there is one, and runs
# \`bench.mjs --json --device-check\` (exit 1 when no hardware adapter is found).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
python3 - "$here" "$work" <<'PY'
import lzma, os, shutil, sys, tarfile
here, work = sys.argv[1], sys.argv[2]
with lzma.open(os.path.join(here, 'node.xz')) as src, open(os.path.join(work, 'node'), 'wb') as dst:
    shutil.copyfileobj(src, dst)
os.chmod(os.path.join(work, 'node'), 0o755)
with tarfile.open(os.path.join(here, 'pkg.tar.xz')) as t:
    t.extractall(work)
PY
for deb in "$here"/gl/*.deb; do
  if [ -e "$deb" ]; then dpkg -x "$deb" /; fi
done
ldconfig 2>/dev/null || true
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -f "$icd" ]; then export VK_ICD_FILENAMES="$icd"; fi
cd "$work/pkg"
exec "$work/node" bench.mjs --json --device-check "$@"
`;
writeFileSync(resolve(out, 'run.sh'), RUN);
chmodSync(resolve(out, 'run.sh'), 0o755);
console.log(`packed into ${out}: pkg.tar.xz (bench and its run-time packages), node.xz (${process.version}), gl/ (${readdirSync(gl).length} Debian packages), run.sh`);
