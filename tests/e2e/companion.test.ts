// The companion view (#/paper) in a real browser: every section renders a figure computed by the
// project's method code, moving a control changes the numbers the figure shows, and the page saves a
// full-page screenshot for a human to look at.
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useServedApp } from './browser.ts';

const artifacts = resolve(import.meta.dirname, '../../test-results');
const SECTIONS = ['anchors', 'advantages', 'debias', 'denoise', 'theory', 'paper'];

/** Sets a range input the way a user's drag ends: new value, then an input event. */
async function setRange(page: Page, testid: string, value: number): Promise<void> {
  await page.evaluate(
    ([id, v]) => {
      const el = document.querySelector<HTMLInputElement>(`[data-testid="${id}"]`);
      if (!el) throw new Error(`no control ${id}`);
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    [testid, value] as const,
  );
}

async function text(page: Page, testid: string): Promise<string> {
  return (await page.locator(`[data-testid="${testid}"]`).first().textContent()) ?? '';
}

/** Waits until the element's text differs from `before`, and returns the new text. */
async function changed(page: Page, testid: string, before: string): Promise<string> {
  await page.waitForFunction(
    ([id, b]) => (document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '') !== b,
    [testid, before] as const,
    { timeout: 10_000 },
  );
  return text(page, testid);
}

describe('the paper, live (#/paper)', () => {
  const app = useServedApp({ webgpu: false });

  it('renders every section with a live figure, reacts to its controls, and saves a screenshot', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}#/paper`);
    await page.waitForSelector('[data-testid=companion]', { timeout: 60_000 });

    for (const id of SECTIONS) {
      const figures = page.locator(`[data-testid="section-${id}"] svg[role=img]`);
      expect(await figures.count(), `section ${id} has a figure`).toBeGreaterThan(0);
      expect((await figures.first().getAttribute('aria-label'))?.length ?? 0).toBeGreaterThan(10);
    }

    // 1. Anchors: more rho, more anchors; the invariant's numbers are on the page.
    const anchors = await text(page, 'anchors-total');
    expect(anchors).toMatch(/^32 of 320 groups$/);
    await setRange(page, 'anchors-rho', 0.3);
    expect(await changed(page, 'anchors-total', anchors)).toBe('96 of 320 groups');
    await setRange(page, 'anchors-batch', 2);
    await setRange(page, 'anchors-rho', 0.1);
    expect(await text(page, 'anchors-empty')).toMatch(/^3\d of 40$/);

    // 2. Advantages: editing a reward changes them; with n = 2 'std' shows +-0.71.
    const adv = await text(page, 'adv-values');
    await setRange(page, 'adv-r0', 0.9);
    await changed(page, 'adv-values', adv);
    await setRange(page, 'adv-n', 2);
    await page.waitForFunction(() => document.querySelectorAll('input[data-testid^="adv-r"]').length === 2);
    const bars = await text(page, 'adv-chart');
    expect(bars).toContain('0.71');
    expect(bars).toContain('-0.71');

    // 3. Debiasing: more steps, more pairs, a better calibrator.
    const mae = await text(page, 'debias-mae-linear');
    await setRange(page, 'debias-steps', 80);
    const maeAfter = await changed(page, 'debias-mae-linear', mae);
    expect(Number(maeAfter)).toBeLessThan(Number(mae));

    // 4. Denoising: an unreadable score moves weight to the anchors and lambda toward 0.
    await page.waitForFunction(() => document.querySelector('[data-testid=denoise-sweep-count]')?.textContent === '6/6', undefined, { timeout: 30_000 });
    const wA = Number(await text(page, 'denoise-wa'));
    const lambda = Number(await text(page, 'denoise-lambda'));
    const slope = await text(page, 'theory-slope');
    await setRange(page, 'denoise-readability', 0);
    const wABlind = Number(await changed(page, 'denoise-wa', String(wA.toFixed(3))));
    expect(wABlind).toBeGreaterThan(wA + 0.2);
    expect(Number(await text(page, 'denoise-lambda'))).toBeLessThan(lambda);
    // 5. Theory follows the same runs.
    expect(await text(page, 'theory-slope')).not.toBe(slope);
    await setRange(page, 'denoise-readability', 0.9);
    await changed(page, 'denoise-wa', wABlind.toFixed(3));

    // 6. Ours beside the paper's, in one table whose every label says which side is which. Our own
    // results come from the committed experiment summary, published at build time; the main table shown
    // first is main-v3, decided by its plan and still being run.
    const ours = page.locator('[data-testid=ours-table]');
    await ours.waitFor({ timeout: 30_000 });
    expect(await text(page, 'ours-head')).toBe('ours, measured');
    expect(await text(page, 'paper-head')).toBe("the paper's, reported");
    const v3 = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../results/main-v3/summary.json'), 'utf8'));
    const done = v3.mainTableProgress.reduce((n: number, r: { done: number[] }) => n + r.done.length, 0);
    const planned = v3.mainTableProgress.reduce((n: number, r: { planned: number[] }) => n + r.planned.length, 0);
    const source = (await text(page, 'ours-source')).replace(/\s+/g, ' ');
    expect(source).toMatch(/^Ours, measured \(run main-v3: results\/main-v3\/summary\.json, committed; seeds 3–18 over its rows, each row's count in its column; 20 steps of B 8 × n 4\): held-out avg@8/);
    expect(source).toContain("Mean over checkpoints: the held-out score averaged over the evaluations along training, the plan's endpoint");
    if (done < planned) expect(source).toContain('n of the m planned seeds have finished; the table is still being run');
    expect((await text(page, 'paper-source')).replace(/\s+/g, ' ')).toMatch(/^The paper's, reported \(its main table and 4B ablations, arXiv 2608\.12564\)/);
    expect(await text(page, 'paper-why')).toContain('cannot be compared number for number');
    expect(await page.locator('[data-testid=section-paper] a[href="https://arxiv.org/abs/2608.12564"]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=section-paper] a[href="https://github.com/xiyuanyang45/WMRL"]').count()).toBe(1);
    // The page's header links the paper and the authors' code too; the bias bound is not called B (B is groups a step).
    expect(await page.getAttribute('[data-testid=paper-link]', 'href')).toBe('https://arxiv.org/abs/2608.12564');
    expect(await page.getAttribute('[data-testid=authors-code-link]', 'href')).toBe('https://github.com/xiyuanyang45/WMRL');
    expect(await page.locator('#theory').textContent()).toMatch(/bounds the bias \(the paper writes it B; here B is the number of groups a step\)/);
    expect(await page.locator('[data-testid=section-paper]').textContent()).not.toContain("paper's numbers, not ours");
    // one row holds both sides: our WMRL on the authors' rules and the paper's 4B WMRL (GPU-hours, MLE, DSBench)
    const wmrlRow = ours.locator('tr[data-preset=paper-wmrl] td');
    expect((await wmrlRow.first().textContent())).toContain("WMRL (authors' rules)");
    expect((await wmrlRow.allTextContents()).slice(-3)).toEqual(['286', '16.4', '28.8']);
    // the rows shown equal the README's: seeds (finished of planned while a row runs), mean over checkpoints, last step
    const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const readmeRow = (label: string) => readme.match(new RegExp(`^\\| ${label} \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\|`, 'm'))?.slice(1).map((c) => c.trim());
    const pageRow = async (preset: string) => (await ours.locator(`tr[data-preset=${preset}] td`).allTextContents()).slice(1, 4).map((c) => c.trim());
    expect(readmeRow('WMRL')?.[1]).toMatch(/^\d+\.\d{2} \[/);
    expect(await pageRow('paper-wmrl')).toEqual(readmeRow('WMRL'));
    expect(await pageRow('paper-grpo-all-real')).toEqual(readmeRow('all-real GRPO'));
    expect(await pageRow('paper-world-model-only')).toEqual(readmeRow('world model only'));
    // the plan's decision: the primary test, what it can detect and the progress, read from its summary and quoted by the README
    const plan = page.locator('[data-testid=ours-plan]');
    await plan.waitFor();
    const primary = v3.mainTable.find((t: { id: string }) => t.id === 'primary');
    const iv = primary.comparison.interval;
    const prose = readme.replace(/\s+/g, ' ');
    expect(await text(page, 'plan-primary')).toBe(`${iv.mean.toFixed(2)} [${iv.low.toFixed(2)}, ${iv.high.toFixed(2)}]`);
    expect(prose).toContain(`WMRL minus all-real GRPO, held-out averaged over the checkpoints and paired by seed, is ${await text(page, 'plan-primary')} over`);
    expect(await text(page, 'plan-primary-verdict')).toBe(primary.verdict);
    expect((await text(page, 'plan-progress')).replace(/\s+/g, ' ')).toContain(done === planned ? `(${planned} runs)` : `In progress: ${done} of ${planned} planned runs`);
    const rowDone = (preset: string) => v3.mainTableProgress.some((r: { preset: string; done: number[]; planned: number[] }) => r.preset === preset && r.done.length === r.planned.length);
    expect((await text(page, 'plan-primary-finality')).replace(/\s+/g, ' ')).toMatch(rowDone(primary.a) && rowDone(primary.b) ? /^final: both its rows/ : /^provisional until paper-/);
    expect(await page.locator('[data-testid=plan-tests] tbody tr').count()).toBe(v3.mainTable.length - 1);
    // beside each test not yet decided, what it can detect at its planned seeds; nothing beside a decided one
    for (const t of v3.mainTable.filter((x: { family: string }) => x.family === 'A')) {
      const cell = (await plan.locator(`tr[data-test=${t.id}] [data-testid=plan-detectable]`).textContent())!.trim();
      if (t.verdict === 'holds' || t.verdict === 'fails') expect(cell).toBe('–');
      else if (t.comparison.seeds.length >= 3) expect(cell).toMatch(/^\d+\.\d+ at (10|16) seeds$/);
    }
    // what the table falls short of: each test of the claims that ran and does not hold, none that holds
    for (const t of v3.mainTable.filter((x: { family: string }) => x.family === 'A' || x.family === 'primary')) {
      const listed = await plan.locator(`[data-testid=plan-shortfalls] [data-shortfall=${t.id}]`).count();
      expect(listed, t.id).toBe(t.verdict !== 'holds' && t.comparison.interval ? 1 : 0);
      if (listed) expect((await plan.locator(`[data-shortfall=${t.id}]`).textContent())!.replace(/\s+/g, ' ')).toContain(`${t.comparison.interval.mean.toFixed(t.metric === 'meanAuthorsWeight' ? 3 : 2)} measured, ${t.verdict}`);
    }
    // claim 1's compute ratio (test A1) and the world model's build priced in runs, as the README quotes them
    const a1 = (await plan.locator('tr[data-test=A1] td').allTextContents())[3];
    expect(prose).toContain(`All-real GRPO used ${a1.replace(' [', 'x [')} WMRL's training busy time`);
    const breakEven = (await text(page, 'plan-break-even')).replace(/\s+/g, ' ').match(/shared over more than (\S+ \[[^\]]+\] runs \(per seed [\d.]+ to [\d.]+)/)?.[1];
    expect(breakEven).toBeDefined();
    expect(prose).toContain(`shared over more than ${breakEven}`);
    // beside the verdict, the gap's trend along training and claim 4's weaker comparator, as the README quotes them
    expect(prose).toContain(`WMRL minus all-real GRPO is ${(await text(page, 'plan-trend-gaps')).replace(/, (\S+)$/, ' and $1')} after steps`);
    expect(await text(page, 'plan-trend-slope')).toMatch(/^-\d+\.\d{2}$/);
    expect(prose).toContain(`scores below the small one, ${await text(page, 'plan-claim4-gap')} paired by seed`);
    // claim 1's compute measured alone: the rerun folder's summary (experiment --rerun-of results/main-v3), shown beside the table's
    const alone = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../results/main-v3-compute/summary.json'), 'utf8')).rerunOf;
    const ai = alone.compute.alone.interval;
    expect(await text(page, 'compute-alone-seeds')).toBe(alone.compute.alone.perSeed.map((x: number) => x.toFixed(2)).join(', '));
    expect(await text(page, 'compute-alone-ratio')).toBe(`${ai.mean.toFixed(2)} [${ai.low.toFixed(2)}, ${ai.high.toFixed(2)}]×`);
    expect((await text(page, 'compute-alone-same')).replace(/\s+/g, ' ')).toBe(`Each of the ${alone.compared} reruns did what its twin did, timings aside: rewards count work, not time.`);
    // what the test can detect, from the same summary's SD (the plan: 11.0 points at the pilot's SD over 16 seeds)
    expect((await text(page, 'plan-power')).replace(/\s+/g, ' ')).toContain(`At its 16 planned seeds the test detects (80% power) a true difference of about 11.0 points at the pilot's SD of 14.7 (the plan's figure), ${((2.1314 + 0.8662) * iv.sd / 4).toFixed(1)} at the SD measured so far (${iv.sd.toFixed(1)})`);
    // the older rules' claims (none of whose rows it runs) are not shown
    expect(await page.locator('[data-testid=ours-claims]').count()).toBe(0);
    // the plan's picture: its primary pair first, every row on request
    const legend = () => page.locator('[data-testid=ours-curve] .legend').textContent();
    expect(await legend()).toMatch(/paper-grpo-all-real \(\d+ seeds\)[\s\S]*paper-wmrl \(\d+ seeds\)/);
    expect(await legend()).not.toContain('paper-world-model-only');
    await page.locator('[data-testid=curve-every-row]').check();
    await page.waitForFunction(() => document.querySelector('[data-testid=ours-curve] .legend')?.textContent?.includes('paper-world-model-only'));
    await page.locator('[data-testid=curve-every-row]').uncheck();
    mkdirSync(artifacts, { recursive: true });
    await page.locator('[data-testid=section-paper]').screenshot({ path: resolve(artifacts, 'companion-results.png') });
    // rows only the paper has show a dash on our side
    const nineB = ours.locator('tr', { hasText: '9B WMRL' }).locator('td');
    expect((await nineB.allTextContents()).slice(1, 6)).toEqual(['–', '–', '–', '–', '–']);
    // The reader can switch to any other published table: the older ones are kept as records.
    const names = await page.locator('[data-testid=ours-pick] option').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['main', 'main-v2', 'main-v3', 'claim4-medium']));
    // the compute reruns picked on their own: read against their twins, not as the plan's table in progress
    await page.selectOption('[data-testid=ours-pick]', 'main-v3-compute');
    await page.waitForFunction(() => document.querySelector('[data-testid=ours-table] caption')?.textContent?.includes('run main-v3-compute'));
    expect(await page.locator('[data-testid=ours-plan]').count()).toBe(0);
    expect(await text(page, 'compute-alone-ratio')).toBe(`${ai.mean.toFixed(2)} [${ai.low.toFixed(2)}, ${ai.high.toFixed(2)}]×`);
    // the controls experiment, decided by its own plan: how far it has come and each reading as summary.md words it
    await page.selectOption('[data-testid=ours-pick]', 'controls-40');
    await page.waitForFunction(() => document.querySelector('[data-testid=ours-table] caption')?.textContent?.includes('run controls-40'));
    const controlsMd = readFileSync(resolve(import.meta.dirname, '../../results/controls-40/summary.md'), 'utf8');
    const [, controlsDone, controlsPlanned] = controlsMd.match(/In progress: (\d+) of (\d+) planned runs finished/) ?? [];
    if (controlsDone) {
      expect((await text(page, 'controls-progress')).replace(/\s+/g, ' ')).toContain(`In progress: ${controlsDone} of ${controlsPlanned} planned runs have finished`);
      expect((await text(page, 'ours-source')).replace(/\s+/g, ' ')).toContain('n of the m planned seeds have finished');
      // each row's seeds as the plan counts them: the count once a row is done, "n of m" while it is not
      let rowsShown = 0;
      for (const [, preset, done, planned] of controlsMd.matchAll(/^\| ([\w-]+) \| (\d+) of (\d+) \(/gm)) {
        const cell = ours.locator(`tr[data-preset=${preset}] [data-testid=seeds]`);
        if ((await cell.count()) === 0) continue;
        rowsShown++;
        expect((await cell.textContent())?.trim()).toBe(done === planned ? planned : `${done} of ${planned}`);
      }
      expect(rowsShown).toBeGreaterThan(1);
    } else expect(await text(page, 'controls-progress')).toContain('the readings are final');
    const primaryRow = controlsMd.match(/^\| P \|.*\| ([^|]+) \|$/m)?.[1].trim();
    expect(await text(page, 'controls-primary-reading')).toBe(primaryRow);
    const [, sdSoFar, detectSoFar] = controlsMd.match(/measured so far \(([\d.]+) over \d+ seeds\), the primary test would detect ([\d.]+) points/) ?? [];
    expect((await text(page, 'controls-detectable')).replace(/\s+/g, ' ')).toContain(`(SD ${sdSoFar}), its 16 seeds would detect about ${detectSoFar} points`);
    expect(await page.locator('[data-testid=controls-tests] tbody tr').count()).toBe(5);
    await page.locator('[data-testid=section-paper]').screenshot({ path: resolve(artifacts, 'companion-controls-40.png') });
    expect(await page.locator('[data-testid=ours-plan]').count()).toBe(0);
    await page.selectOption('[data-testid=ours-pick]', 'claim4-medium');
    await page.waitForFunction(() => document.querySelector('[data-testid=ours-table] caption')?.textContent?.includes('run claim4-medium'));
    expect(await ours.textContent()).toMatch(/SFT policy \(no RL\)\s*5\s*\d+\.\d \[/);
    // the rerun with the second models (our reading): the headline picture (one mean line and two interval
    // lines per preset evaluated along training), claim 1's ratio and claim 5's anchor weight, from its summary
    await page.selectOption('[data-testid=ours-pick]', 'main-v2');
    await page.waitForFunction(() => document.querySelector('[data-testid=ours-table] caption')?.textContent?.includes('run main-v2'));
    expect((await text(page, 'ours-source')).replace(/\s+/g, ' ')).toMatch(/^Ours, measured \(run main-v2: results\/main-v2\/summary\.json, committed; seeds 1–5 over its rows, each row's count in its column; 20 steps of B 8 × n 4\): held-out avg@8/);
    expect((await ours.locator('tr[data-preset=wmrl] td').allTextContents()).slice(-3)).toEqual(['286', '16.4', '28.8']);
    expect((await ours.locator('tr[data-preset=wmrl] [data-testid=held-out]').textContent())?.trim()).toMatch(/^\d+\.\d \[/);
    await page.locator('[data-testid=ours-curve] svg[role=img]').waitFor();
    expect(await page.locator('[data-testid=ours-curve] path[fill=none]').count()).toBeGreaterThanOrEqual(6);
    expect(await page.locator('[data-testid=ours-curve] .legend').textContent()).toMatch(/wmrl \(\d seeds?\)[\s\S]*grpo-all-real \(\d seeds?\)/);
    const v2 = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../results/main-v2/summary.json'), 'utf8'));
    const r2 = v2.claim1BusyRatio.interval;
    expect(await text(page, 'ours-ratio')).toBe(`${r2.mean.toFixed(1)} [${r2.low.toFixed(1)}, ${r2.high.toFixed(1)}]×`);
    expect(await text(page, 'ours-claim5')).toMatch(/-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]/);
    expect(await page.locator('[data-testid=ours-claims] tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=ours-plan]').count()).toBe(0);
    await page.locator('[data-testid=section-paper]').screenshot({ path: resolve(artifacts, 'companion-main-v2.png') });
    await page.selectOption('[data-testid=ours-pick]', 'main');
    await page.waitForFunction(() => document.querySelector('[data-testid=ours-table] caption')?.textContent?.includes('run main:'));
    // the first models' table has no curve; its claims are decided from its run files (claim 1 holds there)
    expect(await page.locator('[data-testid=ours-curve]').count()).toBe(0);
    const claims = page.locator('[data-testid=ours-claims] tbody tr');
    expect(await claims.count()).toBe(6);
    expect((await claims.nth(0).textContent())?.trim()).toMatch(/^1\. WMRL needs less compute[\s\S]*grpo-all-real \/ wmrl: 3\.1 \[2\.4, 3\.8\]\s*holds$/);

    // Recomputation times, as measured by the page itself.
    const times: Record<string, number> = {};
    for (const id of ['anchors', 'advantages', 'debias', 'denoise']) {
      times[id] = Number((await text(page, `ms-${id}`)).match(/([\d.]+) ms/)?.[1]);
      expect(times[id]).toBeLessThan(1000);
    }
    console.log('companion recompute ms', JSON.stringify(times));

    await page.waitForFunction(() => document.querySelector('[data-testid=denoise-sweep-count]')?.textContent === '6/6', undefined, { timeout: 30_000 });
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: resolve(artifacts, 'companion.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the Overview prints the README's figures about the models (same manifest, same formatting)", async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${app.url}#/`);
    const shown = page.locator('[data-testid=wm-train-programs]');
    await shown.waitFor({ timeout: 30_000 });
    const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(await shown.textContent()).toBe(readme.match(/trained on ([\d,]+) distinct executed programs/)?.[1]);
    expect(await text(page, 'policy-avg')).toBe(readme.match(/held-out avg@\d+ is ([\d.]+)/)?.[1]);
    // The story: plain words first, one step in five stages, the measured headline from the committed summary
    // (the README quotes the same compute ratio), a verdict read from the intervals, and how long things take.
    expect(await page.locator('[data-testid=overview-loop] li').count()).toBe(5);
    await page.locator('[data-testid=overview-ratio]').waitFor({ timeout: 30_000 });
    const ratio = (await text(page, 'overview-ratio')).trim();
    expect(readme).toContain(`All-real GRPO used ${ratio.replace(' [', 'x [')}`);
    // the main table is decided by its plan: its primary pair on the plan's endpoint, as the README's table quotes it
    expect(await text(page, 'overview-paper-wmrl')).toBe(readme.match(/\| WMRL \| [^|]+ \| ([^|]+) \|/)?.[1].trim());
    expect(await text(page, 'overview-paper-grpo-all-real')).toBe(readme.match(/\| all-real GRPO \| [^|]+ \| ([^|]+) \|/)?.[1].trim());
    expect(await text(page, 'overview-verdict')).toMatch(/^By the plan's primary test WMRL is not worse than all-real GRPO by 5 points \(WMRL minus all-real GRPO -?\d+\.\d{2} \[[^\]]+\], final\)/);
    // the trend beside it, with the first and last checkpoint's gap as the README quotes them
    const [first, last] = (await text(page, 'overview-verdict')).match(/the gap goes from ([+-][\d.]+) after step 5 to ([+-][\d.]+) after step 20/)!.slice(1);
    expect(readme).toMatch(new RegExp(`WMRL minus all-real GRPO is \\${first}, .* and \\${last} after steps 5,`));
    expect(await text(page, 'overview-times')).toMatch(/#\/train/);
    await page.close();
  });

  it('a hover over a chart reads out the values under the pointer, and step axes tick at whole steps', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${app.url}#/paper?section=denoise`);
    const chart = page.locator('[data-testid=denoise-weights]');
    await chart.locator('svg path').first().waitFor({ timeout: 60_000 });
    expect(await chart.locator('[data-testid=chart-readout]').count()).toBe(0);
    const box = (await chart.locator('svg').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.4);
    const readout = chart.locator('[data-testid=chart-readout]');
    await readout.waitFor({ timeout: 5_000 });
    // one row per line, each "label: value at step N" with a whole step
    const rows = await readout.locator('div').allTextContents();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) expect(r).toMatch(/^.+: [-\d.e]+ at step \d+$/);
    const ticks = await chart.locator('svg .axis text[text-anchor=middle]').allTextContents();
    const steps = ticks.filter((t) => /^[\d.]+$/.test(t)).map(Number);
    expect(steps.length).toBeGreaterThanOrEqual(2);
    for (const t of steps) expect(Number.isInteger(t), `tick ${t}`).toBe(true);
    await page.mouse.move(box.x - 20, box.y - 20);
    await expect.poll(() => readout.count()).toBe(0);
    await page.close();
  });

  it('shows its formulas as math (KaTeX, with its fonts from this site), none as TeX source', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(app.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    await page.goto(`${app.url}#/paper`);
    await page.waitForSelector('[data-testid=companion] .katex', { timeout: 60_000 });
    expect(await page.locator('.math-source').count(), 'formulas KaTeX could not parse').toBe(0);
    expect(await page.locator('[data-testid=companion] .katex').count()).toBeGreaterThan(20);
    // The fusion weights are a display formula, with a real fraction.
    const fusion = page.locator('[data-testid=section-denoise] .katex-display');
    expect(await fusion.count()).toBe(1);
    expect(await fusion.locator('.mfrac').count()).toBeGreaterThan(0);
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').map((f) => f.family);
    });
    expect(fonts).toContain('KaTeX_Main');
    expect(elsewhere, 'requests outside the served app').toEqual([]);
    await page.close();
  });
});
