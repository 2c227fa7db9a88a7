// Training the robot in a real browser (#/train?domain=robot, the train panel): a run of robot-wmrl
// at B 2 x G 2 (horizon 96, the preset's) runs RobotTrainer inside the robot worker; the step counter
// advances, the chart is drawn, a rollout of the step plays in the rollout player; and the page's
// first step is Node's RobotTrainer's for the same preset, seed and sizes: the same initial states,
// anchors, actions taken and successes exactly, the progress scores and s within 1e-5 (the page's
// onnxruntime-web runs 2 wasm threads, Node one). The held-out evaluation button reports a result.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openView, useServedApp } from './browser.ts';
import { readRobotPolicy } from '../../src/embodied/policy-checkpoint.ts';
import { loadProgressModel } from '../../src/embodied/progress-scorer.ts';
import { robotPresetConfig } from '../../src/embodied/robot-presets.ts';
import { RobotTrainer, type RobotStepResult } from '../../src/embodied/robot-trainer.ts';
import { CpuEngine } from '../../src/engine/cpu/cpu-engine.ts';

const root = resolve(import.meta.dirname, '../..');
const SIZES = { seed: 3, groupsPerStep: 2, groupSize: 2, steps: 1 };

/** Node's first step of the same run (the models the page is served: public/models/robot). */
async function nodeFirstStep(): Promise<RobotStepResult> {
  const policy = readRobotPolicy(readFileSync(resolve(root, 'public/models/robot/policy.ckpt')));
  const progress = await loadProgressModel(readFileSync(resolve(root, 'public/models/robot/progress-model.ckpt')), { prefer: 'wasm', numThreads: 1 });
  const engine = CpuEngine.fromModel(policy.model, { numThreads: 1 });
  try {
    const trainer = new RobotTrainer(robotPresetConfig('robot-wmrl', SIZES), { engine, frames: policy.frames, progress: progress.score });
    return await trainer.step();
  } finally {
    await engine.dispose();
    await progress.release();
  }
}

const maxDiff = (a: readonly number[], b: readonly number[]): number => {
  expect(a.length).toBe(b.length);
  return a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
};

