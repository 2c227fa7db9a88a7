import { describe, expect, it } from 'vitest';
import { adapterName, crossOriginIsolationCheck, webgpuCheck } from '../../src/ui/environment.ts';

describe('start-up checks shown on the page', () => {
  it('reports isolation, and says how to fix it when missing', () => {
    expect(crossOriginIsolationCheck(true).state).toBe('ok');
    const off = crossOriginIsolationCheck(false);
    expect(off.state).toBe('warn');
    expect(off.detail).toMatch(/Cross-Origin-Embedder-Policy/);
  });

  it('names the adapter, and flags software adapters', () => {
    const swift = { vendor: 'google', architecture: 'swiftshader', device: '', description: '' };
    expect(adapterName(swift)).toBe('google / swiftshader');
    const c = webgpuCheck({ adapter: swift });
    expect(c.state).toBe('ok');
    expect(c.summary).toBe('WebGPU: google / swiftshader');
    expect(c.detail).toMatch(/software/);
    const real = webgpuCheck({ adapter: { vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H200' } });
    expect(real.detail).toBeUndefined();
  });

  it('falls back to the CPU with a reason when there is no adapter', () => {
    const c = webgpuCheck({ adapter: null, error: 'requestAdapter returned null' });
    expect(c.state).toBe('warn');
    expect(c.summary).toBe('WebGPU: none: CPU fallback');
    expect(c.detail).toContain('requestAdapter returned null');
  });
});
