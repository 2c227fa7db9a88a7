import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeKernel, getPipeline, grid, MAX_WORKGROUPS_PER_DIM, submit, uniformBuffer, withReductions } from '../../src/gpu/kernel.ts';
import { readBuffer, readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { describeAdapter } from '../../src/primitives/webgpu-device.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
let adapter: GPUAdapter;
beforeAll(async () => {
  ({ device, adapter } = await testDevice());
});

describe('kernel helpers', () => {
  it('grid covers the count within the per-dimension limit without much waste (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (count) => {
        const [x, y] = grid(count);
        expect(x).toBeLessThanOrEqual(MAX_WORKGROUPS_PER_DIM);
        expect(y).toBeLessThanOrEqual(MAX_WORKGROUPS_PER_DIM);
        expect(x * y).toBeGreaterThanOrEqual(count);
        expect(x * y - count).toBeLessThan(y);
      }),
    );
  });

  it('pipelines are cached per source, entry point and constants, and only shared when all three match', () => {
    const code = '@group(0) @binding(0) var<storage, read_write> x: array<f32>;\noverride K: f32 = 1.0;\n@compute @workgroup_size(1) fn a() { x[0] = K; }\n@compute @workgroup_size(1) fn b() { x[0] = 2.0 * K; }';
    const p = getPipeline(device, { code, entryPoint: 'a', constants: { K: 3 } });
    // the same source text as another string object is the same kernel
    expect(getPipeline(device, { code: [code].join(''), entryPoint: 'a', constants: { K: 3 } })).toBe(p);
    expect(getPipeline(device, { code, entryPoint: 'b', constants: { K: 3 } })).not.toBe(p);
    expect(getPipeline(device, { code, entryPoint: 'a', constants: { K: 4 } })).not.toBe(p);
    expect(getPipeline(device, { code: `${code}\n`, entryPoint: 'a', constants: { K: 3 } })).not.toBe(p);
  });

  it('a kept bind group is used only for the very buffers and ranges it binds', async () => {
    await expectNoGpuError(device, async () => {
      const spec = { code: '@group(0) @binding(0) var<storage, read_write> x: array<f32>;\n@compute @workgroup_size(1) fn main() { x[0] = x[0] + 1.0; }', entryPoint: 'main' };
      const a = uploadBuffer(device, new Float32Array([0]));
      const b = uploadBuffer(device, new Float32Array([0]));
      // two 4-byte ranges of one buffer, 256 bytes apart (the storage offset alignment)
      const ranged = zerosBuffer(device, 128);
      const at = (offset: number): GPUBufferBinding => ({ buffer: ranged, offset, size: 4 });
      submit(device, (enc) => {
        for (const target of [a, b, a, at(0), at(256), at(256), a]) encodeKernel(enc, device, spec, [target], [1]);
      });
      expect([...(await readFloat32(device, a, 1))]).toEqual([3]);
      expect([...(await readFloat32(device, b, 1))]).toEqual([1]);
      const r = await readFloat32(device, ranged, 128);
      expect([r[0], r[64]]).toEqual([1, 2]);
      // a buffer made after another was destroyed is bound, not the old one
      a.destroy();
      const c = uploadBuffer(device, new Float32Array([10]));
      submit(device, (enc) => encodeKernel(enc, device, spec, [c], [1]));
      expect([...(await readFloat32(device, c, 1))]).toEqual([11]);
    });
  });

  it('uniform blocks are packed little-endian, padded to 16 bytes, and shared by content', async () => {
    const a = uniformBuffer(device, [['u32', 7], ['f32', 0.5], ['i32', -2]]);
    const b = uniformBuffer(device, [['u32', 7], ['f32', 0.5], ['i32', -2]]);
    const c = uniformBuffer(device, [['u32', 8], ['f32', 0.5], ['i32', -2]]);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(a.size).toBe(16);
    // uniform buffers cannot be read back directly: copy through a storage-usable path
    const copy = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC | GPUBufferUsage.STORAGE });
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(a, 0, copy, 0, 16);
    device.queue.submit([enc.finish()]);
    const bytes = await readBuffer(device, copy, 16);
    const view = new DataView(bytes);
    expect(view.getUint32(0, true)).toBe(7);
    expect(view.getFloat32(4, true)).toBe(0.5);
    expect(view.getInt32(8, true)).toBe(-2);
  });

  it('reports the adapter, recognising SwiftShader as software', () => {
    const info = describeAdapter(adapter);
    expect(info.name.length).toBeGreaterThan(0);
    expect(info.isSoftware).toBe(/swiftshader/i.test(`${info.vendor} ${info.architecture} ${info.device} ${info.description}`));
    console.log(`adapter: ${info.name} (vendor ${info.vendor}, architecture ${info.architecture})`);
  });
});

