// The family x task-type lookup as a scorer (paper-wmrl-lookup): the stored table predicts what wm-eval's
// baseline row predicts, reads back what was written, refuses a broken file, and the committed table is
// the one its fitting set gives.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselinePredictors, type CheckedProgram } from '../../../src/pipeline/wm-baselines.ts';
import { familyTypeLookupFile, fitFamilyTypeLookup, LOOKUP_FILE, parseFamilyTypeLookup, scoreWithLookup } from '../../../src/pipeline/family-type-lookup.ts';
import { REPO_ROOT } from '../../run-cli.ts';

const prog = (m: string) => `import toolkit as tk\ntask = tk.load_task()\nmodel = ${m}\nmodel.fit(task.X_train, task.y_train)\n`;
const checked = (program: string, taskType: string, y: number): CheckedProgram =>
  ({ taskId: 't', valid: y > 0, y, status: 'valid', reward: y, program, taskType, compiles: true, verifierOk: true, wm: 0.5 });

const FIT: CheckedProgram[] = [
  checked(prog('tk.RandomForestClassifier(n_trees=30)'), 'binary', 0.9),
  checked(prog('tk.RandomForestClassifier(n_trees=10)'), 'binary', 0.5),
  checked(prog('tk.RandomForestRegressor(n_trees=10)'), 'regression', 0.2),
  checked(prog('tk.Ridge(alpha=1.0)'), 'regression', 0.4),
  checked(prog('tk.KNeighborsClassifier(k=5)'), 'multiclass', 0),
  checked('print(1)\n', 'binary', 0),
];
const CARD = { binary: 'Binary classification. Metric: AUC.', regression: 'Regression. Metric: RMSE.', multiclass: 'Multiclass classification. Metric: accuracy.' } as const;

describe('the family x task-type lookup as a scorer', () => {
  it("scores every program as wm-eval's baseline row does, through the stored table", () => {
    const row = baselinePredictors(FIT).find((p) => p.name === 'family x task-type lookup')!;
    const { lookup } = parseFamilyTypeLookup(JSON.stringify(familyTypeLookupFile(fitFamilyTypeLookup(FIT), 'test')), 'test.json');
    const probes = [
      ...FIT,
      checked(prog('tk.RandomForestRegressor(n_trees=3)'), 'binary', 0), // a family seen, not with this type
      checked(prog('tk.GradientBoostingRegressor()'), 'regression', 0), // a family never seen
      checked('', 'multiclass', 0),
    ];
    for (const p of probes) expect(scoreWithLookup(lookup, CARD[p.taskType as keyof typeof CARD], p.program)).toBe(row.score(p));
    expect(scoreWithLookup(lookup, CARD.binary, FIT[0].program)).toBeCloseTo(0.7, 12);
  });

  it('refuses a file that is not a lookup, naming it', () => {
    for (const text of ['{', '{"format":"x","version":1}', JSON.stringify({ ...familyTypeLookupFile(fitFamilyTypeLookup(FIT), ''), keys: { a: [0.5, 0] } })]) {
      expect(() => parseFamilyTypeLookup(text, 'models/family-type-lookup.json')).toThrow(/models\/family-type-lookup.json: not a family x task-type lookup/);
    }
  });

  it('is committed with the models and reads back', () => {
    const text = readFileSync(resolve(REPO_ROOT, 'public/models', LOOKUP_FILE), 'utf8');
    const { lookup, fittedOn } = parseFamilyTypeLookup(text, LOOKUP_FILE);
    expect(fittedOn).toMatch(/1000 training-task programs/);
    expect(lookup.counts.get('forest')).toBeGreaterThan(0);
    expect(lookup.overall).toBeGreaterThan(0);
  });
});
