// Fit and predict times of each model family on a synthetic 2000 x 30 set (500 test rows), in
// Pyodide under Node. Long: not part of the test layers. Run: npm run bench:toolkit

import { TrustedPyodideRunner } from '../src/sandbox-pyodide/node-runner.ts';

const runner = await TrustedPyodideRunner.create();
const out = runner.runPython(`
import time, random, math, json
import toolkit as tk
rng = random.Random(1)
n, d = 2000, 30
X = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(n)]
w = [rng.gauss(0, 1) for _ in range(d)]
yr = [math.sumprod(r, w) + 2 * math.sin(r[0]) + rng.gauss(0, 0.5) for r in X]
yb = ['a' if v > 0 else 'b' for v in yr]
ym = [str(int(min(4, max(0, (v + 8) // 4)))) for v in yr]
Xt = X[:500]
rows = []
def run(name, m, y):
    t0 = time.perf_counter(); m.fit(X, y); t1 = time.perf_counter()
    m.predict_proba(Xt) if hasattr(m, 'predict_proba') else m.predict(Xt)
    rows.append((name, round(t1 - t0, 2), round(time.perf_counter() - t1, 2)))
run('MeanRegressor', tk.MeanRegressor(), yr)
run('Ridge(alpha=1)', tk.Ridge(1.0), yr)
run('LogisticRegression binary', tk.LogisticRegression(), yb)
run('LogisticRegression 5 classes', tk.LogisticRegression(), ym)
run('GaussianNB 5 classes', tk.GaussianNB(), ym)
run('KNeighborsRegressor k=5', tk.KNeighborsRegressor(5), yr)
run('DecisionTreeRegressor depth 6', tk.DecisionTreeRegressor(6), yr)
run('DecisionTreeClassifier 5 classes depth 6', tk.DecisionTreeClassifier(6), ym)
run('RandomForestRegressor 50 trees depth 10', tk.RandomForestRegressor(50, max_depth=10), yr)
run('RandomForestClassifier binary 50 trees depth 10', tk.RandomForestClassifier(50, max_depth=10), yb)
run('RandomForestClassifier 5 classes 50 trees depth 10', tk.RandomForestClassifier(50, max_depth=10), ym)
run('GradientBoostingRegressor 100 x depth 3', tk.GradientBoostingRegressor(100), yr)
run('GradientBoostingClassifier binary 100 x depth 3', tk.GradientBoostingClassifier(100), yb)
run('GradientBoostingClassifier 5 classes 50 x depth 3', tk.GradientBoostingClassifier(50), ym)
json.dumps(rows)
`) as string;
console.log('| model | fit s | predict 500 rows s |\n|---|---|---|');
for (const [name, fit, pred] of JSON.parse(out) as [string, number, number][]) console.log(`| ${name} | ${fit} | ${pred} |`);