describe('range bindings', () => {
  it('a kernel can read and write byte ranges of larger buffers', async () => {
    const { encodeKernel, submit } = await import('../../src/gpu/kernel.ts');
    const { uploadBuffer, readFloat32 } = await import('../../src/gpu/buffers.ts');
    // gelu.wgsl needs its prelude (tanh-gelu.wgsl) prepended, as src/gpu/gelu.ts does
    const code = `${(await import('../../src/gpu/kernels/tanh-gelu.wgsl?raw')).default}\n${(await import('../../src/gpu/kernels/gelu.wgsl?raw')).default}`;
    const src = uploadBuffer(device, Float32Array.from({ length: 128 }, (_, i) => (i < 64 ? 100 : i - 64)));
    const dst = uploadBuffer(device, new Float32Array(128).fill(-1));
    submit(device, (enc) => encodeKernel(enc, device, { code, entryPoint: 'forward' },
      [{ buffer: src, offset: 256, size: 16 }, { buffer: dst, offset: 256, size: 16 }, uniformBuffer(device, [['u32', 4]])], [1]));
    const out = await readFloat32(device, dst, 128);
    expect(out[63]).toBe(-1);
    expect(out[64]).toBe(0); // gelu(0)
    expect(out[65]).toBeCloseTo(0.841192, 5); // gelu(1)
    expect(out[68]).toBe(-1); // past the bound range: untouched
  });
});

describe('shared reduction prelude (reduce.wgsl)', () => {
  // A kernel that only declares WG and calls the prelude's functions, as the real kernels do.
  const probe = (wg: number) => withReductions(`
const WG: u32 = ${wg}u;
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32) {
  let v = x[lid];
  let s = reduceSum(lid, v);
  let m = reduceMax(lid, v);
  let s2 = reduceSum2(lid, vec2<f32>(v, v * v));
  // every invocation gets the results: check the last one, not only invocation 0
  if (lid == WG - 1u) { out[0] = s; out[1] = m; out[2] = s2.x; out[3] = s2.y; }
}`);

  it('sums and maxima over workgroups of 32 and 256 invocations match the host (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -200, max: 200 }), { minLength: 256, maxLength: 256 }), fc.boolean(),
        async (ints, allNegative) => {
          // small integers keep float32 sums (of squares too: < 2^24) exact; all-negative rows check max never sees a stray 0
          const x = Float32Array.from(ints, (v) => (allNegative ? -Math.abs(v) - 1 : v));
          for (const wg of [32, 256]) {
            const got = await expectNoGpuError(device, async () => {
              const out = zerosBuffer(device, 4);
              submit(device, (enc) => encodeKernel(enc, device, { code: probe(wg), entryPoint: 'main' }, [uploadBuffer(device, x), out], [1]));
              return readFloat32(device, out, 4);
            });
            const xs = Array.from(x.subarray(0, wg));
            const sum = xs.reduce((a, b) => a + b, 0);
            expect(Array.from(got)).toEqual([sum, Math.max(...xs), sum, xs.reduce((a, b) => a + b * b, 0)]);
          }
        }),
      { numRuns: 8 },
    );
  });
});
