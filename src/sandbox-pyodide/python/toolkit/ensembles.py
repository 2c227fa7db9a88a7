"""Random forests and gradient boosting, built from the histogram trees in trees.py.

Features are binned once per fit and shared by every tree; that, not the trees, is what makes
ensembles affordable in pure Python.
"""
import math
import random

from .base import ClassifierMixin, as_columns, check_X
from .trees import Binner, class_keys_for, grow_tree


class _Binned:
    def _bin(self, X, fit):
        cols = as_columns(check_X(X))
        if fit:
            self.binner_ = Binner(self.max_bins).fit_columns(cols)
        return self.binner_.transform_columns(cols), len(X)


class _Forest(_Binned):
    def __init__(self, n_trees=50, max_depth=None, min_samples_leaf=1, max_features='sqrt',
                 bootstrap=True, max_bins=32, seed=0):
        self.n_trees = n_trees
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.max_bins = max_bins
        self.seed = seed

    def _samples(self, rng, n):
        if self.bootstrap:
            rr = rng.randrange
            return sorted(rr(n) for _ in range(n))
        return list(range(n))


class RandomForestRegressor(_Forest):
    """Bagged regression trees with per-split feature sampling. max_features: int, float, 'sqrt', None."""

    def __init__(self, n_trees=50, max_depth=None, min_samples_leaf=1, max_features=0.33,
                 bootstrap=True, max_bins=32, seed=0):
        super().__init__(n_trees, max_depth, min_samples_leaf, max_features, bootstrap, max_bins, seed)

    def fit(self, X, y):
        bcols, n = self._bin(X, True)
        nb = self.binner_.n_bins()
        rng = random.Random(self.seed)
        z = [complex(v, 1.0) for v in y]
        self.trees_ = [grow_tree(bcols, nb, self._samples(rng, n), rng, self.max_depth,
                                 self.min_samples_leaf, self.max_features, True, z=z)
                       for _ in range(self.n_trees)]
        return self

    def predict(self, X):
        bcols, n = self._bin(X, False)
        acc = [0.0] * n
        for t in self.trees_:
            acc = [a + b for a, b in zip(acc, t.predict_binned(bcols, n))]
        m = 1.0 / len(self.trees_)
        return [a * m for a in acc]


class RandomForestClassifier(_Forest, ClassifierMixin):
    """Bagged Gini trees with per-split feature sampling; probabilities are averaged over trees."""

    def fit(self, X, y):
        bcols, n = self._bin(X, True)
        nb = self.binner_.n_bins()
        yi = self._index_labels(y)
        K = len(self.classes_)
        rng = random.Random(self.seed)
        if K == 2:
            # Two classes: Gini gain is proportional to the variance reduction of the 0/1 label,
            # so the faster sum-mode tree gives the same splits; its leaf mean is P(class 1).
            z = [complex(float(v), 1.0) for v in yi]
            self.trees_ = [grow_tree(bcols, nb, self._samples(rng, n), rng, self.max_depth,
                                     self.min_samples_leaf, self.max_features, True, z=z)
                           for _ in range(self.n_trees)]
        else:
            keys = class_keys_for(bcols, yi, K)
            self.trees_ = [grow_tree(bcols, nb, self._samples(rng, n), rng, self.max_depth,
                                     self.min_samples_leaf, self.max_features, True, y_class=yi,
                                     n_classes=K, class_keys=keys)
                           for _ in range(self.n_trees)]
        return self

    def predict_proba(self, X):
        bcols, n = self._bin(X, False)
        K = len(self.classes_)
        m = 1.0 / len(self.trees_)
        if K == 2:
            acc = [0.0] * n
            for t in self.trees_:
                acc = [a + b for a, b in zip(acc, t.predict_binned(bcols, n))]
            return [[1.0 - a * m, a * m] for a in acc]
        acc = [[0.0] * K for _ in range(n)]
        for t in self.trees_:
            for row, p in zip(acc, t.predict_binned(bcols, n)):
                for k in range(K):
                    row[k] += p[k]
        return [[v * m for v in row] for row in acc]


class _Boosting(_Binned):
    def __init__(self, n_estimators=100, learning_rate=0.1, max_depth=3, min_samples_leaf=5,
                 subsample=1.0, max_features=None, max_bins=32, seed=0):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.subsample = subsample
        self.max_features = max_features
        self.max_bins = max_bins
        self.seed = seed

    def _rows(self, rng, n):
        if self.subsample >= 1.0:
            return list(range(n))
        return sorted(rng.sample(range(n), max(2, int(self.subsample * n))))

    def _fit_stage(self, bcols, nb, n, resid, rng, leaf_step):
        """One tree on the residuals; leaf values from leaf_step(rows); returns (tree, per-row update)."""
        rows = self._rows(rng, n)
        leaves = {}
        z = [complex(r, 1.0) for r in resid]
        tree = grow_tree(bcols, nb, rows, rng, self.max_depth, self.min_samples_leaf, self.max_features,
                         False, z=z, leaf_rows=leaves)
        lr = self.learning_rate
        for leaf, lrows in leaves.items():
            tree.value[leaf] = lr * leaf_step(lrows)
        if len(rows) == n:
            update = [0.0] * n
            for leaf, lrows in leaves.items():
                v = tree.value[leaf]
                for i in lrows:
                    update[i] = v
        else:
            update = tree.predict_binned(bcols, n)
        return tree, update

    def _raw(self, bcols, n, trees, init):
        acc = [init] * n
        for t in trees:
            acc = [a + b for a, b in zip(acc, t.predict_binned(bcols, n))]
        return acc


