// A Train run as a user lives with it: it keeps going while another view is open, the Train view
// shows it live on return, it is saved after every step without asking, and a reload offers to
// resume it from the last saved step.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openView, useServedApp } from './browser.ts';

const steps = async (page: Page) => Number(await page.getAttribute('[data-testid=train-status]', 'data-steps'));

/** Waits until the Train view shows at least `n` finished steps. */
async function stepsAtLeast(page: Page, n: number): Promise<void> {
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=train-status]')?.getAttribute('data-steps')) >= k, n, { timeout: 240_000 });
}

describe('a Train run outside the view (#/train)', () => {
  const app = useServedApp({ webgpu: false });

  it('survives a switch to the Playground and back, is saved after every step, and a reload resumes it', { timeout: 900_000, tags: ['long'] }, async () => {
    const { page, errors } = await openView(app, `#/train?preset=wmrl`);
    // Small steps: B 2 x n 2, five of them (at rho 0.125 the first steps execute nothing).
    await page.fill('[data-testid=steps]', '5');
    await page.fill('[data-testid=groups]', '2');
    await page.fill('[data-testid=group-size]', '2');
    await page.click('[data-testid=start]');
    await stepsAtLeast(page, 1);

    // Away to the Playground mid-run, then back: the run is still there and still going.
    await page.click('nav a[href^="#/playground"]');
    await page.waitForSelector('[data-testid=playground]');
    expect(await page.locator('[data-testid=train-status]').count()).toBe(0);
    await page.click('nav a[href^="#/train"]');
    await page.waitForSelector('[data-testid=train-status]');
    const back = await steps(page);
    expect(back).toBeGreaterThanOrEqual(1);
    expect(back).toBeLessThan(5);
    expect(await page.getAttribute('[data-testid=train-status]', 'data-phase')).toBe('running');
    expect(await page.isDisabled('[data-testid=steps]')).toBe(true);
    expect(await page.locator('[data-testid=last-step]').count()).toBe(1);
    await stepsAtLeast(page, back + 1);
    // Saved automatically after the step just finished (the note follows once the write is done).
    const before = await steps(page);
    await page.waitForFunction(
      (k) => Number(document.querySelector('[data-testid=autosave-note]')?.textContent?.match(/saved in this browser after step (\d+)/)?.[1]) >= k,
      before,
      { timeout: 60_000 },
    );

    // A reload mid-run: the page offers the autosaved run, and resuming restores its steps.
    await page.reload();
    const offer = page.locator('[data-testid=resume-offer]');
    await offer.waitFor({ timeout: 60_000 });
    const offered = Number((await offer.textContent())?.match(/after step\s+(\d+)\s+of 5/)?.[1]);
    expect(offered).toBeGreaterThanOrEqual(before);
    await page.click('[data-testid=resume-autosaved]');
    await page.waitForSelector(`[data-testid=store-message]:has-text("Resumed wmrl, seed 1, at step ${offered}")`, { timeout: 120_000 });
    expect(await steps(page)).toBe(offered);
    expect(await page.inputValue('[data-testid=groups]')).toBe('2');
    expect(await page.locator('[data-testid=resume-offer]').count()).toBe(0);
    // It goes on from there to its planned end.
    await page.click('[data-testid=start]');
    await page.waitForSelector('[data-testid=train-status][data-phase=done]', { timeout: 480_000 });
    expect(await steps(page)).toBe(5);
    expect(await page.locator('[data-testid=train-error]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
