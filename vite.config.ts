import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin } from 'vite';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { publishResults, vendorAssets } from './scripts/vendor-assets.mjs';
import { sourceStamp, STAMP_FILE } from './scripts/source-stamp.mjs';
import { sandboxWorkerHeaders } from './src/sandbox-pyodide/vite-plugin.ts';
import { ISOLATION_HEADERS, isolationServiceWorker } from './src/app/static-host.ts';

// Dawn (the `webgpu` package) finds SwiftShader only through the Vulkan loader's environment, which
// must be set before any worker thread starts: vitest's `test.env` comes too late for the loader.
process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';

// crossOriginIsolated is needed for threaded wasm (onnxruntime-web) and for the sandbox's
// SharedArrayBuffer interrupt flag, so every server this project starts sends these headers; on a
// host that cannot, the build's service worker adds them (src/app/static-host.ts).
const isolation = { ...ISOLATION_HEADERS };

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

// The hash of the sources this build was made from (taken when it starts), beside the built app:
// the browser tests compare it with the checkout so they never test a stale dist/.
function stamp(): Plugin {
  let taken: ReturnType<typeof sourceStamp> | null = null;
  let outDir = 'dist';
  return {
    name: 'wmrl-source-stamp',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    buildStart() {
      taken = sourceStamp(import.meta.dirname);
    },
    closeBundle() {
      if (taken) writeFileSync(resolve(outDir, STAMP_FILE), `${JSON.stringify({ ...taken, harness: HARNESS })}\n`);
    },
  };
}

/** Whether this build carries the test harness page (npm test and the browser tests build with it). */
const HARNESS = process.env.WMRL_HARNESS === '1';

// Build timings are noise on a shared 2-core machine, not warnings.
const quietTimings = { bundlerTimings: false };

export default defineConfig({
  // A relative base: the build works from any folder of a host (src/primitives/app-root.ts).
  base: './',
  plugins: [vendor(), svelte(), sandboxWorkerHeaders(), isolationServiceWorker(), stamp()],
  server: { host: '127.0.0.1', headers: isolation },
  preview: { host: '127.0.0.1', headers: isolation },
  worker: { format: 'es', rolldownOptions: { checks: quietTimings } },
  build: {
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      // The trainer's e2e page (src/harness) is test code: only test builds (WMRL_HARNESS=1) carry it.
      input: { main: 'index.html', sandbox: 'sandbox.html', experiment: 'experiment.html', ...(HARNESS ? { appHarness: 'app-harness.html' } : {}) },
      checks: quietTimings,
    },
  },
  test: {
    // 'long': a second browser run over a path another test already drives (the forced-WebGPU step, the
    // lab's overlays, resume after a reload, the progress bars, the robot's in-browser run, the isolation
    // control), and the sandbox's work-budget check with 100 s of real work. `npm test` leaves them out (the six
    // reruns were 882 s of 2,983 s of browser and GPU tests, measured beside two experiment runs on 2 cores);
    // `npm run test:long` runs them and .ci/run calls it.
    tags: [{ name: 'long', description: 'A slow browser or sandbox check, most of them a second run of a path another test covers; npm run test:long' }],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // Some unit tests run onnxruntime sessions or Pyodide; on a loaded 2-core machine 5 s is too tight.
          testTimeout: 30_000,
          // beforeAll hooks build onnxruntime sessions too: 10 s timed out under load (training-graph).
          hookTimeout: 120_000,
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
          // Full pipelines and soaks have their own scripts (test:pipeline, test:soak; .ci/run calls both), so that
          // `npm test` stays short: WMRL_LONG=1 lets them in.
          exclude: process.env.WMRL_LONG === '1' ? [] : ['tests/e2e/experiment-cli.test.ts', 'tests/sandbox/soak.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
