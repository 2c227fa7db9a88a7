// Time from opening #/train to the first finished training step, the way a visitor meets the demo:
// the committed models, the view's default settings (preset, B, n), one click on "One step".
// Prints each run and the median; the machine is shared, so quote the median and say what else ran.
//   npx tsx bench/first-step.ts [--runs 2] [--preset wmrl]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchChromium, serveDist } from '../tests/e2e/browser.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' }, preset: { type: 'string', default: 'wmrl' } } });
const served = await serveDist();
const browser = await launchChromium();
const times: number[] = [];
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
    await page.click('[data-testid=step-once]');
    await page.waitForSelector('[data-testid=train-status][data-steps="1"]', { timeout: 600_000 });
    const s = (performance.now() - t0) / 1000;
    times.push(s);
    const last = (await page.locator('[data-testid=last-step]').textContent())?.replace(/\s+/g, ' ').trim();
    console.log(`run ${r + 1}: ${s.toFixed(1)} s from opening #/train to step 1 (${values.preset}, B ${b} x n ${n}); ${last}`);
    await context.close();
  }
} finally {
  await browser.close();
  await served.close();
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
console.log(`first step: median ${median.toFixed(1)} s over ${times.length} runs; ${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
