// The robot domain in a real browser (#/train?domain=robot): an expert rollout animates frame by
// frame (the canvas shows exactly the renderer's frames), the progress model's 8 scores in the page
// equal Node's for the same rollout, the dense reward follows the shaping mode, a policy rollout of
// the committed BC policy runs in the worker and ends as it does in Node, a tampered checkpoint is
// refused by name, and the companion's robot section reads its figures from the reports.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openView, useServedApp } from './browser.ts';
import { expertEpisode } from '../../src/ui/robot/robot-settings.ts';
import { FrameTokenizer } from '../../src/embodied/frame-tokens.ts';
import { initialScene } from '../../src/embodied/layout.ts';
import { policyFrameTokensOf } from '../../src/embodied/policy-frame-tokens.ts';
import { modelPolicy } from '../../src/embodied/policy-model.ts';
import { clampProgress, progressFrameSequences } from '../../src/embodied/progress-frames.ts';
import { renderScene } from '../../src/embodied/renderer.ts';
import { runEpisodes } from '../../src/embodied/rollout.ts';
import { denseReward } from '../../src/embodied/shaping.ts';
import { taskById } from '../../src/embodied/tasks.ts';
import { CpuEngine } from '../../src/engine/cpu/cpu-engine.ts';
import { WorldModelRunner } from '../../src/engine/onnx/world-model-runner.ts';
import { loadCheckpoint } from '../../src/model/checkpoint.ts';
import { exportWorldModel } from '../../src/model/onnx/export.ts';
import { Tokenizer } from '../../src/model/tokenizer.ts';
import { shownVerdict, type RobotTableSummary } from '../../src/experiments/robot-table.ts';
import { formatInterval } from '../../src/ui/companion/our-results.ts';
import { v2Reading } from '../../src/ui/companion/robot-figures.ts';

