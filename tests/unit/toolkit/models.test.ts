import { beforeAll, describe, expect, it } from 'vitest';
import { py, pyRunner } from './python.ts';

beforeAll(async () => {
  await pyRunner();
}, 60_000);

const SYNTH = `
import random, math
rng = random.Random(7)
def synth(n, d):
    return [[rng.uniform(-2, 2) for _ in range(d)] for _ in range(n)]
`;

describe('linear models', () => {
  it('least squares recovers the coefficients of a noiseless linear target', async () => {
    const r = await py<{ coef: number[]; b: number }>(`${SYNTH}
X = synth(200, 4)
w = [1.5, -2.0, 0.0, 3.25]
y = [0.7 + math.sumprod(x, w) for x in X]
m = tk.LinearRegression().fit(X, y)
result = {'coef': m.coef_, 'b': m.intercept_}`);
    [1.5, -2.0, 0.0, 3.25].forEach((w, j) => expect(r.coef[j]).toBeCloseTo(w, 6));
    expect(r.b).toBeCloseTo(0.7, 6);
  });

  it('ridge shrinks coefficients as alpha grows, and survives collinear columns', async () => {
    const r = await py<{ norms: number[]; dup: number[] }>(`${SYNTH}
X = synth(150, 3)
y = [2 * x[0] - x[1] + rng.gauss(0, 0.1) for x in X]
norms = [math.sqrt(sum(c * c for c in tk.Ridge(alpha=a).fit(X, y).coef_)) for a in (0.0, 10.0, 1000.0)]
Xd = [x + [x[0]] for x in X]
dup = tk.LinearRegression().fit(Xd, y).coef_
result = {'norms': norms, 'dup': dup}`);
    expect(r.norms[0]).toBeGreaterThan(r.norms[1]);
    expect(r.norms[1]).toBeGreaterThan(r.norms[2]);
    // Duplicated column: the weight 2 is shared between the two copies.
    expect(r.dup[0] + r.dup[3]).toBeCloseTo(2, 1);
  });

  it('logistic regression separates linearly separable classes, binary and multiclass', async () => {
    const r = await py<{ acc2: number; acc3: number; rows: number[] }>(`${SYNTH}
X = synth(300, 2)
y2 = ['yes' if x[0] + x[1] > 0 else 'no' for x in X]
m2 = tk.LogisticRegression(C=100.0, max_iter=200).fit(X, y2)
y3 = ['a' if x[0] < -0.7 else ('b' if x[0] < 0.7 else 'c') for x in X]
m3 = tk.LogisticRegression(C=100.0, max_iter=300).fit(X, y3)
result = {'acc2': tk.accuracy(y2, m2.predict(X)), 'acc3': tk.accuracy(y3, m3.predict(X)),
          'rows': [sum(p) for p in m3.predict_proba(X[:5])]}`);
    expect(r.acc2).toBeGreaterThan(0.98);
    expect(r.acc3).toBeGreaterThan(0.95);
    r.rows.forEach((s) => expect(s).toBeCloseTo(1, 9));
  });
});

describe('neighbours and naive Bayes', () => {
  it('kNN with k=1 memorises the training set; large k smooths toward the mean', async () => {
    const r = await py<{ reg: number; clf: number; far: number }>(`${SYNTH}
X = synth(120, 3)
y = [rng.gauss(0, 1) for _ in X]
lab = [rng.choice('pqr') for _ in X]
reg = tk.KNeighborsRegressor(k=1).fit(X, y).predict(X)
clf = tk.KNeighborsClassifier(k=1).fit(X, lab).predict(X)
big = tk.KNeighborsRegressor(k=120).fit(X, y).predict(X[:3])
result = {'reg': max(abs(a - b) for a, b in zip(reg, y)), 'clf': tk.accuracy(lab, clf),
          'far': max(abs(v - sum(y) / len(y)) for v in big)}`);
    expect(r.reg).toBe(0);
    expect(r.clf).toBe(1);
    expect(r.far).toBeLessThan(1e-9);
  });

  it('Gaussian naive Bayes learns class means and classifies well-separated blobs', async () => {
    const r = await py<{ acc: number }>(`${SYNTH}
X = [[rng.gauss(-2, 1), rng.gauss(0, 1)] for _ in range(100)] + [[rng.gauss(2, 1), rng.gauss(0, 1)] for _ in range(100)]
y = ['L'] * 100 + ['R'] * 100
m = tk.GaussianNB().fit(X, y)
result = {'acc': tk.accuracy(y, m.predict(X))}`);
    expect(r.acc).toBeGreaterThan(0.95);
  });
});

