// What the Playground opens: a task's program (saved, starting, or a link's, as a draft beside a saved
// one), and which URLs are links to follow when the view opens again, and which are the page's own
// query bringing the view back as it was left (a run and its outcome must survive those).
import { describe, expect, it } from 'vitest';
import { asksForOther, linkOf, openedProgram, startingProgram } from '../../../src/ui/playground/program-opening.ts';
import { starterPrograms } from '../../../src/ui/playground/starter-programs.ts';

describe('the program a task opens with', () => {
  it('is the saved one, else the starting one, with nothing to restore', () => {
    expect(openedProgram('mine', 'start', null)).toEqual({ source: 'mine', undoSource: null, linkDraft: false });
    expect(openedProgram(null, 'start', null)).toEqual({ source: 'start', undoSource: null, linkDraft: false });
  });

  it("a link's program takes the editor: beside a saved program as a draft, over the starting one restorably to nothing", () => {
    expect(openedProgram('mine', 'start', 'linked')).toEqual({ source: 'linked', undoSource: 'mine', linkDraft: true });
    expect(openedProgram(null, 'start', 'linked')).toEqual({ source: 'linked', undoSource: null, linkDraft: false });
    // A link that says what the task holds anyway is no draft.
    expect(openedProgram('mine', 'start', 'mine')).toEqual({ source: 'mine', undoSource: null, linkDraft: false });
    expect(openedProgram(null, 'start', 'start')).toEqual({ source: 'start', undoSource: null, linkDraft: false });
  });

  it("the starting program is the reference menu's first for the task's type", () => {
    expect(startingProgram({ type: 'regression', metric: 'rmse' })).toBe(starterPrograms('regression', 'rmse')[0].source);
    expect(startingProgram({ type: 'binary', metric: 'auc' })).toContain('Logistic');
  });
});

describe('a URL the view opens at', () => {
  const params = (q: string) => linkOf(new URLSearchParams(q));
  const own = new Set(['OWN']);
  const suite = { mode: 'suite' as const, selectedId: 'mlbench_Sonar' };
  const csv = { mode: 'csv' as const, selectedId: 'mlbench_Sonar' };

  it('reads task, p and data=own', () => {
    expect(params('task=a&p=b&data=own')).toEqual({ task: 'a', program: 'b', ownData: true });
    expect(params('data=x')).toEqual({ task: null, program: null, ownData: false });
  });

  it("the page's own query (the menu's way back) and a plain link ask for nothing", () => {
    expect(asksForOther(params('task=mlbench_Sonar&p=OWN'), suite, own)).toBe(false);
    expect(asksForOther(params('task=mlbench_Sonar'), suite, own)).toBe(false);
    expect(asksForOther(params('data=own'), csv, own)).toBe(false);
    expect(asksForOther(params('data=own&p=OWN'), csv, own)).toBe(false);
    expect(asksForOther(params(''), suite, own)).toBe(false);
    expect(asksForOther(params(''), csv, own)).toBe(false);
  });

  it('a program the page did not write, another task or the other tab is a link to follow', () => {
    expect(asksForOther(params('task=mlbench_Sonar&p=THEIRS'), suite, own)).toBe(true);
    expect(asksForOther(params('p=THEIRS'), csv, own)).toBe(true);
    expect(asksForOther(params('task=vega_cars&p=OWN'), suite, own)).toBe(true);
    expect(asksForOther(params('task=mlbench_Sonar'), csv, own)).toBe(true);
    expect(asksForOther(params('data=own'), suite, own)).toBe(true);
  });
});