const root = resolve(import.meta.dirname, '../..');
const text = async (page: Page, id: string) => (await page.locator(`[data-testid="${id}"]`).first().textContent()) ?? '';
async function changed(page: Page, id: string, before: string, timeout = 20_000): Promise<string> {
  await page.waitForFunction(([i, b]) => (document.querySelector(`[data-testid="${i}"]`)?.textContent ?? '') !== b, [id, before] as const, { timeout });
  return text(page, id);
}
async function modelsReady(page: Page): Promise<void> {
  await page.waitForFunction(() => /Progress model: [\d,]+ parameters/.test(document.querySelector('[data-testid="robot-models"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
}
/** The canvas's pixels as RGB bytes. */
const canvasRgb = (page: Page) => page.evaluate(() => {
  const c = document.querySelector<HTMLCanvasElement>('[data-testid="robot-canvas"]');
  const d = c?.getContext('2d')?.getImageData(0, 0, 48, 48).data;
  if (!d) throw new Error('no canvas');
  const out: number[] = [];
  for (let i = 0; i < d.length; i += 4) out.push(d[i], d[i + 1], d[i + 2]);
  return out;
});

/** Node's scores of a rollout: the same ONNX runner the page's worker uses (wasm, here one thread). */
async function nodeScores(taskId: string, states: Parameters<typeof progressFrameSequences>[2]): Promise<number[]> {
  const progress = loadCheckpoint(readFileSync(resolve(root, 'results/robot-progress/progress-model.ckpt')));
  const runner = await WorldModelRunner.create(exportWorldModel(progress.model, 'initializers'), new Tokenizer([]), progress.model.config, { prefer: 'wasm', numThreads: 1 });
  try {
    const seqs = progressFrameSequences(FrameTokenizer.fromJSON(progress.meta.frameTokenizer), taskById(taskId), states);
    return Array.from((await runner.scoreSequences(seqs)).scores);
  } finally {
    await runner.release();
  }
}

describe('robot view (#/train?domain=robot)', () => {
  const app = useServedApp({ webgpu: false });
  // A held-out composition from a held-out initial state, with a noisy expert: a rollout that wanders.
  const settings = { task: 'bowl-and-plate:blue+red', split: 'heldout' as const, state: 2, noise: 0.2, seed: 5 };

  it('an expert rollout animates, its progress scores are Node\'s, and the shaping mode changes the dense reward', async () => {
    const episode = expertEpisode(settings);
    const reference = await nodeScores(settings.task, episode.states);
    const { page, errors } = await openView(app, `#/train?domain=robot&r.task=${encodeURIComponent(settings.task)}&r.split=heldout&r.state=2&r.noise=0.2&r.seed=5`, { width: 1280, height: 900 });
    await page.waitForSelector('[data-testid=robot-view]', { timeout: 60_000 });
    expect(await page.inputValue('[data-testid=robot-task]')).toBe(settings.task);
    expect(await page.getAttribute('[data-testid=domain-robot]', 'aria-current')).toBe('page');
    await modelsReady(page);

    await page.click('[data-testid=robot-run]');
    await page.waitForSelector('[data-testid=robot-player]');
    // Frames advance by themselves (play starts with the rollout).
    const first = await text(page, 'robot-frame');
    const later = await changed(page, 'robot-frame', first);
    expect(later).toMatch(new RegExp(`^step \\d+ of ${episode.actions.length}$`));
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="robot-canvas"]') as Element).imageRendering)).toBe('pixelated');

    // The progress curve: the page's raw scores, then the chart's line.
    await page.waitForFunction(() => (document.querySelector('[data-testid="robot-curve"]')?.getAttribute('data-scores') ?? '') !== '', undefined, { timeout: 60_000 });
    const scores = JSON.parse((await page.getAttribute('[data-testid=robot-curve]', 'data-scores')) ?? '[]') as number[];
    expect(scores).toHaveLength(8);
    const diff = Math.max(...scores.map((s, i) => Math.abs(s - reference[i])));
    console.log(`robot e2e: page vs Node progress scores, max |difference| ${diff} over 8 frames`);
    expect(diff).toBeLessThan(1e-5);
    expect(await page.locator('[data-testid=robot-progress-chart] path').count()).toBeGreaterThan(1);

    // Dense reward: delta, then final, each the shaping module's value of the page's scores.
    const progress = scores.map(clampProgress);
    expect(await text(page, 'robot-dense')).toBe(denseReward(progress, 'delta').toFixed(3));
    const before = await text(page, 'robot-dense');
    await page.check('[data-testid=robot-shaping-final]');
    expect(await changed(page, 'robot-dense', before)).toBe(denseReward(progress, 'final').toFixed(3));
    await page.waitForFunction(() => new URLSearchParams(location.hash.split('?')[1] ?? '').get('r.shaping') === 'final', undefined, { timeout: 10_000 });

    // The success at the end is the episode's.
    expect(await text(page, 'robot-success')).toMatch(episode.success ? /^\s*Success/ : /^\s*Failure/);

    // Scrub to the start (pauses) and step: the canvas shows the renderer's frame of that step, pixel for pixel.
    await page.evaluate(() => {
      const el = document.querySelector<HTMLInputElement>('[data-testid="robot-scrub"]');
      if (!el) throw new Error('no scrubber');
      el.value = '0';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="robot-frame"]')?.textContent?.startsWith('step 0 '), undefined, { timeout: 10_000 });
    expect(await canvasRgb(page)).toEqual(Array.from(renderScene(episode.states[0]).rgb));
    await page.click('[data-testid=robot-step]');
    await page.waitForFunction(() => document.querySelector('[data-testid="robot-frame"]')?.textContent?.startsWith('step 1 '), undefined, { timeout: 10_000 });
    expect(await canvasRgb(page)).toEqual(Array.from(renderScene(episode.states[1]).rgb));
    await page.screenshot({ path: resolve(root, 'test-results/robot-view.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a policy rollout runs the committed BC policy in the worker and ends as it does in Node', async () => {
    const start = { taskId: 'stove-then-block:yellow', split: 'train' as const, index: 0 };
    const { model, meta } = loadCheckpoint(readFileSync(resolve(root, 'results/robot-bc/policy.ckpt')));
    const engine = CpuEngine.fromModel(model, { numThreads: 1 });
    let node;
    try {
      const task = taskById(start.taskId);
      [node] = await runEpisodes([{ task, initial: initialScene(task, start.split, start.index) }], modelPolicy(engine, policyFrameTokensOf(meta), { temperature: 0, seed: 1 }));
    } finally {
      await engine.dispose();
    }
    const { page, errors } = await openView(app, `#/train?domain=robot&r.task=${encodeURIComponent(start.taskId)}&r.source=policy`, { width: 1280, height: 900 });
    await modelsReady(page);
    await page.click('[data-testid=robot-run]');
    await page.waitForSelector('[data-testid=robot-player]', { timeout: 150_000 });
    expect(await text(page, 'robot-frame')).toMatch(new RegExp(` of ${node.actions.length}$`));
    expect(await text(page, 'robot-success')).toMatch(node.success ? /^\s*Success/ : /^\s*Failure/);
    await page.waitForFunction(() => (document.querySelector('[data-testid="robot-curve"]')?.getAttribute('data-scores') ?? '') !== '', undefined, { timeout: 60_000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a tampered checkpoint is refused with its name', async () => {
    const page = await app.browser.newPage();
    await page.route('**/models/robot/progress-model.ckpt', async (route) => {
      const body = Buffer.from(readFileSync(resolve(root, 'public/models/robot/progress-model.ckpt')));
      body[body.length - 1] ^= 1;
      await route.fulfill({ status: 200, body, headers: { 'Content-Type': 'application/octet-stream', 'Cross-Origin-Resource-Policy': 'same-origin' } });
    });
    await page.goto(`${app.url}#/train?domain=robot`);
    await page.waitForSelector('[data-testid=robot-models-error]', { timeout: 60_000 });
    expect(await text(page, 'robot-models-error')).toMatch(/public\/models\/robot\/progress-model\.ckpt: sha256 [0-9a-f]{16}…, manifest says [0-9a-f]{16}…; the file is corrupted or replaced — rebuild with npm run build:robot-models/);
    await page.close();
  });

  it('the companion\'s robot section: the paper\'s rows, our figures from the reports, our robot table where results/ has one', async () => {
    const report = JSON.parse(readFileSync(resolve(root, 'results/robot-progress/report.json'), 'utf8'));
    const tableFile = resolve(root, 'results/robot-table/summary.json');
    const table = existsSync(tableFile) ? (JSON.parse(readFileSync(tableFile, 'utf8')) as RobotTableSummary) : null;
    const { page, errors } = await openView(app, '#/paper?section=robot');
    await page.waitForSelector('[data-testid=robot-progress-table]', { timeout: 60_000 });
    await page.waitForSelector(table ? '[data-testid=robot-measured]' : '[data-testid=robot-not-measured]', { timeout: 60_000 });
    const paper = await text(page, 'robot-paper-table');
    for (const v of ['37.4', '38.3', '41.2']) expect(paper).toContain(v);
    const ours = await text(page, 'robot-progress-table');
    expect(ours).toContain(report.heldoutStates.framePearson.toFixed(2));
    expect(ours).toContain(`${report.heldoutTasks.episodes} (${report.heldoutTasks.successes})`);
    if (table) {
      // Every figure of ours comes from the summary the CLI wrote: the rows, the tests, the primary verdict.
      const wmrl = table.rows.find((r) => r.preset === 'robot-wmrl')!;
      if (wmrl.heldOut) expect(paper).toContain(formatInterval(wmrl.heldOut));
      expect(await page.locator('[data-testid=robot-table] tbody tr').count()).toBe(table.rows.length);
      expect(await page.locator('[data-testid=robot-table-tests] tbody tr').count()).toBe(table.tests.length);
      const primary = table.tests.find((t) => t.id === 'primary')!;
      // Text as read: the paragraph's source line breaks collapse to one space.
      const measured = (await text(page, 'robot-measured')).replace(/\s+/g, ' ');
      const counts = table.rows.map((r) => r.seeds.length);
      const [lo, hi] = [Math.min(...counts), Math.max(...counts)];
      expect(measured).toContain(lo === hi ? `has ${hi} seed${hi === 1 ? '' : 's'} a row` : `has ${lo} to ${hi} seeds a row so far`);
      if (primary.comparison.seeds.length > 0) {
        expect(measured).toContain(`${formatInterval(primary.comparison.interval)} points over ${primary.comparison.seeds.length} seed`);
        expect(measured).toContain(primary.verdict);
      } else {
        expect(measured).toContain('has no paired seed yet');
      }
    } else {
      expect(paper).toContain('not measured yet');
      expect(await text(page, 'robot-not-measured')).toContain('not measured yet');
    }
    // Robot table v2 (issue 46): its figures beside the paper's, and its verdicts marked as its summary marks them.
    const v2File = resolve(root, 'results/robot-table-v2/summary.json');
    const v2 = existsSync(v2File) ? (JSON.parse(readFileSync(v2File, 'utf8')) as RobotTableSummary) : null;
    if (v2 && v2.rows.some((r) => r.preset !== 'robot-sft' && r.heldOut)) {
      const measured = (await text(page, 'robot-measured-v2')).replace(/\s+/g, ' ');
      const done = v2.progress.reduce((n, r) => n + r.done.length, 0);
      const planned = v2.progress.reduce((n, r) => n + r.planned.length, 0);
      expect(measured).toContain(`${done} of ${planned} planned runs are in`);
      const r1 = v2.tests.find((t) => t.id === 'R1')!;
      if (r1.comparison.seeds.length > 0) expect(measured).toContain(`${formatInterval(r1.comparison.interval)} points over ${r1.comparison.seeds.length} seeds: ${shownVerdict(r1)}`);
      const r6 = v2.tests.find((t) => t.id === 'R6')!;
      if (r6.comparison.seeds.length > 0) expect(measured).toContain(`The progress reward alone minus GRPO: ${formatInterval(r6.comparison.interval)} points: ${shownVerdict(r6)}`);
      const reading = v2Reading(v2);
      if (reading) expect(measured).toContain(reading);
      const wmrl = v2.rows.find((r) => r.preset === 'robot-paper-wmrl')!;
      if (wmrl.heldOut) expect(paper).toContain(`${formatInterval(wmrl.heldOut)} (${wmrl.seeds.length} of 10 seeds)`);
      expect(await page.locator('[data-testid=robot-table-v2] tbody tr').count()).toBe(v2.rows.length);
      const verdicts = await page.locator('[data-testid=robot-table-v2-tests] tbody tr td:last-child').allTextContents();
      expect(verdicts).toEqual(v2.tests.map((t) => shownVerdict(t)));
    }
    expect(await text(page, 'robot-policy-table')).toMatch(/\d+ of 60 \(\d+%\)/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
