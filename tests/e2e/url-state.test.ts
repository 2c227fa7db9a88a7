// A link reproduces the view: the settings in the URL's hash query are applied when the link opens,
// the URL follows what the user changes, a reload keeps it, and an unknown route says so.
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { editorText, openView, setEditorText, useServedApp } from './browser.ts';

const query = (page: Page) => page.evaluate(() => location.hash.split('?')[1] ?? '');
const param = async (page: Page, key: string) => page.evaluate((k) => new URLSearchParams(location.hash.split('?')[1] ?? '').get(k), key);

/** Waits until the URL's hash query has `key` = `value` (null: absent). */
async function urlHas(page: Page, key: string, value: string | null): Promise<void> {
  await page.waitForFunction(([k, v]) => new URLSearchParams(location.hash.split('?')[1] ?? '').get(k) === v, [key, value] as const, { timeout: 10_000 });
}

/**
 * Opens `url` as a new document. A hash change followed by a reload can race the page's own write of
 * the URL (the program link is written 300 ms after an edit), which may drop the link before the reload;
 * leaving for about:blank first makes the URL the document loads exactly `url`.
 */
async function loadFresh(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
}

describe('URL state', () => {
  const app = useServedApp({ webgpu: false });

  it('Train: a link with settings fills the form, the URL follows the form, and a reload keeps it', async () => {
    const { page, errors } = await openView(app, `#/train?preset=wmrl-ppi&steps=7&B=2&n=3&seed=5&rho=0.5&lr=0.0001&kl=0.04&policy=cpu`);
    await page.waitForSelector('[data-testid=steps]');
    expect(await page.inputValue('[data-testid=preset]')).toBe('wmrl-ppi');
    expect(await page.inputValue('[data-testid=steps]')).toBe('7');
    expect(await page.inputValue('[data-testid=groups]')).toBe('2');
    expect(await page.inputValue('[data-testid=group-size]')).toBe('3');
    expect(await page.inputValue('[data-testid=seed]')).toBe('5');
    expect(await page.inputValue('[data-testid=rho]')).toBe('0.5');
    expect(await page.inputValue('[data-testid=lr]')).toBe('0.0001');
    expect(await page.inputValue('[data-testid=kl-beta]')).toBe('0.04');
    expect(await page.inputValue('[data-testid=policy-backend]')).toBe('cpu');

    await page.fill('[data-testid=steps]', '9');
    await urlHas(page, 'steps', '9');
    await page.fill('[data-testid=groups]', '8'); // the default: left out of the URL
    await urlHas(page, 'B', null);
    await page.reload();
    await page.waitForSelector('[data-testid=steps]');
    expect(await page.inputValue('[data-testid=steps]')).toBe('9');
    expect(await page.inputValue('[data-testid=groups]')).toBe('8');
    expect(await page.inputValue('[data-testid=preset]')).toBe('wmrl-ppi');
    // A link followed in the same page applies too; an out-of-range value in it is refused at its
    // field, like a typed one, and stays through a reload.
    await page.goto(`${app.url}#/train?steps=-3`);
    expect(await page.locator('[data-testid=steps-problem]').textContent()).toMatch(/got -3/);
    expect(await param(page, 'steps')).toBe('-3');
    await page.reload();
    expect(await page.locator('[data-testid=steps-problem]').textContent()).toMatch(/got -3/);
    expect(await page.isDisabled('[data-testid=start]')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Paper: sliders, selects and the section come from the link, and the menu brings them back', async () => {
    const { page, errors } = await openView(app, `#/paper?an.rho=0.3&db.shape=optimistic&db.steps=40&adv.n=2&section=debias`, { width: 1280, height: 900 });
    await page.waitForSelector('[data-testid=companion]');
    expect(await page.inputValue('[data-testid=anchors-rho]')).toBe('0.3');
    expect(await page.locator('[data-testid=anchors-total]').textContent()).toBe('96 of 320 groups');
    expect(await page.inputValue('[data-testid=debias-shape]')).toBe('optimistic');
    expect(await page.inputValue('[data-testid=debias-steps]')).toBe('40');
    expect(await page.locator('input[data-testid^="adv-r"]').count()).toBe(2);
    // The section link scrolled the page to its section.
    await page.waitForFunction(() => Math.abs(document.getElementById('debias')!.getBoundingClientRect().top) < 50, null, { timeout: 10_000 });

    // A control moved: the URL follows (the section link keeps the other values).
    await page.selectOption('[data-testid=denoise-shape]', 'pessimistic');
    await urlHas(page, 'dn.shape', 'pessimistic');
    expect(await page.getAttribute('nav.toc a:has-text("4 Denoising")', 'href')).toMatch(/dn\.shape=pessimistic.*section=denoise|section=denoise.*dn\.shape=pessimistic/);
    await page.click('nav.toc a:has-text("5 Theory")');
    await urlHas(page, 'section', 'theory');
    expect(await param(page, 'an.rho')).toBe('0.3');

    // Away to another view and back by the menu: the paper comes back as it was left.
    await page.click('nav a:has-text("Train")');
    await page.waitForSelector('[data-testid=steps]');
    await page.click('nav a:has-text("The paper, live")');
    await page.waitForSelector('[data-testid=companion]');
    expect(await page.inputValue('[data-testid=denoise-shape]')).toBe('pessimistic');
    expect(await page.inputValue('[data-testid=anchors-rho]')).toBe('0.3');
    await page.reload();
    await page.waitForSelector('[data-testid=companion]');
    expect(await page.inputValue('[data-testid=denoise-shape]')).toBe('pessimistic');
    expect(await query(page)).toMatch(/dn\.shape=pessimistic/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Playground: the task and the (compressed) program come from the link, and edits go back into it', async () => {
    const page = await app.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const program = '# from a link: ünïcode kept\nimport json\nprint(json.dumps({"hello": "world"}))\n';
    const packed = deflateRawSync(Buffer.from(program)).toString('base64url');
    await page.goto(`${app.url}#/playground?task=mlbench_Sonar&p=${packed}`);
    await page.waitForFunction(() => (document.querySelector('[data-testid=task-card]')?.textContent ?? '').includes('mlbench_Sonar'), null, { timeout: 30_000 });
    expect(await page.inputValue('[data-testid=task-select]')).toBe('mlbench_Sonar');
    expect(await editorText(page, 'program')).toBe(program);

    await setEditorText(page, 'program', `${program}# edited\n`);
    await page.waitForFunction((before) => new URLSearchParams(location.hash.split('?')[1] ?? '').get('p') !== before, packed, { timeout: 10_000 });
    await page.reload();
    await page.waitForFunction(() => (document.querySelector('[data-testid=task-card]')?.textContent ?? '').includes('mlbench_Sonar'), null, { timeout: 30_000 });
    expect(await editorText(page, 'program')).toBe(`${program}# edited\n`);

    // A shared link's program takes the editor as a draft: the program saved for that task is kept
    // (a reload without the link finds it), and is one click away.
    const openSonar = async (p: string | null) => {
      await loadFresh(page, `${app.url}#/playground?task=mlbench_Sonar${p ? `&p=${p}` : ''}`);
      await page.waitForFunction(() => (document.querySelector('[data-testid=task-card]')?.textContent ?? '').includes('mlbench_Sonar'), null, { timeout: 30_000 });
    };
    await openSonar(packed);
    await page.waitForSelector('[data-testid=link-draft]', { timeout: 30_000 });
    expect(await editorText(page, 'program')).toBe(program);
    await setEditorText(page, 'program', `${program}# the draft, edited\n`);
    await page.waitForTimeout(500); // past the URL's debounce: a save would have happened by now
    await openSonar(null);
    expect(await editorText(page, 'program')).toBe(`${program}# edited\n`);
    await openSonar(packed);
    await page.waitForSelector('[data-testid=starter-undo]', { timeout: 30_000 });
    expect(await editorText(page, 'program')).toBe(program);
    await page.click('[data-testid=starter-undo]');
    expect(await editorText(page, 'program')).toBe(`${program}# edited\n`);
    expect(await page.locator('[data-testid=link-draft]').count()).toBe(0);
    // ... and with the user's say, the link's program becomes the saved one
    await openSonar(packed);
    await page.click('[data-testid=link-keep]');
    await page.waitForTimeout(500);
    await openSonar(null);
    expect(await editorText(page, 'program')).toBe(program);

    // A deflate bomb (a 3 KB link of 2 MiB) is refused at the cap with a message, and the tab stays responsive.
    const bomb = deflateRawSync(Buffer.alloc(2 << 20, 0x61)).toString('base64url');
    await loadFresh(page, `${app.url}#/playground?p=${bomb}`);
    await page.waitForSelector('[data-testid=link-note]', { timeout: 30_000 });
    expect(await page.locator('[data-testid=link-note]').textContent()).toMatch(/was not opened: the program in this link unpacks to more than 1048576 bytes/);

    // A cut link says so, and the editor starts from a reference program.
    await loadFresh(page, `${app.url}#/playground?p=${packed.slice(0, 10)}`);
    expect(await page.locator('[data-testid=link-note]').textContent()).toMatch(/could not be read/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Playground: a link followed while the view is open (same page, new hash) opens its task and program', async () => {
    const { page, errors } = await openView(app, '#/playground?task=mlbench_Sonar', { width: 1280, height: 1000 });
    const onTask = (id: string) => page.waitForFunction((t) => (document.querySelector('[data-testid=task-card]')?.textContent ?? '').includes(t), id, { timeout: 30_000 });
    await onTask('mlbench_Sonar');
    await page.waitForSelector('[data-testid=program] .cm-line');
    const program = '# followed while open\nprint("here")\n';
    const packed = deflateRawSync(Buffer.from(program)).toString('base64url');
    // in the same document, as a link on the page or an edited address does
    await page.evaluate((h) => (location.hash = h), `#/playground?task=vega_cars&p=${packed}`);
    await onTask('vega_cars');
    expect(await page.inputValue('[data-testid=task-select]')).toBe('vega_cars');
    await expect.poll(() => editorText(page, 'program'), { timeout: 10_000 }).toBe(program);
    // the page's own writes of the URL afterwards open nothing: the editor keeps what the user types
    await setEditorText(page, 'program', `${program}# typed\n`);
    await page.waitForFunction((before) => new URLSearchParams(location.hash.split('?')[1] ?? '').get('p') !== before, packed, { timeout: 10_000 });
    await page.waitForTimeout(500);
    expect(await editorText(page, 'program')).toBe(`${program}# typed\n`);
    // a plain link to the view (the menu's) leaves it as it is
    await page.evaluate(() => (location.hash = '#/playground'));
    await page.waitForTimeout(500);
    expect(await page.inputValue('[data-testid=task-select]')).toBe('vega_cars');
    expect(await editorText(page, 'program')).toBe(`${program}# typed\n`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an unknown route shows "not found" with links to the views, not the overview', async () => {
    const page = await app.browser.newPage();
    await page.goto(`${app.url}#/nowhere?x=1`);
    await page.waitForSelector('[data-testid=not-found]');
    expect(await page.locator('[data-testid=not-found] h1').textContent()).toBe('Not found');
    expect(await page.locator('[data-testid=not-found]').textContent()).toContain('#/nowhere');
    expect(await page.locator('[data-testid=not-found] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['#/', '#/paper', '#/train', '#/playground']);
    expect(await page.locator('text=A small code-writing agent').count()).toBe(0);
    await page.click('[data-testid=not-found] a[href="#/train"]');
    await page.waitForSelector('[data-testid=steps]');
    await page.close();
  });
});
