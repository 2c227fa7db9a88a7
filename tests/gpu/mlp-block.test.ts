// The kernels chained as a transformer MLP sub-block, forward and backward in one command buffer:
// checks that they compose (layouts, transposes, overwrite vs accumulate) the way a model uses them.
import { beforeAll, describe, expect, it } from 'vitest';
import { geluBackward, geluForward, layerNormBackward, layerNormForward, matmul } from '../../src/model/ops/reference-ops.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../../src/gpu/buffers.ts';
import { submit } from '../../src/gpu/kernel.ts';
import { encodeMatmul } from '../../src/gpu/matmul.ts';
import { encodeLayerNormBackward, encodeLayerNormForward } from '../../src/gpu/layernorm.ts';
import { encodeGeluBackward, encodeGeluForward } from '../../src/gpu/gelu.ts';
import { encodeBiasAdd, encodeBiasGrad, encodeResidualAdd } from '../../src/gpu/bias-residual.ts';
import { closeness, randomTensor, seededRandom } from '../unit/ops/random.ts';
import { expectNoGpuError, testDevice } from './dawn.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await testDevice()).device;
});

function colSum(x: Float32Array, rows: number, C: number): Float32Array {
  const s = new Float64Array(C);
  for (let r = 0; r < rows; r++) for (let c = 0; c < C; c++) s[c] += x[r * C + c];
  return Float32Array.from(s);
}

describe('kernels composed as an MLP block', () => {
  it('y = x + W2 gelu(W1 ln(x) + b1) + b2 and its gradients match the reference chain', async () => {
    const rand = seededRandom(101);
    const [R, C, F] = [10, 24, 40];
    const x = randomTensor(rand, R * C, 2);
    const gamma = randomTensor(rand, C);
    const beta = randomTensor(rand, C);
    const W1 = randomTensor(rand, C * F, 0.3);
    const b1 = randomTensor(rand, F);
    const W2 = randomTensor(rand, F * C, 0.3);
    const b2 = randomTensor(rand, C);
    const dy = randomTensor(rand, R * C);

    // reference
    const ln = layerNormForward(x, gamma, beta, R, C);
    const h = matmul(ln.y, W1, R, C, F).map((v, i) => v + b1[i % F]);
    const g = geluForward(h);
    const y = matmul(g, W2, R, F, C).map((v, i) => v + b2[i % C] + x[i]);
    const dW2 = matmul(g, dy, F, R, C, true, false);
    const db2 = colSum(dy, R, C);
    const dh = geluBackward(matmul(dy, W2, R, C, F, false, true), h);
    const dW1 = matmul(ln.y, dh, C, R, F, true, false);
    const db1 = colSum(dh, R, F);
    const lnB = layerNormBackward(matmul(dh, W1, R, F, C, false, true), x, gamma, ln.mean, ln.rstd, R, C);
    const dx = lnB.dx.map((v, i) => v + dy[i]);

    const got = await expectNoGpuError(device, async () => {
      const up = (a: Float32Array) => uploadBuffer(device, a);
      const z = (n: number) => zerosBuffer(device, n);
      const [bx, bg, bW1, bW2, bdy] = [up(x), up(gamma), up(W1), up(W2), up(dy)];
      const [lny, mean, rstd, bh, bgl, bo, by] = [z(R * C), z(R), z(R), z(R * F), z(R * F), z(R * C), z(R * C)];
      const [gW2, gb2, dg, dhh, gW1, gb1, dln, dxln, dgam, dbet, gx] =
        [z(F * C), z(C), z(R * F), z(R * F), z(C * F), z(F), z(R * C), z(R * C), z(C), z(C), z(R * C)];
      submit(device, (enc) => {
        encodeLayerNormForward(enc, device, { x: bx, gamma: bg, beta: up(beta), y: lny, mean, rstd, rows: R, dim: C });
        encodeMatmul(enc, device, { a: lny, b: bW1, c: bh, M: R, K: C, N: F });
        encodeBiasAdd(enc, device, bh, up(b1), R, F);
        encodeGeluForward(enc, device, bh, bgl, R * F);
        encodeMatmul(enc, device, { a: bgl, b: bW2, c: bo, M: R, K: F, N: C });
        encodeBiasAdd(enc, device, bo, up(b2), R, C);
        encodeResidualAdd(enc, device, bo, bx, by, R, C);
        // backward
        encodeMatmul(enc, device, { a: bgl, b: bdy, c: gW2, M: F, K: R, N: C, transA: true });
        encodeBiasGrad(enc, device, bdy, gb2, R, C);
        encodeMatmul(enc, device, { a: bdy, b: bW2, c: dg, M: R, K: C, N: F, transB: true });
        encodeGeluBackward(enc, device, dg, bh, dhh, R * F);
        encodeMatmul(enc, device, { a: lny, b: dhh, c: gW1, M: C, K: R, N: F, transA: true });
        encodeBiasGrad(enc, device, dhh, gb1, R, F);
        encodeMatmul(enc, device, { a: dhh, b: bW1, c: dln, M: R, K: F, N: C, transB: true });
        encodeLayerNormBackward(enc, device, { dy: dln, x: bx, gamma: bg, mean, rstd, dx: dxln, dgamma: dgam, dbeta: dbet, rows: R, dim: C });
        encodeResidualAdd(enc, device, dxln, bdy, gx, R, C);
      });
      const read = (b: GPUBuffer, n: number) => readFloat32(device, b, n);
      return {
        y: await read(by, R * C), dW2: await read(gW2, F * C), db2: await read(gb2, C), dW1: await read(gW1, C * F),
        db1: await read(gb1, F), dx: await read(gx, R * C), dgamma: await read(dgam, C), dbeta: await read(dbet, C),
      };
    });
    const ok = (a: Float32Array, b: Float32Array) => closeness(a, b, 1e-4, 1e-3);
    expect(ok(got.y, y)).toBeLessThanOrEqual(1);
    expect(ok(got.dW2, dW2)).toBeLessThanOrEqual(1);
    expect(ok(got.db2, db2)).toBeLessThanOrEqual(1);
    expect(ok(got.dW1, dW1)).toBeLessThanOrEqual(1);
    expect(ok(got.db1, db1)).toBeLessThanOrEqual(1);
    expect(ok(got.dx, dx)).toBeLessThanOrEqual(1);
    expect(ok(got.dgamma, lnB.dgamma)).toBeLessThanOrEqual(1);
    expect(ok(got.dbeta, lnB.dbeta)).toBeLessThanOrEqual(1);
  });
});
