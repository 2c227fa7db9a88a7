// Time from opening #/train to the first finished training step, the way a visitor meets the demo:
// the committed models, the view's default B and n and the preset `wmrl` unless --preset says another, one click on "One step".
// Prints each run and the median; the machine is shared, so quote the median and say what else ran.
// The view starts models, workers and sandbox as it opens; `--wait S` clicks S seconds after opening
// (a visitor reading the page first), and the click-to-step time shows what is left to wait for then.
//   npx tsx bench/first-step.ts [--runs 2] [--preset wmrl] [--wait 0]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchChromium, serveDist } from '../tests/e2e/browser.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' }, preset: { type: 'string', default: 'wmrl' }, wait: { type: 'string', default: '0' } } });
const waitMs = 1000 * Number(values.wait);
const served = await serveDist();
const browser = await launchChromium();
const times: number[] = [];
const fromClick: number[] = [];
try {
  for (let r = 0; r < Number(values.runs); r++) {
    // A fresh context each run: nothing cached in memory from the run before.
    const context = await browser.newContext();
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(`${served.url}#/train`);
    await page.selectOption('[data-testid=preset]', values.preset!);
    const b = await page.inputValue('[data-testid=groups]');
    const n = await page.inputValue('[data-testid=group-size]');
    const wait = waitMs - (performance.now() - t0);
    if (wait > 0) await page.waitForTimeout(wait);
    const tClick = performance.now();
    await page.click('[data-testid=step-once]');
    await page.waitForSelector('[data-testid=train-status][data-steps="1"]', { timeout: 600_000 });
    const s = (performance.now() - t0) / 1000;
    times.push(s);
    fromClick.push((performance.now() - tClick) / 1000);
    const last = (await page.locator('[data-testid=last-step]').textContent())?.replace(/\s+/g, ' ').trim();
    console.log(`run ${r + 1}: ${s.toFixed(1)} s from opening #/train to step 1, ${fromClick[r].toFixed(1)} s from the click (${values.preset}, B ${b} x n ${n}, click at ${((tClick - t0) / 1000).toFixed(1)} s); ${last}`);
    await context.close();
  }
} finally {
  await browser.close();
  await served.close();
}
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
console.log(`first step: median ${median(times).toFixed(1)} s from opening, ${median(fromClick).toFixed(1)} s from the click, over ${times.length} runs (click after ${values.wait} s); ${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
