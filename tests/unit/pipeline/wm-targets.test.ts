import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { taskCentredTargets } from '../../../src/pipeline/world-model.ts';

describe("the world model's task-centred targets", () => {
  it('keep the order inside each task, take away task levels, and stay in [0, 1]', () => {
    const example = fc.record({ taskId: fc.constantFrom('a', 'b', 'c'), y: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(example, { minLength: 1, maxLength: 40 }), (examples) => {
        const t = taskCentredTargets(examples);
        for (const v of t) expect(v >= 0 && v <= 1).toBe(true);
        for (let i = 0; i < examples.length; i++) for (let j = 0; j < examples.length; j++) {
          if (examples[i].taskId === examples[j].taskId && examples[i].y < examples[j].y) expect(t[i]).toBeLessThanOrEqual(t[j]);
        }
      }),
    );
    // no clamping: every task's mean becomes the overall mean (0.5 here)
    const t = taskCentredTargets([{ taskId: 'a', y: 0.2 }, { taskId: 'a', y: 0.4 }, { taskId: 'b', y: 0.6 }, { taskId: 'b', y: 0.8 }]);
    expect(t.map((v) => Number(v.toFixed(12)))).toEqual([0.4, 0.6, 0.4, 0.6]);
  });
});
