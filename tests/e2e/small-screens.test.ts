// Every view on a phone-sized screen (390 px wide): no sideways scrolling, and no console error
// on any view (the favicon is there), the section 6 heading says whose results it shows.
import { describe, expect, it } from 'vitest';
import { useServedApp } from './browser.ts';

const VIEWS = ['#/', '#/paper', '#/train', '#/train?domain=robot', '#/playground'];

describe('every view at 390 px', () => {
  const app = useServedApp({ webgpu: false });

  it('fits the width, logs no console error, and names section 6 for what it shows', async () => {
    const page = await app.browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(e.message));
    for (const view of VIEWS) {
      await page.goto(`${app.url}${view}`);
      await page.waitForLoadState('networkidle');
      // Content that loads after the view: the paper's measured results, the Playground's task card.
      if (view === '#/paper') await page.waitForSelector('[data-testid=ours-table]', { timeout: 30_000 });
      if (view === '#/playground') await page.waitForSelector('[data-testid=task-card]', { timeout: 30_000 });
      const wide = await page.evaluate(() => {
        const w = document.documentElement.clientWidth;
        const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1 && getComputedStyle(e).position !== 'fixed');
        return { scroll: document.documentElement.scrollWidth, client: w, over: over.slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className}`) };
      });
      expect(wide.scroll, `${view} scrolls sideways: ${wide.over.join(', ')}`).toBeLessThanOrEqual(wide.client);
    }
    await page.goto(`${app.url}#/paper`);
    expect(await page.locator('#paper-title').textContent()).toMatch(/Results: ours, measured, beside the paper's/);
    // Chart text stays readable on a phone: tick labels are drawn at least 9 px tall (a fixed 560-unit
    // view box shrank them to about 6 px).
    await page.waitForSelector('figure.xy svg .axis text');
    const tickPx = await page.evaluate(() => Math.min(...[...document.querySelectorAll('figure.xy svg .axis text')].slice(0, 20).map((t) => {
      const svg = (t as SVGTextElement).ownerSVGElement!;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return parseFloat(getComputedStyle(t).fontSize) * scale;
    })));
    expect(tickPx).toBeGreaterThanOrEqual(9);
    expect(await page.evaluate(() => fetch('favicon.svg').then((r) => r.status))).toBe(200);
    expect(errors).toEqual([]);
    await page.close();
  });
});
