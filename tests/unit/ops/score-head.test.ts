import { describe, expect, it } from 'vitest';
import { scoreHeadBackward, scoreHeadForward } from '../../../src/model/ops/score-head.ts';
import { closeness, randomTensor, seededRandom } from './random.ts';

describe('reference score head', () => {
  it('backward matches finite differences', () => {
    const rand = seededRandom(81);
    const [rows, C] = [3, 5];
    const x = randomTensor(rand, rows * C);
    const w = randomTensor(rand, C);
    let b = 0.2;
    const ds = randomTensor(rand, rows);
    const loss = () => scoreHeadForward(x, w, b, rows, C).reduce((s, v, r) => s + ds[r] * v, 0);
    const fd = (arr: Float32Array) => arr.map((old, i) => {
      const h = 1e-2;
      arr[i] = old + h; const lp = loss();
      arr[i] = old - h; const lm = loss();
      arr[i] = old;
      return (lp - lm) / (2 * h);
    });
    const g = scoreHeadBackward(ds, scoreHeadForward(x, w, b, rows, C), x, w, rows, C);
    expect(closeness(g.dx, fd(x), 1e-4, 1e-2)).toBeLessThanOrEqual(1);
    expect(closeness(g.dw, fd(w), 1e-4, 1e-2)).toBeLessThanOrEqual(1);
    b += 1e-2; const lp = loss(); b -= 2e-2; const lm = loss(); b += 1e-2;
    expect(g.db).toBeCloseTo((lp - lm) / 2e-2, 3);
  });
});
