import { describe, expect, it } from 'vitest';
import { acquireDevice, WebGPUUnavailableError } from '../../src/primitives/webgpu-device.ts';
import { testDevice } from './dawn.ts';

describe('device acquisition', () => {
  it('gets a device with raised limits from Dawn', async () => {
    const { adapter, device, info } = await testDevice();
    expect(device.limits.maxStorageBufferBindingSize).toBe(adapter.limits.maxStorageBufferBindingSize);
    expect(device.limits.maxComputeWorkgroupStorageSize).toBe(adapter.limits.maxComputeWorkgroupStorageSize);
    expect(info.name).not.toBe('');
  });

  const hasNavigatorGpu = !!(globalThis as { navigator?: { gpu?: unknown } }).navigator?.gpu;
  it.skipIf(hasNavigatorGpu)('explains a missing navigator.gpu', async () => {
    await expect(acquireDevice()).rejects.toMatchObject({ name: 'WebGPUUnavailableError', reason: 'no-webgpu' });
    await expect(acquireDevice()).rejects.toBeInstanceOf(WebGPUUnavailableError);
  });

  it('explains a null adapter and a failing device request', async () => {
    const noAdapter = { requestAdapter: async () => null } as unknown as GPU;
    await expect(acquireDevice({ gpu: noAdapter })).rejects.toMatchObject({ name: 'WebGPUUnavailableError', reason: 'no-adapter' });
    const { adapter } = await testDevice();
    const failing = {
      requestAdapter: async () => ({
        limits: adapter.limits,
        info: adapter.info,
        requestDevice: async () => { throw new Error('lost'); },
      }),
    } as unknown as GPU;
    await expect(acquireDevice({ gpu: failing })).rejects.toMatchObject({ reason: 'device-failed' });
  });
});
