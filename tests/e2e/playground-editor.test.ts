// The Playground's editor in a real browser: CodeMirror with Python line numbers; what the user types
// is kept per task across a view switch and a reload, and can be reset to the task's starting program;
// a failing program's traceback cites the user's own line numbers, without the sandbox runner's frames.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { editorText, openView, setEditorText, useServedApp } from './browser.ts';

const SYNTAX_ERROR = `import toolkit as tk

def fit(:
    pass
`;

const RUNTIME_ERROR = `import toolkit as tk
task = tk.load_task()


def fit(rows):
    return len(rows) / 0


fit(task.train)
`;

async function text(page: Page, testid: string): Promise<string> {
  return ((await page.locator(`[data-testid="${testid}"]`).first().textContent()) ?? '').trim();
}

async function openTask(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid=task-card]', { timeout: 60_000 });
  await page.waitForSelector('[data-testid=program] .cm-line');
}

describe('Playground editor (#/playground)', () => {
  const app = useServedApp({ webgpu: false });

  it('keeps the typed program per task across a view switch and a reload, and resets it', async () => {
    const { page, errors } = await openView(app, '#/playground', { width: 1280, height: 1000 });
    await openTask(page);
    const starting = await editorText(page, 'program');
    expect(starting).toContain('tk.Ridge(alpha=1.0)');
    expect(await page.locator('[data-testid=program] .cm-gutters .cm-lineNumbers').count()).toBe(1);
    // Python is highlighted: keywords get their own token markup.
    expect(await page.locator('[data-testid=program] .cm-line span').count()).toBeGreaterThan(5);

    // Typed key by key, as a user would (closing brackets and quotes are typed over).
    await page.click('[data-testid=program] .cm-content');
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('print("kept")');
    const typed = `${starting}print("kept")`;
    expect(await editorText(page, 'program')).toBe(typed);

    await page.click('nav >> text=The paper, live');
    await page.waitForSelector('[data-testid=companion]', { timeout: 60_000 });
    await page.click('nav >> text=Playground');
    await openTask(page);
    expect(await editorText(page, 'program')).toBe(typed);

    await page.reload();
    await openTask(page);
    expect(await editorText(page, 'program')).toBe(typed);

    // Another task has its own program; coming back finds this one.
    const other = await page.locator('[data-testid=task-select] option').evaluateAll((os) => (os as HTMLOptionElement[]).map((o) => o.value).find((v) => v !== 'vega_cars') ?? '');
    await page.selectOption('[data-testid=task-select]', other);
    await page.waitForFunction((id) => document.querySelector('[data-testid=task-card]')?.textContent?.includes(id), other);
    expect(await editorText(page, 'program')).not.toContain('print("kept")');
    await page.selectOption('[data-testid=task-select]', 'vega_cars');
    await page.waitForFunction(() => document.querySelector('[data-testid=task-card]')?.textContent?.includes('vega_cars'));
    expect(await editorText(page, 'program')).toBe(typed);

    // Reset to the starting program, undoably; a reload after the reset keeps the starting program.
    await page.click('[data-testid=program-reset]');
    expect(await editorText(page, 'program')).toBe(starting);
    await page.click('[data-testid=starter-undo]');
    expect(await editorText(page, 'program')).toBe(typed);
    // The typed program's link is in the URL; a reload right after the reset (well within the link's
    // 300 ms write delay) must not bring it back.
    await page.waitForFunction(() => /[?&]p=/.test(location.hash));
    await page.click('[data-testid=program-reset]');
    await page.reload();
    await openTask(page);
    expect(await editorText(page, 'program')).toBe(starting);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a failing program's traceback in the editor's line numbers, the full one on demand", async () => {
    const { page, errors } = await openView(app, '#/playground', { width: 1280, height: 1000 });
    await openTask(page);
    const runAndWait = async (): Promise<void> => {
      await page.click('[data-testid=run-button]');
      await page.waitForSelector('[data-testid=result-traceback]', { timeout: 150_000 });
      await page.waitForSelector('[data-testid=run-button]:not([disabled])', { timeout: 150_000 });
    };

    await setEditorText(page, 'program', SYNTAX_ERROR);
    await runAndWait();
    const syntax = await text(page, 'result-traceback');
    expect(syntax).toMatch(/^File "program\.py", line 3\s+def fit\(:/);
    expect(syntax).toContain('SyntaxError');
    expect(syntax).not.toContain('<exec>');
    // The raw traceback, with the runner's frame, is one click away.
    await page.click('[data-testid=result-full-traceback] summary');
    expect(await text(page, 'result-full-traceback')).toMatch(/File "<exec>", line \d+, in run[\s\S]*File "program\.py", line 3/);

    await setEditorText(page, 'program', RUNTIME_ERROR);
    await runAndWait();
    const runtime = await text(page, 'result-traceback');
    expect(runtime).toMatch(/^Traceback \(most recent call last\):\s+File "program\.py", line 9, in <module>\s+File "program\.py", line 6, in fit/);
    expect(runtime).toContain('ZeroDivisionError');
    expect(runtime).not.toContain('<exec>');
    // Line 6 of the editor is the line the traceback names.
    expect((await page.locator('[data-testid=program] .cm-gutterElement').allTextContents()).includes('6')).toBe(true);
    expect((await editorText(page, 'program')).split('\n')[5]).toBe('    return len(rows) / 0');
    expect(errors).toEqual([]);
    await page.close();
  });
});
