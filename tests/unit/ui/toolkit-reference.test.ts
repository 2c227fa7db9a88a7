// The in-page toolkit reference names only what the sandbox's toolkit exports and accepts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLKIT_HELPERS, toolkitModels } from '../../../src/ui/playground/toolkit-reference.ts';

const toolkit = resolve(import.meta.dirname, '../../../src/sandbox-pyodide/python/toolkit');
const init = readFileSync(resolve(toolkit, '__init__.py'), 'utf8');
/** Names the package re-exports (its `from .x import (...)` lines). */
const exported = new Set([...init.matchAll(/from \.\w+ import (\([^)]*\)|[^\n]*)/g)].flatMap((m) => m[1].replace(/[()]/g, ' ').split(/[\s,]+/).filter(Boolean)));

describe('toolkit reference', () => {
  it('every tk.name in the helpers and every model class is exported by the toolkit', () => {
    const named = [...TOOLKIT_HELPERS.flatMap((h) => [...h.call.matchAll(/tk\.(\w+)/g)].map((m) => m[1])),
      ...(['regression', 'binary', 'multiclass'] as const).flatMap((t) => toolkitModels(t).map((m) => m.cls.slice(3)))];
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((n) => !exported.has(n))).toEqual([]);
  });

  it("the Preprocessor's keywords shown are its signature's", () => {
    const sig = readFileSync(resolve(toolkit, 'preprocess.py'), 'utf8').match(/class Preprocessor:[\s\S]*?def __init__\(self, ([^)]*)\)/)![1];
    const params = new Set(sig.split(',').map((p) => p.split('=')[0].trim()));
    const shown = [...TOOLKIT_HELPERS.find((h) => h.call.includes('Preprocessor'))!.call.matchAll(/(\w+)=/g)].map((m) => m[1]);
    expect(shown.filter((p) => !params.has(p))).toEqual([]);
  });

  it('classification tasks get classifiers, regression regressors', () => {
    expect(toolkitModels('binary').map((m) => m.cls)).toContain('tk.LogisticRegression');
    expect(toolkitModels('regression').map((m) => m.cls)).not.toContain('tk.LogisticRegression');
    expect(toolkitModels('multiclass').every((m) => !m.cls.endsWith('Regressor') && !m.cls.startsWith('tk.Ridge'))).toBe(true);
  });
});
