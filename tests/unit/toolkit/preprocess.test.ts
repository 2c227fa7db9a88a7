import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { py, pyRunner } from './python.ts';

beforeAll(async () => {
  await pyRunner();
}, 60_000);

describe('reading and preprocessing', () => {
  it('detects numeric and categorical columns, empty = missing', async () => {
    const r = await py<{ kinds: Record<string, string>; a: (number | null)[]; c: (string | null)[] }>(`
open('/tmp/t.csv', 'w').write('a,b,c\\n1.5,x,7\\n,y,\\n-2,x,8\\n')
t = tk.read_csv('/tmp/t.csv', categorical=['c'])
result = {'kinds': t.kinds, 'a': t['a'], 'c': t['c']}`);
    expect(r.kinds).toEqual({ a: 'num', b: 'cat', c: 'cat' });
    expect(r.a).toEqual([1.5, null, -2]);
    expect(r.c).toEqual(['7', null, '8']);
  });

  it('imputes with mean, median and most frequent', async () => {
    const r = await py<number[]>(`
col = [1.0, None, 2.0, 2.0, 10.0]
result = [tk.Imputer(s).fit(col).transform(col)[1] for s in ('mean', 'median', 'most_frequent', 'zero')]`);
    expect(r).toEqual([3.75, 2, 2, 0]);
  });

  it('standard scaling gives zero mean and unit variance; min-max maps onto [0, 1]', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 2, maxLength: 40 }), async (xs) => {
        const r = await py<{ mean: number; var: number; lo: number; hi: number; spread: number }>(`
col = ${JSON.stringify(xs)}
s = tk.Scaler('standard').fit(col).transform(col)
m = tk.Scaler('minmax').fit(col).transform(col)
mean = sum(s) / len(s)
result = {'mean': mean, 'var': sum((v - mean) ** 2 for v in s) / len(s), 'lo': min(m), 'hi': max(m),
          'spread': max(col) - min(col)}`);
        expect(Math.abs(r.mean)).toBeLessThan(1e-9);
        if (r.spread > 1e-6) {
          expect(r.var).toBeCloseTo(1, 6);
          expect(r.lo).toBeCloseTo(0, 12);
          expect(r.hi).toBeCloseTo(1, 12);
        }
      }),
      { numRuns: 25, seed: 11 },
    );
  });

  it('one-hot keeps the most frequent categories and pools the rest into other', async () => {
    const r = await py<{ names: string[]; rows: number[][] }>(`
col = ['a', 'b', 'a', 'c', None, 'a', 'b', 'd']
enc = tk.OneHotEncoder(max_categories=2).fit(col)
cols = enc.transform(['a', 'b', 'c', 'zzz'])
result = {'names': enc.output_names('f'), 'rows': [list(r) for r in zip(*cols)]}`);
    expect(r.names).toEqual(['f=a', 'f=b', 'f=other']);
    expect(r.rows).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [0, 0, 1],
    ]);
  });

  it('the Preprocessor learns on train only and maps test rows with the same columns', async () => {
    const r = await py<{ names: string[]; train: number[][]; test: number[][] }>(`
tr = tk.Table({'x': [1.0, None, 3.0], 'k': ['u', 'v', 'u']}, {'x': 'num', 'k': 'cat'})
te = tk.Table({'x': [None, 5.0], 'k': ['v', 'w']}, {'x': 'num', 'k': 'cat'})
pre = tk.Preprocessor(impute='mean', scale='minmax', encode='onehot', missing_indicators=True)
result = {'train': pre.fit_transform(tr), 'test': pre.transform(te), 'names': pre.feature_names_}`);
    expect(r.names).toEqual(['x', 'x_missing', 'k=u', 'k=v']);
    expect(r.train).toEqual([
      [0, 0, 1, 0],
      [0.5, 1, 0, 1],
      [1, 0, 1, 0],
    ]);
    expect(r.test).toEqual([
      [0.5, 1, 0, 1],
      [2, 0, 0, 0],
    ]);
  });

  it('log1p target transform round-trips and never predicts below zero', async () => {
    const r = await py<{ pred: number[] }>(`
import math
X = [[float(i)] for i in range(50)]
y = [math.expm1(0.1 * i) for i in range(50)]
m = tk.TargetTransform(tk.LinearRegression(), 'log1p').fit(X, y)
result = {'pred': m.predict([[10.0], [-100.0]])}`);
    expect(r.pred[0]).toBeCloseTo(Math.expm1(1), 6);
    expect(r.pred[1]).toBe(0);
  });
});

describe('metrics and validation', () => {
  it('metrics agree with hand-computed values', async () => {
    const r = await py<number[]>(`
import math
result = [tk.rmse([1, 2, 3], [1, 2, 5]), tk.auc(['p', 'n', 'p', 'n'], [0.9, 0.1, 0.4, 0.4], 'p'),
          tk.accuracy(list('aabc'), list('abbc')), tk.macro_f1(list('aabb'), list('abbb')),
          tk.rmsle([0.0, math.e - 1], [0.0, 0.0])]`);
    expect(r[0]).toBeCloseTo(Math.sqrt(4 / 3), 12);
    expect(r[1]).toBeCloseTo(0.875, 12);
    expect(r[2]).toBe(0.75);
    expect(r[3]).toBeCloseTo((2 / 3 + 0.8) / 2, 12);
    expect(r[4]).toBeCloseTo(Math.sqrt(0.5), 12);
  });

  it('k-fold validates every row once; stratified holdout keeps class shares', async () => {
    const r = await py<{ cover: number[]; disjoint: boolean; shares: number[] }>(`
y = ['a'] * 80 + ['b'] * 20
folds = tk.kfold(100, k=5, seed=1, stratify=y)
seen = [0] * 100
for tr, va in folds:
    for i in va: seen[i] += 1
tr, va = tk.train_test_split(100, 0.25, seed=2, stratify=y)
result = {'cover': sorted(set(seen)), 'disjoint': not (set(tr) & set(va)) and len(tr) + len(va) == 100,
          'shares': [sum(1 for i in va if y[i] == 'b') / len(va), sum(1 for i in tr if y[i] == 'b') / len(tr)]}`);
    expect(r.cover).toEqual([1]);
    expect(r.disjoint).toBe(true);
    expect(r.shares[0]).toBeCloseTo(0.2, 2);
    expect(r.shares[1]).toBeCloseTo(0.2, 2);
  });

  it('select_best prefers the model that fits the data by cross-validation', async () => {
    const r = await py<{ best: string; scores: Record<string, number> }>(`
import random
rng = random.Random(3)
X = [[rng.uniform(-1, 1) for _ in range(3)] for _ in range(200)]
y = [4 * x[0] - 2 * x[1] + rng.gauss(0, 0.05) for x in X]
class T: type = 'regression'; metric = 'rmse'; positive = None
best, scores = tk.select_best({'const': tk.MeanRegressor, 'ridge': lambda: tk.Ridge(0.01)}, X, y, T, k=3)
result = {'best': best, 'scores': scores}`);
    expect(r.best).toBe('ridge');
    expect(r.scores.ridge).toBeLessThan(r.scores.const / 10);
  });
});
