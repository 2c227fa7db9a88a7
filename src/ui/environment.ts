// What this browser can do, read once at start-up. Each check carries the message a user needs
// when it fails, so the page never goes blank on a missing capability.

export type CheckState = 'pending' | 'ok' | 'warn' | 'fail';

export interface Check {
  state: CheckState;
  /** One line: what was found. */
  summary: string;
  /** What it means for the user and what to do, when not ok. */
  detail?: string;
}

export function crossOriginIsolationCheck(isolated: boolean): Check {
  if (isolated) return { state: 'ok', summary: 'crossOriginIsolated: yes' };
  return {
    state: 'warn',
    summary: 'crossOriginIsolated: no',
    detail:
      'The page was served without the COOP/COEP headers. Threaded WebAssembly falls back to one thread and ' +
      'sandboxed programs cannot be interrupted gently (only killed). Serve it with `npm start`, or with ' +
      '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp".',
  };
}

import type { AdapterSummary } from '../workers/gpu-api.ts';

export type { AdapterSummary };

/** The name we show for an adapter: the most specific field the browser fills in. */
export function adapterName(info: AdapterSummary): string {
  const parts = [info.description || info.device, info.vendor, info.architecture].filter((p) => p && p.length > 0);
  return parts.length > 0 ? [...new Set(parts)].join(' / ') : 'unnamed adapter';
}

export function webgpuCheck(result: { adapter: AdapterSummary | null; error?: string }): Check {
  if (result.adapter) {
    const name = adapterName(result.adapter);
    const software = /swiftshader|llvmpipe|software/i.test(name) || result.adapter.isFallbackAdapter === true;
    return {
      state: 'ok',
      summary: `WebGPU: ${name}`,
      detail: software
        ? 'This is a software (CPU-emulated) adapter: kernels are correct but slow; training uses the CPU engine.'
        : undefined,
    };
  }
  return {
    state: 'warn',
    summary: 'WebGPU: none: CPU fallback',
    detail:
      (result.error ? `${result.error}. ` : '') +
      'Everything still runs on the CPU (WebAssembly), only slower. For the GPU path use a browser with WebGPU ' +
      '(Chrome/Edge 113+, or Chromium with --enable-unsafe-webgpu).',
  };
}