describe('trees and ensembles', () => {
  it('a depth-1 regression tree fits a step exactly', async () => {
    // 25 distinct values fit in 32 bins, so every gap between values is a candidate cut.
    const r = await py<{ err: number; depth: number; cut: number }>(`
X = [[(i % 25) / 5.0] for i in range(100)]
y = [3.0 if x[0] <= 4.2 else -1.0 for x in X]
m = tk.DecisionTreeRegressor(max_depth=1).fit(X, y)
p = m.predict(X)
t = m.tree_
result = {'err': max(abs(a - b) for a, b in zip(p, y)), 'depth': t.depth(),
          'cut': m.binner_.threshold_value(t.feature[0], t.threshold[0])}`);
    expect(r.err).toBeLessThan(1e-12);
    expect(r.depth).toBe(1);
    // The cut sits midway between 4.2 and the next value, 4.4.
    expect(r.cut).toBeCloseTo(4.3, 9);
  });

  it('classification trees respect max_depth and min_samples_leaf; multiclass fits XOR-like classes', async () => {
    const r = await py<{ acc: number; depth: number; minLeaf: number }>(`${SYNTH}
X = synth(400, 2)
y = [('a' if x[0] > 0 else 'b') + ('x' if x[1] > 0 else 'y') for x in X]
m = tk.DecisionTreeClassifier(max_depth=2).fit(X, y)
leafy = tk.DecisionTreeClassifier(max_depth=None, min_samples_leaf=25).fit(X, y)
bc = leafy.binner_.transform_columns(tk.base.as_columns(X))
leaves = leafy.tree_.apply(bc, len(X))
from collections import Counter
result = {'acc': tk.accuracy(y, m.predict(X)), 'depth': m.tree_.depth(), 'minLeaf': min(Counter(leaves).values())}`);
    expect(r.acc).toBeGreaterThan(0.97);
    expect(r.depth).toBeLessThanOrEqual(2);
    expect(r.minLeaf).toBeGreaterThanOrEqual(25);
  });

  it('random forests are deterministic for a seed and differ across seeds', async () => {
    const r = await py<{ same: boolean; differ: boolean; acc: number }>(`${SYNTH}
X = synth(300, 5)
y = [x[0] * x[1] + math.sin(x[2]) for x in X]
a = tk.RandomForestRegressor(n_trees=8, max_depth=6, seed=3).fit(X, y).predict(X[:50])
b = tk.RandomForestRegressor(n_trees=8, max_depth=6, seed=3).fit(X, y).predict(X[:50])
c = tk.RandomForestRegressor(n_trees=8, max_depth=6, seed=4).fit(X, y).predict(X[:50])
lab = ['p' if v > 0 else 'n' for v in y]
clf = tk.RandomForestClassifier(n_trees=15, max_depth=8, seed=0).fit(X, lab)
result = {'same': a == b, 'differ': a != c, 'acc': tk.accuracy(lab, clf.predict(X))}`);
    expect(r.same).toBe(true);
    expect(r.differ).toBe(true);
    expect(r.acc).toBeGreaterThan(0.9);
  });

  it('gradient boosting lowers its training loss round after round (regression, binary, multiclass)', async () => {
    const r = await py<{ losses: number[][] }>(`${SYNTH}
X = synth(300, 4)
y = [x[0] ** 2 - x[1] + 0.3 * x[2] * x[3] for x in X]
reg = tk.GradientBoostingRegressor(n_estimators=30, learning_rate=0.2, max_depth=3).fit(X, y)
binm = tk.GradientBoostingClassifier(n_estimators=30, learning_rate=0.2).fit(X, ['hi' if v > 1 else 'lo' for v in y])
mc = tk.GradientBoostingClassifier(n_estimators=15, learning_rate=0.3).fit(X, [str(min(3, max(0, int(v + 1)))) for v in y])
result = {'losses': [reg.train_loss_, binm.train_loss_, mc.train_loss_]}`);
    for (const loss of r.losses) {
      for (let i = 1; i < loss.length; i++) expect(loss[i]).toBeLessThanOrEqual(loss[i - 1] + 1e-9);
      expect(loss[loss.length - 1]).toBeLessThan(0.5 * loss[0]);
    }
  });
});