describe('robot train panel (#/train?domain=robot)', () => {
  const app = useServedApp({ webgpu: false });

  it("a run steps in the worker, draws its chart, plays a step's rollout, and its first step is Node's", { timeout: 900_000, tags: ['long'] }, async () => {
    const node = await nodeFirstStep();
    const { page, errors } = await openView(app, '#/train?domain=robot', { width: 1280, height: 1000 });
    await page.waitForFunction(() => /Progress model: [\d,]+ parameters/.test(document.querySelector('[data-testid="robot-models"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
    await page.selectOption('[data-testid=robot-train-preset]', 'robot-wmrl');
    await page.fill('[data-testid=robot-train-seed]', String(SIZES.seed));
    await page.fill('[data-testid=robot-train-b]', String(SIZES.groupsPerStep));
    await page.fill('[data-testid=robot-train-g]', String(SIZES.groupSize));
    await page.fill('[data-testid=robot-train-steps]', String(SIZES.steps));
    expect(await page.textContent('[data-testid=robot-train-counter]')).toBe('no run yet');
    // Start waits for the panel's own runtime (its models in the worker), slower than the view's on a loaded machine.
    await page.waitForFunction(() => (document.querySelector('[data-testid="robot-train-start"]') as HTMLButtonElement | null)?.disabled === false, undefined, { timeout: 300_000 });
    // Every progress line the page shows is kept as it is drawn: an unloaded machine decodes the horizon
    // in a few seconds, too briefly for a poll to be sure to see it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="robot-train-progress"]')?.textContent ?? '';
        if (text !== '' && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.click('[data-testid=robot-train-start]');
    await page.waitForFunction(() => /step 1 of 1$/.test(document.querySelector('[data-testid="robot-train-counter"]')?.textContent ?? ''), undefined, { timeout: 400_000 });
    // Progress was told while the step ran: each decoding step of the horizon, then scoring and the update.
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    const decoding = seen.filter((t) => /^step 1: rollouts, decoding step \d+ of 96 \(\d+ of 4 episodes open\)$/.test(t));
    expect(decoding.length).toBeGreaterThan(10);
    expect(seen.some((t) => /^step 1: the progress model scores \d+ frames$/.test(t))).toBe(true);
    expect(seen.some((t) => /^step 1: the policy update/.test(t))).toBe(true);
    expect(await page.textContent('[data-testid=robot-train-counter]')).toBe('robot-wmrl, seed 3, B 2 x G 2: step 1 of 1');
    expect(await page.locator('[data-testid=robot-train-chart] svg circle').count()).toBeGreaterThan(0);

    // The page's record against Node's.
    const page1 = JSON.parse((await page.textContent('[data-testid=robot-train-record]')) ?? '') as RobotStepResult['record'];
    const want = node.record;
    expect(page1.groups.map((g) => [g.taskId, g.initialIndex, g.anchor, g.success, g.lengths])).toEqual(want.groups.map((g) => [g.taskId, g.initialIndex, g.anchor, g.success, g.lengths]));
    expect(page1.successRate).toBe(want.successRate);
    const sDiff = maxDiff(page1.groups.flatMap((g) => g.wmScores ?? []), want.groups.flatMap((g) => g.wmScores ?? []));
    const pDiff = maxDiff(page1.groups.flatMap((g) => (g.progress ?? []).flat()), want.groups.flatMap((g) => (g.progress ?? []).flat()));
    expect(sDiff).toBeLessThan(1e-5);
    expect(pDiff).toBeLessThan(1e-5);
    expect(page1.groups.flatMap((g) => g.wmScores ?? []).length).toBe(4);
    console.log(`robot train e2e: page vs Node max |diff| of s ${sDiff}, of progress scores ${pDiff}; successes ${JSON.stringify(want.groups.map((g) => g.success))}`);

    // The step's rollouts, listed by group; clicking one plays it.
    const rows = page.locator('[data-testid=robot-train-rollout]');
    expect(await rows.count()).toBe(4);
    await rows.nth(1).click();
    await page.waitForSelector('[data-testid=robot-player]', { timeout: 30_000 });
    const r = node.rollouts.find((x) => x.group === 0 && x.index === 1);
    if (!r) throw new Error('no rollout 2 of group 1 in Node');
    expect(await page.textContent('[data-testid=robot-start]')).toBe(`${r.taskId}, training state ${r.initialIndex}`);
    expect(await page.textContent('[data-testid=robot-frame]')).toMatch(new RegExp(` of ${r.actions.length}$`));
    await page.waitForFunction(() => (document.querySelector('[data-testid="robot-curve"]')?.getAttribute('data-scores') ?? '') !== '', undefined, { timeout: 10_000 });

    // Held-out evaluation of the run's policy, one held-out state a task (25 greedy episodes).
    await page.click('[data-testid=robot-eval]');
    await page.waitForFunction(() => /held-out tasks \d+ of 5/.test(document.querySelector('[data-testid="robot-eval-result"]')?.textContent ?? ''), undefined, { timeout: 300_000 });
    expect(await page.textContent('[data-testid=robot-eval-result]')).toMatch(/the run's policy after 1 steps, greedy, held-out states 0\.\.0:\s+training tasks \d+ of 20,\s+held-out tasks \d+ of 5/);
    expect(errors).toEqual([]);
  });

  it('a link reopens the form with its run settings, an edit goes back into the URL, and Stop stops after the step in progress', async () => {
    const { page, errors } = await openView(app, '#/train?domain=robot&rt.preset=robot-grpo-sparse&rt.seed=5&rt.B=1&rt.G=2&rt.steps=3', { width: 1280, height: 1000 });
    await page.waitForFunction(() => /Progress model: [\d,]+ parameters/.test(document.querySelector('[data-testid="robot-models"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
    expect(await page.inputValue('[data-testid=robot-train-preset]')).toBe('robot-grpo-sparse');
    expect([await page.inputValue('[data-testid=robot-train-seed]'), await page.inputValue('[data-testid=robot-train-b]'), await page.inputValue('[data-testid=robot-train-g]'), await page.inputValue('[data-testid=robot-train-steps]')]).toEqual(['5', '1', '2', '3']);
    await page.fill('[data-testid=robot-train-seed]', '6');
    await page.waitForFunction(() => location.hash.includes('rt.seed=6'), undefined, { timeout: 10_000 });

    // Start waits for the panel's own runtime (its models in the worker), slower than the view's on a loaded machine.
    await page.waitForFunction(() => (document.querySelector('[data-testid="robot-train-start"]') as HTMLButtonElement | null)?.disabled === false, undefined, { timeout: 300_000 });
    await page.click('[data-testid=robot-train-start]');
    await page.waitForFunction(() => /step 1: rollouts, decoding step/.test(document.querySelector('[data-testid="robot-train-progress"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
    await page.click('[data-testid=robot-train-stop]');
    expect(await page.textContent('[data-testid=robot-train-progress]')).toMatch(/^stopping after this step; /);
    // The run ends after the step that was running: Start comes back with one step of three done.
    await page.waitForFunction(() => !(document.querySelector('[data-testid="robot-train-start"]') as HTMLButtonElement).disabled, undefined, { timeout: 400_000 });
    expect(await page.textContent('[data-testid=robot-train-counter]')).toBe('robot-grpo-sparse, seed 6, B 1 x G 2: step 1 of 3');
    expect(await page.locator('[data-testid=robot-train-rollout]').count()).toBe(2);
    expect(errors).toEqual([]);
  }, 600_000);
});
