import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin } from 'vite';
import { publishResults, vendorAssets } from './scripts/vendor-assets.mjs';
import { sandboxWorkerHeaders } from './src/sandbox-pyodide/vite-plugin.ts';

// Dawn (the `webgpu` package) finds SwiftShader only through the Vulkan loader's environment, which
// must be set before any worker thread starts: vitest's `test.env` comes too late for the loader.
process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';

// crossOriginIsolated is needed for threaded wasm (onnxruntime-web) and for the sandbox's
// SharedArrayBuffer interrupt flag, so every server this project starts sends these headers.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

// Pyodide and onnxruntime-web load their runtime files by URL: keep public/vendor in step with
// node_modules. The committed experiment summaries are published to public/results the same way.
function vendor(): Plugin {
  return {
    name: 'wmrl-vendor-assets',
    buildStart: () => {
      vendorAssets();
      publishResults();
    },
  };
}

// Build timings are noise on a shared 2-core machine, not warnings.
const quietTimings = { bundlerTimings: false };

export default defineConfig({
  plugins: [vendor(), svelte(), sandboxWorkerHeaders()],
  server: { host: '127.0.0.1', headers: isolation },
  preview: { host: '127.0.0.1', headers: isolation },
  worker: { format: 'es', rolldownOptions: { checks: quietTimings } },
  build: {
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      input: { main: 'index.html', sandbox: 'sandbox.html', appHarness: 'app-harness.html', experiment: 'experiment.html' },
      checks: quietTimings,
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // Some unit tests run onnxruntime sessions or Pyodide; on a loaded 2-core machine 5 s is too tight.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'gpu',
          include: ['tests/gpu/**/*.test.ts'],
          environment: 'node',
          // One Dawn instance per process; kernels on SwiftShader are slow.
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts', 'tests/sandbox/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