class GradientBoostingRegressor(_Boosting):
    """Least-squares boosting of shallow trees: each tree fits the current residuals."""

    def fit(self, X, y):
        bcols, n = self._bin(X, True)
        nb = self.binner_.n_bins()
        rng = random.Random(self.seed)
        self.init_ = math.fsum(y) / n
        F = [self.init_] * n
        self.trees_ = []
        self.train_loss_ = []
        for _ in range(self.n_estimators):
            resid = [a - b for a, b in zip(y, F)]
            tree, upd = self._fit_stage(bcols, nb, n, resid, rng,
                                        lambda rows: math.fsum(resid[i] for i in rows) / len(rows))
            F = [a + b for a, b in zip(F, upd)]
            self.trees_.append(tree)
            self.train_loss_.append(math.fsum((a - b) ** 2 for a, b in zip(y, F)) / n)
        return self

    def predict(self, X):
        bcols, n = self._bin(X, False)
        return self._raw(bcols, n, self.trees_, self.init_)


def _sig(s):
    if s >= 0:
        return 1.0 / (1.0 + math.exp(-s))
    e = math.exp(s)
    return e / (1.0 + e)


class GradientBoostingClassifier(_Boosting, ClassifierMixin):
    """Log-loss boosting: binary with one tree per round, multiclass softmax with one tree per class
    per round. Trees split on residuals; leaves take one Newton step (Friedman's TreeBoost)."""

    def fit(self, X, y):
        bcols, n = self._bin(X, True)
        nb = self.binner_.n_bins()
        yi = self._index_labels(y)
        K = len(self.classes_)
        rng = random.Random(self.seed)
        self.train_loss_ = []
        eps = 1e-12
        if K == 2:
            t = [float(v) for v in yi]
            p0 = min(max(sum(t) / n, 1e-6), 1 - 1e-6)
            self.init_ = [math.log(p0 / (1 - p0))]
            F = [self.init_[0]] * n
            self.trees_ = []
            for _ in range(self.n_estimators):
                p = [_sig(v) for v in F]
                resid = [a - b for a, b in zip(t, p)]

                def step(rows, resid=resid, p=p):
                    num = math.fsum(resid[i] for i in rows)
                    den = math.fsum(p[i] * (1 - p[i]) for i in rows)
                    return max(-8.0, min(8.0, num / (den + eps)))

                tree, upd = self._fit_stage(bcols, nb, n, resid, rng, step)
                F = [a + b for a, b in zip(F, upd)]
                self.trees_.append([tree])
                self.train_loss_.append(math.fsum(
                    max(v, 0.0) + math.log1p(math.exp(-abs(v))) - tv * v for v, tv in zip(F, t)) / n)
            return self
        counts = [0] * K
        for v in yi:
            counts[v] += 1
        self.init_ = [math.log(max(c, 1) / n) for c in counts]
        F = [[self.init_[k]] * n for k in range(K)]
        onehot = [[1.0 if v == k else 0.0 for v in yi] for k in range(K)]
        self.trees_ = []
        scale = (K - 1.0) / K
        for _ in range(self.n_estimators):
            P = [[0.0] * n for _ in range(K)]
            for i in range(n):
                s = [F[k][i] for k in range(K)]
                m = max(s)
                e = [math.exp(v - m) for v in s]
                tot = sum(e)
                for k in range(K):
                    P[k][i] = e[k] / tot
            stage = []
            for k in range(K):
                resid = [a - b for a, b in zip(onehot[k], P[k])]

                def step(rows, resid=resid):
                    num = math.fsum(resid[i] for i in rows)
                    den = math.fsum(abs(resid[i]) * (1 - abs(resid[i])) for i in rows)
                    return max(-8.0, min(8.0, scale * num / (den + eps)))

                tree, upd = self._fit_stage(bcols, nb, n, resid, rng, step)
                F[k] = [a + b for a, b in zip(F[k], upd)]
                stage.append(tree)
            self.trees_.append(stage)
            loss = 0.0
            for i in range(n):
                s = [F[k][i] for k in range(K)]
                m = max(s)
                loss += m + math.log(sum(math.exp(v - m) for v in s)) - s[yi[i]]
            self.train_loss_.append(loss / n)
        return self

    def decision_function(self, X):
        bcols, n = self._bin(X, False)
        K = len(self.init_)
        return [self._raw(bcols, n, [stage[k] for stage in self.trees_], self.init_[k]) for k in range(K)]

    def predict_proba(self, X):
        raw = self.decision_function(X)
        if len(raw) == 1:
            return [[1.0 - _sig(v), _sig(v)] for v in raw[0]]
        out = []
        K = len(raw)
        for i in range(len(raw[0])):
            s = [raw[k][i] for k in range(K)]
            m = max(s)
            e = [math.exp(v - m) for v in s]
            t = sum(e)
            out.append([v / t for v in e])
        return out
