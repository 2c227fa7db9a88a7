// Values are checked where they are entered: an out-of-range setting is refused at its field before
// anything starts, and a CSV whose target column is empty is refused when it loads.
import { describe, expect, it } from 'vitest';
import { openView, useServedApp } from './browser.ts';

describe('validation at the field', () => {
  const app = useServedApp({ webgpu: false });

  it('Train: steps -3 and B 0 are refused at their fields, and nothing can start until they are fixed', async () => {
    const { page, errors } = await openView(app, `#/train`);
    await page.fill('[data-testid=steps]', '-3');
    expect(await page.locator('[data-testid=steps-problem]').textContent()).toBe('Steps must be a whole number from 1 to 500, got -3.');
    expect(await page.getAttribute('[data-testid=steps]', 'aria-invalid')).toBe('true');
    await page.fill('[data-testid=groups]', '0');
    expect(await page.locator('[data-testid=groups-problem]').textContent()).toMatch(/^B \(tasks \/ step\) must be a whole number from 1 to 32, got 0\.$/);
    for (const b of ['start', 'step-once', 'evaluate']) expect(await page.isDisabled(`[data-testid=${b}]`), b).toBe(true);
    await page.fill('[data-testid=steps]', '');
    expect(await page.locator('[data-testid=steps-problem]').textContent()).toMatch(/enter one/);

    await page.fill('[data-testid=steps]', '3');
    await page.fill('[data-testid=groups]', '2');
    expect(await page.locator('[role=alert]').count()).toBe(0);
    expect(await page.isEnabled('[data-testid=start]')).toBe(true);
    expect(await page.getAttribute('[data-testid=train-status]', 'data-phase')).toBe('idle');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Playground: a CSV whose target column is empty is refused at load, without an "inferred" type', async () => {
    const page = await app.browser.newPage();
    await page.goto(`${app.url}#/playground`);
    await page.click('[data-testid=mode-csv]');
    const csv = 'a,b,y\n' + Array.from({ length: 60 }, (_, i) => `${i},${"pqr"[i % 3]},`).join('\n');
    await page.setInputFiles('[data-testid=csv-input]', { name: 'empty-target.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const problem = page.locator('[data-testid=target-error]');
    await problem.waitFor();
    expect(await problem.textContent()).toBe('Target column: column "y" is empty: none of its 60 rows has a value; choose a target column that has values.');
    expect(await page.locator('[data-testid=type-note]').count()).toBe(0);
    expect(await page.locator('[data-testid=type-select] option').first().textContent()).toBe('inferred from the target');
    expect(await page.isDisabled('[data-testid=build-button]')).toBe(true);
    // A column with values is accepted, and its type is inferred from them.
    await page.selectOption('[data-testid=target-select]', 'b');
    expect(await page.locator('[data-testid=target-error]').count()).toBe(0);
    expect(await page.locator('[data-testid=type-note]').textContent()).toMatch(/^\s*Task type multiclass \(inferred/);
    expect(await page.isEnabled('[data-testid=build-button]')).toBe(true);
    await page.close();
  });
});
