import { describe, expect, it } from 'vitest';
import { numberProblem, problemsOf } from '../../../src/ui/fields.ts';
import { configOf, defaultSettings, settingsOfConfig, settingsProblems, SETTING_SPECS } from '../../../src/ui/train/settings.ts';

describe('numberProblem', () => {
  const steps = { label: 'Steps', min: 1, max: 500, integer: true };
  it('accepts values in range, bounds included', () => {
    for (const v of [1, 20, 500]) expect(numberProblem(steps, v)).toBeNull();
  });
  it('refuses out of range, fractions, empty and non-numbers, naming the field, the range and the value', () => {
    expect(numberProblem(steps, -3)).toBe('Steps must be a whole number from 1 to 500, got -3.');
    expect(numberProblem(steps, 0)).toMatch(/got 0\.$/);
    expect(numberProblem(steps, 501)).toMatch(/got 501\.$/);
    expect(numberProblem(steps, 2.5)).toMatch(/whole number.*got 2\.5\.$/);
    expect(numberProblem(steps, null)).toBe('Steps must be a whole number from 1 to 500: enter one.');
    expect(numberProblem(steps, undefined)).toMatch(/enter one/);
    expect(numberProblem(steps, Number.NaN)).toMatch(/got NaN/);
    expect(numberProblem(steps, Number.POSITIVE_INFINITY)).toMatch(/got Infinity/);
    expect(numberProblem(steps, '3')).toMatch(/got 3/);
  });
  it('an exclusive minimum refuses the minimum itself', () => {
    const lr = { label: 'Learning rate', min: 0, max: 0.1, minExclusive: true };
    expect(numberProblem(lr, 0)).toBe('Learning rate must be a number above 0 and at most 0.1, got 0.');
    expect(numberProblem(lr, 1e-5)).toBeNull();
    expect(numberProblem(lr, 0.1)).toBeNull();
  });
  it('problemsOf keys the messages by field and skips what it is told to', () => {
    const specs = { a: steps, b: { label: 'B', min: 1, max: 32, integer: true } };
    expect(problemsOf<'a' | 'b'>(specs, { a: 5, b: 0 })).toEqual({ b: 'B must be a whole number from 1 to 32, got 0.' });
    expect(problemsOf<'a' | 'b'>(specs, { a: 5, b: 0 }, ['b'])).toEqual({});
  });
});

describe('the Train settings', () => {
  it("the defaults are valid and make the preset the main table's rule chose (paper-wmrl)", () => {
    const s = defaultSettings();
    expect(settingsProblems(s)).toEqual({});
    const c = configOf(s);
    expect(c.name).toBe('paper-wmrl');
    expect([c.steps, c.groupsPerStep, c.groupSize, c.rho]).toEqual([20, 8, 4, 0.1]);
  });
  it('steps -3 and B 0 are refused before anything starts, with the field messages', () => {
    const s = { ...defaultSettings(), steps: -3, groupsPerStep: 0 };
    const p = settingsProblems(s);
    expect(p.steps).toBe(`${SETTING_SPECS.steps.label} must be a whole number from 1 to 500, got -3.`);
    expect(p.groupsPerStep).toMatch(/from 1 to 32, got 0/);
    expect(() => configOf(s)).toThrow(p.steps);
  });
  it('every numeric setting has a range: n 1, lr 0, temperature 3, KL -1, a fractional seed are refused', () => {
    const bad = { groupSize: 1, lr: 0, temperature: 3, klBeta: -1, seed: 1.5 };
    expect(Object.keys(settingsProblems({ ...defaultSettings(), ...bad })).sort()).toEqual(Object.keys(bad).sort());
  });
  it('rho is checked only where the preset lets it be set', () => {
    expect(settingsProblems({ ...defaultSettings(), rho: 1.5 }).rho).toMatch(/from 0.01 to 0.99, got 1.5/);
    expect(settingsProblems({ ...defaultSettings(), presetId: 'grpo-all-real', rho: 1.5 })).toEqual({});
    expect(configOf({ ...defaultSettings(), presetId: 'grpo-all-real', rho: 0.5 }).rho).toBe(1);
  });
  it('a saved config gives back the settings it was made with', () => {
    const s = { ...defaultSettings(), steps: 7, groupsPerStep: 2, groupSize: 3, seed: 9, rho: 0.5, lr: 1e-4, temperature: 0.8, klBeta: 0.04 };
    expect(settingsOfConfig(configOf(s), s)).toEqual(s);
  });
});
